"""End to end, the cases of a whole family game (issue 23), in the words the family reads: a rearrangement
typed as the sets made, the opening that only a play makes, turns as a family takes them (a draw in one tap,
a play in two messages, the pool counted), going out and the score by the box, numbers that agree with the
table, and set numbers that stay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.telegram import plays
from bot.telegram.runtime.work import play_picture
from tests.bot_support import ALICE, BOB, CAROL, Session, melded, rack_of, session
from tests.fake_bot_api import Call, Chat, User

GROUP = Chat(-100111, "group", "Family")


async def family(s: Session, *racks: tuple[User, str], table: str = "") -> Call:
    """Alice starts a game, Bob and Carol join, each opens their private chat and sends a rack; ``table``: the
    table the game starts from. Returns the /new message (its buttons)."""
    created = await s.ask(ALICE, "/new", GROUP)
    for user in (BOB, CAROL):
        await s.tap(user, created, "Join", GROUP.id)
    if table:
        await s.ask(ALICE, f"/table {table}", GROUP)
    for user, rack in racks:
        mark = s.fake.mark()
        s.fake.follow(user, created, "My rack")
        await s.fake.reply(user.id, mark)
        await s.ask(user, f"/rack {rack}")
    return created


async def play(s: Session, user: User, text: str) -> Call:
    """``user`` types ``/play text`` in the group; the group's answer."""
    return await s.ask(user, f"/play {text}", GROUP)


async def drew(s: Session, user: User) -> Call:
    return await s.ask(user, "/draw", GROUP)


async def table_of(s: Session) -> list[str]:
    return [str(x) for x in (await s.service.active_game(GROUP.id)).table]


async def test_a_rearrangement_typed_as_the_sets_made_takes_the_tiles_from_where_they_lie(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(
            s,
            (ALICE, "10B 11B 12B 3R 4R 5R 6R 7B 7K 12O 13K"),
            table="4R 4B 4K 4O | 5O 6O 7O | 9O J 11O",
        )
        opened = await play(s, ALICE, "10B 11B 12B")
        assert opened.text.startswith("Alice put down 10B 11B 12B (3 tiles, 33 points). Bob to play.")
        await drew(s, BOB)
        await drew(s, CAROL)
        played = await play(s, ALICE, "3R 4R 5R 6R | 4O 5O 6O | 7B 7K 7O | 9O J 11O 12O")
        assert played.method == "sendPhoto", played.text
        assert played.text.startswith("Alice put down 12O | 3R 4R 5R 6R | 7B 7K (7 tiles, 44 points). Bob to play.")
        assert sorted(await table_of(s)) == sorted(
            ["4R 4B 4K", "9O J 11O 12O", "10B 11B 12B", "3R 4R 5R 6R", "4O 5O 6O", "7B 7K 7O"]
        )
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["13K"]


async def test_a_tile_taken_from_a_group_and_another_laid_in_its_place_is_one_tile_each(tmp_path: Path) -> None:
    """Clara's play: 10R onto the run, her 4R into the group, and a blue run with the group's 4B."""
    async with session(tmp_path) as s:
        await family(s, (CAROL, "10R 4R 3B 5B 6B 1K"), table="7R 8R 9R | 4B 4K 4O")
        await s.ask(ALICE, "/draw", GROUP)
        await s.ask(BOB, "/draw", GROUP)
        opening = await play(s, CAROL, "10R | 4R | 3B 4B 5B 6B")
        assert "initial meld" in opening.text  # Carol has not opened: the group is asked
        recorded = await s.tap(CAROL, opening, "Record it anyway", GROUP.id)
        assert recorded.text.startswith("Carol put down ")
        table = await table_of(s)
        assert sorted(table) == sorted(["7R 8R 9R 10R", "4R 4K 4O", "3B 4B 5B 6B"])
        assert rack_of(await s.player(GROUP.id, CAROL)) == ["1K"]


async def test_points_count_a_joker_as_the_tile_it_stands_for(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(s, (ALICE, "9R 9K 9O 13R 13B J 2K"), (BOB, "11O J 13O 1B 5K"))
        played = await play(s, ALICE, "9R 9K 9O | 13R 13B J")
        assert played.text.startswith("Alice put down 9R 9K 9O | 13R 13B J (6 tiles, 66 points).")
        answer = await s.ask(BOB, "/solve", methods=("sendPhoto",))
        assert "Best opening (most tiles): 3 tiles, 36 points: 11O J 13O" in answer.text


async def test_the_opening_is_made_by_playing_it_in_a_group(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(s, (ALICE, "3B 3K 3O 5R 9B"), (BOB, "1K 2K 3K 8O"), table="10R 11R 12R")
        answer = await s.ask(ALICE, "/solve")
        assert "No opening worth 30 points" in answer.text
        assert not [b for b in answer.buttons if "melded" in b["text"]]  # no way to skip it with a tap
        refused = await s.ask(ALICE, "/meld")
        assert "made by playing it" in refused.text
        mark = s.fake.mark()
        asked = await s.ask(ALICE, "/play 3B 3K 3O")  # typed in her private chat: the group decides
        assert asked.text.startswith("Family: Not an opening (an initial meld needs 30 points; this one has 9 of 30)")
        question = await s.fake.reply(GROUP.id, mark)
        assert question.text.startswith("Alice has not made the initial meld yet")
        assert question.button("Record it anyway")
        await s.tap(ALICE, question, "Record it anyway", GROUP.id)
        alice = await s.player(GROUP.id, ALICE)
        assert alice.melded and rack_of(alice) == ["5R", "9B"]


async def test_a_draw_ends_the_turn_in_one_tap_and_the_tile_is_named_in_private(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(s, (ALICE, "1R 2R"), (BOB, "4K 5K"), (CAROL, "9O 10O"))
        game = await s.service.active_game(GROUP.id)
        assert game.pool == 106 - 6
        mark = s.fake.mark()
        drew_ = await drew(s, ALICE)
        assert drew_.text == "Alice drew a tile. Bob to play. 99 tiles in the pool."
        asked = await s.fake.reply(ALICE.id, mark)
        assert asked.text.startswith("Family: You drew a tile: which one?") and asked.button("7")
        mark = s.fake.mark()
        s.fake.tap(ALICE, asked, "🔵7")  # the keyboard names it: blue 7
        await s.fake.call("editMessageText", mark)
        done = await s.tap(ALICE, asked, "Done", ALICE.id)
        assert "Noted: you drew 7B." in done.text
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["1R", "2R", "7B"]
        assert (await s.service.active_game(GROUP.id)).turn == BOB.id  # naming it took no turn
        # the group's button under the turn line is the next player's draw
        tapped = await s.tap(BOB, drew_, "I drew", GROUP.id)
        assert tapped.text == "Bob drew a tile. Carol to play. 98 tiles in the pool."
        mark = s.fake.mark()
        s.fake.tap(BOB, drew_, "I drew")  # the same button again: its turn is over, nothing is drawn
        again = await s.fake.call("answerCallbackQuery", mark)
        assert "earlier turn" in again.params["text"]
        assert (await s.service.active_game(GROUP.id)).pool == 98
        # a draw told in private with its tile: the turn and the tile at once, the group hears the turn
        mark = s.fake.mark()
        mine = await s.ask(CAROL, "/draw 11O")
        assert mine.text.startswith("Family: You drew 11O.")
        posted = await s.fake.reply(GROUP.id, mark)
        assert posted.text == "Carol drew a tile. Alice to play. 97 tiles in the pool."
        assert "11O" not in posted.text


async def test_a_play_in_two_messages_is_one_turn(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(s, (ALICE, "10R 11R 12R 5B 5K 5O 1K"), (BOB, "2B 3B"))
        first = await play(s, ALICE, "10R 11R 12R")
        assert first.text.startswith("Alice put down 10R 11R 12R (3 tiles, 33 points). Bob to play.")
        second = await play(s, ALICE, "5B 5K 5O")
        assert second.text.startswith("Alice adds 5B 5K 5O to their play (3 tiles, 15 points). Bob to play.")
        game = await s.service.active_game(GROUP.id)
        assert game.turn == BOB.id and rack_of(await s.player(GROUP.id, ALICE)) == ["1K"]
        await drew(s, BOB)  # Bob acts: Alice's turn is over
        late = await play(s, ALICE, "10R 11R 12R 13R")
        assert late.text == "It is Carol's turn. Whose play is this?"


async def test_going_out_ends_the_game_and_it_is_scored_by_the_box(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await family(s, (ALICE, "10R 11R 12R"), (BOB, "5B J"), (CAROL, "13K 2O"))
        out = await play(s, ALICE, "10R 11R 12R")
        assert out.text.startswith(
            "Alice put down 10R 11R 12R (3 tiles, 33 points). Alice has no tile left: Alice wins!"
        )
        assert "Bob, Carol: tell me the tiles left on your rack" in out.text
        late = await drew(s, BOB)
        assert late.text.startswith("This game is over: tell me the tiles left on your rack")
        told = await s.tap(BOB, out, "My rack as you have it", GROUP.id)
        assert told.text.startswith("Bob has 35 points left: 5B J.")
        assert "Carol: tell me the tiles left" in told.text
        scored = await s.ask(CAROL, "/left 13K 2O", GROUP)
        assert scored.text.splitlines()[1:] == [
            "Game over. Alice wins.",
            "Alice: +50",
            "Carol: \u221215",
            "Bob: \u221235",
            "/scores shows the totals.",
        ]
        assert await s.service.find_active_game(GROUP.id) is None
        board = await s.tap(ALICE, scored, "Scores", GROUP.id)
        assert board.method == "sendPhoto" and board.photo is not None
        assert "Totals after 1 game:" in board.text and "Alice: +50 (1 won)" in board.text
        # each player's review, asked in the group, arrives in private: Alice's one play was her best
        mark = s.fake.mark()
        s.fake.tap(ALICE, scored, "📝 My review (in private)")
        review = await s.fake.reply(ALICE.id, mark)
        assert review.text == "Family: Your game in review:\nBest plays: 1 of your 1 turn (100%)\nNo turn missed a tile"
        assert not s.fake.sent(GROUP.id, mark)
        again = await s.tap(BOB, scored, "New game, same players", GROUP.id)
        assert again.text.startswith("New game (standard rules).\nPlayers: Bob, Carol, Alice. Bob to play.")
        game = await s.service.active_game(GROUP.id)
        assert [p.name for p in game.active_players] == ["Bob", "Carol", "Alice"] and game.pool == 106 - 42
        assert created.text  # the first game's buttons are the old game's


async def test_a_set_keeps_its_number_from_turn_to_turn_in_the_group_and_in_private(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(s, (ALICE, "9B 1K 2K"), (BOB, "10B 12O"), table="1R 2R 3R | 5O 6O 7O | 6B 7B 8B | 4K 5K 6K")
        await melded(s, GROUP.id, ALICE, BOB)
        await play(s, ALICE, "6B 7B 8B 9B")  # set 3 grew
        game = await s.service.active_game(GROUP.id)
        numbered = dict(zip(map(str, game.table), game.numbers, strict=True))
        assert numbered["6B 7B 8B 9B"] == 3 and numbered["4K 5K 6K"] == 4
        # Bob's private answer names set 3 as the group's picture numbers it
        answer = await s.ask(BOB, "/solve", methods=("sendPhoto",))
        assert "set 3" in answer.text and "10B" in answer.text
        mark = s.fake.mark()
        s.fake.tap(BOB, answer, "I played this")
        await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        game = await s.service.active_game(GROUP.id)
        numbered = dict(zip(map(str, game.table), game.numbers, strict=True))
        assert numbered["6B 7B 8B 9B 10B"] == 3 and numbered["1R 2R 3R"] == 1 and numbered["4K 5K 6K"] == 4


async def test_a_stale_suggestion_is_said_stale_before_anything_is_asked(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await family(s, (ALICE, "10R 11R 12R 1K"), (BOB, "10B 11B 12B 2K"))
        await melded(s, GROUP.id, ALICE, BOB)
        answer = await s.ask(BOB, "/solve", methods=("sendPhoto",))  # on Alice's turn
        await play(s, ALICE, "10R 11R 12R")  # the table changes
        mark = s.fake.mark()
        s.fake.tap(BOB, answer, "I played this")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert "changed since this suggestion" in alert.params["text"]
        assert not s.fake.sent(BOB.id, mark)  # no "It is Alice's turn… record anyway?" question first


async def test_a_play_made_in_private_is_drawn_once_for_a_group_of_the_same_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25's first defect: the group's picture of a play made in private was drawn a second time even when
    the group reads the same language; it is drawn again only for a group that speaks another."""
    drawings: list[str] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawings.append(kwargs["wording"].unchanged)
        return play_picture(*args, **kwargs)

    monkeypatch.setattr(plays, "play_picture", counted)
    async with session(tmp_path) as s:
        await family(s, (ALICE, "9B 1K 2K"), (BOB, "10B 12O"), table="6B 7B 8B | 4K 5K 6K")
        await melded(s, GROUP.id, ALICE, BOB)
        mark = s.fake.mark()
        private = await s.ask(ALICE, "/play 6B 7B 8B 9B", methods=("sendPhoto",))
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert len(drawings) == 1 and posted.photo == private.photo
        await s.ask(ALICE, "/language de", GROUP)
        mark = s.fake.mark()
        private = await s.ask(BOB, "/play 6B 7B 8B 9B 10B", methods=("sendPhoto",))
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
    assert len(drawings) == 3 and drawings[1] != drawings[2] and posted.photo != private.photo
