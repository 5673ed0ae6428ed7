"""End to end, which game a message is about: a private chat tied to a group's game names the group, stays
tied until the player switches (/games) or the game ends (then it says so), and untied follows the one group
game the player sits at. Closing a game in progress, or playing out of turn with "I played this", asks first."""

from __future__ import annotations

from pathlib import Path

from tests.bot_support import ALICE, BOB, rack_of, session, tie_private_chat, tiles
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.fake_bot_api import Chat

COUSINS = Chat(-100333, "group", "Cousins")


async def test_a_rack_sent_before_tapping_my_rack_goes_to_the_one_group_game(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1K 2K")  # an old solo game of hers
        await new_game_with_two(s)
        answer = await s.ask(ALICE, "rack: 3R 4R 5R J")  # never tapped My rack
        assert answer.text.startswith("Family: ")
        refused = await s.ask(ALICE, "/draw 14R")  # a mistake about the group's game names the group too
        assert refused.text.startswith("Family: ") and "from 1 to 13" in refused.text
        shown = await s.ask(ALICE, "/rack")  # after the rack's store (a chat's messages go in order)
        assert shown.text.startswith("Family: Your rack (4 tiles)")
        assert rack_of(await s.player(GROUP.id, ALICE)) == tiles("3R 4R 5R J")


async def test_games_lists_every_table_and_switches_between_them(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        family = await new_game_with_two(s)
        cousins = await s.ask(ALICE, "/new", COUSINS)
        await tie_private_chat(s, family, ALICE, "1R 2R")
        await tie_private_chat(s, cousins, ALICE, "9B 9K")
        listed = await s.ask(ALICE, "/games")
        assert listed.text.splitlines() == [
            "Your games:",
            "• Family: 2 players",
            "• Cousins: 1 player ← this chat",
        ]
        assert [b["text"] for b in listed.buttons] == ["Switch to Family"]
        switched = await s.tap(ALICE, listed, "Switch to Family")
        assert switched.text == "This chat is now at Family.\nYour rack (2 tiles): 1R 2R"
        rack = await s.ask(ALICE, "/rack")
        assert rack.text.startswith("Family: Your rack (2 tiles): 1R 2R")
        refused = await s.ask(ALICE, "/games", GROUP)
        assert "private chat" in refused.text


async def test_a_tied_chat_says_when_the_groups_game_is_over(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie_private_chat(s, created, ALICE, "1R 2R")
        await s.ask(BOB, "/table 10K 11K 12K", GROUP)
        asked = await s.ask(ALICE, "/end", GROUP)
        stopped = await s.tap(ALICE, asked, "Stop the game", GROUP.id)
        await s.tap(ALICE, stopped, "My rack as you have it", GROUP.id)
        scored = await s.ask(BOB, "/left 4K 5K", GROUP)  # the last rack told: the game is over and scored
        assert "Game over. Alice wins." in scored.text
        mark = s.fake.mark()
        s.fake.send(ALICE, "/rack 5B")
        said = await s.fake.replies(ALICE.id, mark, 2)
        assert said[0].text.startswith("The game in Family is over for you, so this chat is back to your own game.")
        assert said[1].text.startswith("Your rack (1 tile): 5B")


async def test_new_over_a_private_game_in_progress_asks_first(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 1R 2R 3R 4R 5R 6R 7R 8R 9R")
        asked = await s.ask(ALICE, "/new meld=25")
        assert asked.text.startswith("A game is in progress here.")
        assert rack_of(await s.player(ALICE.id, ALICE)) == tiles("1R 2R 3R 4R 5R 6R 7R 8R 9R")  # kept until a tap
        mark = s.fake.mark()
        started = await s.tap(ALICE, asked, asked.buttons[0]["text"])
        await s.fake.call("answerCallbackQuery", mark)
        assert started.text.startswith("New game (standard rules except: a first play (initial meld) of at least 25")
        assert rack_of(await s.player(ALICE.id, ALICE)) == []
        mark = s.fake.mark()
        s.fake.tap(ALICE, asked, asked.buttons[0]["text"])  # a second tap does nothing more
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert "already answered" in alert.params["text"]


async def test_i_played_this_out_of_turn_asks_before_recording(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie_private_chat(s, created, BOB, "10R 11R 12R 4K")
        suggestion = await s.ask(BOB, "/solve", methods=("sendPhoto",))
        asked = await s.tap(BOB, suggestion, "I played this")
        assert asked.text.startswith("Family: It is Alice's turn. Record this play as yours anyway?")
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("10R 11R 12R 4K")  # nothing yet
        mark = s.fake.mark()
        s.fake.tap(BOB, asked, "Yes, I played it")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == (
            "Bob put down 10R 11R 12R (3 tiles, 33 points). Turn passed over: Alice. Alice to play. "
            "88 tiles in the pool."
        )
        assert rack_of(await s.player(GROUP.id, BOB)) == ["4K"]


async def test_a_draw_told_in_private_out_of_turn_asks_before_recording(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tie_private_chat(s, created, BOB, "10R 11R 12R 4K")
        asked = await s.ask(BOB, "/draw 7K")  # on Alice's turn
        assert asked.text == "Family: It is Alice's turn. Record your draw anyway? Alice's turn is passed over."
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("10R 11R 12R 4K")  # nothing yet
        mark = s.fake.mark()
        s.fake.tap(BOB, asked, "Yes, I drew")
        posted = await s.fake.reply(GROUP.id, mark)
        assert posted.text == "Bob drew a tile. Turn passed over: Alice. Alice to play. 87 tiles in the pool."
        assert "7K" not in posted.text  # the group never reads the tile
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("10R 11R 12R 4K 7K")
