"""End to end, the table a group shares: every tile on it stays, however a player writes the change.

/table, a ``table:`` line in the group and a ``rack:``/``table:`` message in a private chat linked to the
group all change the same table: they keep every old tile (or say ``fix``), new tiles are a play, and the
group sees each change without learning anyone's rack.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import bot.telegram.table as table_module
import solver.table as solver_table
from tests.bot_support import ALICE, BOB, Session, rack_of, session, tie_private_chat, tiles
from tests.fake_bot_api import Call, Chat, User
from tests.test_bot_group import GROUP, new_game_with_two

GROUP2 = Chat(-100222, "group", "Cousins")


async def table_of(s: Session) -> list[str]:
    return [str(x) for x in (await s.service.active_game(GROUP.id)).table]


async def linked(s: Session, created: Call, *players: tuple[User, str]) -> None:
    """Each player opens the group's deep link and sets a rack in private."""
    for user, rack in players:
        await tie_private_chat(s, created, user, rack)


async def test_table_in_the_group_keeps_every_old_tile_unless_fixed(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 5K 5O 5B", GROUP)
        before = await s.service.active_game(GROUP.id)

        refused = await s.ask(BOB, "/table 9K 10K 11K", GROUP)
        assert refused.method == "sendMessage"
        assert "lacks 1R 2R 3R 5B 5K 5O" in refused.text and "/table fix" in refused.text
        after = await s.service.active_game(GROUP.id)
        assert after.table == before.table and after.version == before.version

        # the same in a table: line
        refused = await s.ask(BOB, "table: 1R 2R 3R", GROUP)
        assert "lacks 5B 5K 5O" in refused.text
        assert await table_of(s) == ["1R 2R 3R", "5B 5K 5O"]

        fixed = await s.ask(BOB, "/table fix 1R 2R 3R | 5K 5O 5R", GROUP)
        assert fixed.method == "sendPhoto" and fixed.text == "Table corrected: 2 sets."
        assert await table_of(s) == ["1R 2R 3R", "5R 5K 5O"]
        assert (await s.service.active_game(GROUP.id)).turn == ALICE.id  # a correction is not a play


async def test_new_tiles_in_a_table_are_a_play_shown_to_the_group(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        played = await s.ask(ALICE, "/table 1R 2R 3R 4R | 9B 9K 9O", GROUP)
        assert played.method == "sendPhoto"
        assert played.text == "Recorded: 4R 9B 9K 9O (4 tiles) put down. Bob to play."
        assert await table_of(s) == ["1R 2R 3R 4R", "9B 9K 9O"]
        assert (await s.service.active_game(GROUP.id)).turn == BOB.id


async def test_play_of_a_grown_set_replaces_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 5B 5K 5O", GROUP)
        played = await s.ask(ALICE, "/play 1R 2R 3R 4R", GROUP)
        assert played.text.startswith("Recorded: 4R (1 tile) put down.")
        assert await table_of(s) == ["1R 2R 3R 4R", "5B 5K 5O"]
        # a set equal to one on the table is a second one (the deck has two of each tile)
        await s.ask(BOB, "/play 5B 5K 5O", GROUP)
        assert await table_of(s) == ["1R 2R 3R 4R", "5B 5K 5O", "5B 5K 5O"]


async def test_a_table_typed_in_a_linked_private_chat_changes_the_groups_table_in_the_open(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await linked(s, created, (BOB, "1B 2B 3B 9K"))
        before = await s.service.active_game(GROUP.id)

        # tiles gone from the group's table: refused in private, nothing stored, the group hears nothing
        mark = s.fake.mark()
        refused = await s.ask(BOB, "rack: 1B 2B 3B 9K 12R\ntable: 10O 11O 12O")
        assert "lacks 1K 2K 3K" in refused.text
        assert (await s.service.active_game(GROUP.id)).version == before.version
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("1B 2B 3B 9K")
        assert not s.fake.sent(GROUP.id, mark)

        # Bob's own play, typed as the new table: recorded from his rack, solved, and posted in the group
        mark = s.fake.mark()
        answer = await s.ask(BOB, "table: 1K 2K 3K | 1B 2B 3B")
        assert answer.method in ("sendPhoto", "sendMessage")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Bob put down 1B 2B 3B (3 tiles). Alice to play."
        assert "9K" not in posted.text
        assert await table_of(s) == ["1K 2K 3K", "1B 2B 3B"]
        assert rack_of(await s.player(GROUP.id, BOB)) == ["9K"]

        # "fix" with no table after it is a mistake, not an empty table
        refused = await s.ask(BOB, "table: fix")
        assert refused.text.startswith("Write the whole table after fix")
        assert await table_of(s) == ["1K 2K 3K", "1B 2B 3B"]

        # the same sets in another order change nothing
        mark = s.fake.mark()
        await s.ask(BOB, "table: 1B 2B 3B | 1K 2K 3K")
        assert not s.fake.sent(GROUP.id, mark)
        assert await table_of(s) == ["1K 2K 3K", "1B 2B 3B"]


async def test_what_the_group_reads_never_tells_a_rack(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await linked(s, created, (BOB, "13K 13K 5R 6R 7R"))
        mark = s.fake.mark()
        # the table is right as everyone sees it; Bob's rack, typed earlier, is out of date
        answer = await s.ask(BOB, "/table 11K 12K 13K | 13R 13B 13K", GROUP)
        assert answer.method == "sendPhoto"
        assert await table_of(s) == ["11K 12K 13K", "13R 13B 13K"]
        refused = await s.ask(BOB, "/play 5R 6R 7R", GROUP)  # from his rack, which cannot be right
        assert "out of date" in refused.text
        assert await table_of(s) == ["11K 12K 13K", "13R 13B 13K"]
        assert all("13K" not in c.text and "copies" not in c.text for c in s.fake.sent(GROUP.id, mark))


async def test_a_play_recorded_while_another_table_was_read_is_never_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, go = solver_table.read_table, threading.Event()

    def held_back(*args: Any, **kwargs: Any) -> Any:  # Bob's loose tiles are laid out only after Alice's play
        go.wait(10)
        return read(*args, **kwargs)

    monkeypatch.setattr(table_module, "read_table", held_back)
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 4R 5R 6R", GROUP)
        await linked(s, created, (BOB, "9K 10K"), (ALICE, "9B 9K 9O 10R 11R 12R 1O"))
        mark = s.fake.mark()
        s.fake.send(BOB, "table: 1R 2R 3R 4R 5R 6R")  # the same tiles as one run, read by the solver
        played = await s.ask(ALICE, "/play 9B 9K 9O | 10R 11R 12R", GROUP)
        assert played.text.startswith("Alice put down")
        go.set()
        refused = await s.fake.reply(BOB.id, mark)
        assert refused.text.startswith("The table changed while I read your message")
        assert await table_of(s) == ["1R 2R 3R", "4R 5R 6R", "9B 9K 9O", "10R 11R 12R"]


async def test_a_play_undone_while_another_table_was_read_stays_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read, go = solver_table.read_table, threading.Event()

    def held_back(*args: Any, **kwargs: Any) -> Any:
        go.wait(10)
        return read(*args, **kwargs)

    monkeypatch.setattr(table_module, "read_table", held_back)
    go.set()
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        await linked(s, created, (BOB, "9K 10K"), (ALICE, "4R 5R 6R 9K"))
        await s.ask(ALICE, "/play 4R 5R 6R", GROUP)
        go.clear()  # from here, loose tiles are laid out only when the test says so
        mark = s.fake.mark()
        s.fake.send(BOB, "table: 1R 2R 3R 4R 5R 6R")  # the table as it is now, as loose tiles
        undone = await s.ask(ALICE, "/undo", GROUP)
        assert undone.text.startswith("Undone: Alice's play")
        go.set()
        refused = await s.fake.reply(BOB.id, mark)
        assert refused.text.startswith("The table changed while I read your message")
        assert await table_of(s) == ["1R 2R 3R"]
        assert rack_of(await s.player(GROUP.id, ALICE)) == tiles("4R 5R 6R 9K")


async def test_undo_of_a_correction_in_the_group_does_not_look_at_racks(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await linked(s, created, (BOB, "13K 13K 5R 6R 7R"))
        await s.ask(ALICE, "/table 11K 12K 13K", GROUP)
        await s.ask(ALICE, "/table fix 1R 2R 3R", GROUP)
        mark = s.fake.mark()
        undone = await s.ask(BOB, "/undo", GROUP)
        assert undone.text.startswith("Undone: Alice's table")
        assert await table_of(s) == ["11K 12K 13K"]
        assert all("13K" not in c.text for c in s.fake.sent(GROUP.id, mark))


async def test_the_first_table_is_a_play_when_it_comes_from_a_rack(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await linked(s, created, (ALICE, "10R 11R 12R 5K"))
        mark = s.fake.mark()
        await s.ask(ALICE, "table: 10R 11R 12R")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Alice put down 10R 11R 12R (3 tiles). Bob to play."
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["5K"]
        # a first table no known rack holds is where the game starts: nobody played it
        await s.ask(ALICE, "/new", GROUP2)
        started = await s.ask(ALICE, "/table 1K 2K 3K", GROUP2)
        assert started.text == "Table set: 1 set."
        assert (await s.service.active_game(GROUP2.id)).turn == ALICE.id


async def test_one_tile_joins_two_runs(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 5R 6R 7R | 9K 9O 9B", GROUP)
        played = await s.ask(ALICE, "/play 1R 2R 3R 4R 5R 6R 7R", GROUP)
        assert played.text.startswith("Recorded: 4R (1 tile) put down.")
        assert await table_of(s) == ["1R 2R 3R 4R 5R 6R 7R", "9B 9K 9O"]
        # the reading with the fewest new tiles: 7R joins 1R-3R and 4R-6R; the longer 2R-5R is another set
        await s.ask(BOB, "/table fix 2R 3R 4R 5R | 1R 2R 3R | 4R 5R 6R", GROUP)
        played = await s.ask(BOB, "/play 1R 2R 3R 4R 5R 6R 7R", GROUP)
        assert played.text.startswith("Recorded: 7R (1 tile) put down.")
        assert await table_of(s) == ["2R 3R 4R 5R", "1R 2R 3R 4R 5R 6R 7R"]


async def test_a_copy_of_the_only_set_on_the_table_is_a_second_set(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 5B 5K 5O", GROUP)
        played = await s.ask(ALICE, "/play 5B 5K 5O", GROUP)
        assert played.text.startswith("Recorded: 5B 5K 5O (3 tiles) put down.")
        assert await table_of(s) == ["5B 5K 5O", "5B 5K 5O"]


async def test_a_play_is_charged_to_the_rack_of_the_player_whose_turn_it_is(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/pass", GROUP)  # Bob to play
        await linked(s, created, (ALICE, "9B 9K 9O 12R"), (BOB, "9B 9K 9O 1R"))
        recorded = await s.ask(ALICE, "/table 9B 9K 9O", GROUP)  # Alice records Bob's play
        assert recorded.text == "Bob put down 9B 9K 9O (3 tiles). Alice to play."
        assert rack_of(await s.player(GROUP.id, BOB)) == ["1R"]
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["12R", "9B", "9K", "9O"]


async def test_a_rack_typed_with_the_table_says_what_left_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await linked(s, created, (BOB, "1B 2B 3B 9K"))
        mark = s.fake.mark()
        # his rack as it still is: the 1B 2B 3B on the table are not his (the second copies, Alice's turn)
        await s.ask(BOB, "rack: 1B 2B 3B 9K\ntable: 1K 2K 3K | 1B 2B 3B")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Recorded: 1B 2B 3B (3 tiles) put down by Alice. Bob to play."
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("1B 2B 3B 9K")
        # his last tiles, played by typing the new table (with an empty rack: line or none): he has won
        await s.ask(BOB, "/rack 9K 10K 11K")
        mark = s.fake.mark()
        won = await s.ask(BOB, "rack:\ntable: 1K 2K 3K | 1B 2B 3B | 9K 10K 11K")
        assert won.text == "Played 9K 10K 11K.\nYour rack is empty: you won! /end closes the game."
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text.startswith("Bob put down 9K 10K 11K (3 tiles). Bob has no tile left: Bob won!")


async def test_a_rack_typed_with_the_table_outweighs_whose_turn_it_is(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        await linked(s, created, (ALICE, "4R 9B 12K"), (BOB, "4R 1K"))
        mark = s.fake.mark()
        await s.ask(BOB, "rack: 1K\ntable: 1R 2R 3R 4R")  # Alice's turn, but the 4R left Bob's rack
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Bob put down 4R (1 tile). Alice to play."
        assert rack_of(await s.player(GROUP.id, ALICE)) == tiles("4R 9B 12K")
        assert rack_of(await s.player(GROUP.id, BOB)) == ["1K"]


async def test_last_tiles_recorded_in_the_group_say_who_won(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await linked(s, created, (ALICE, "9K 10K 11K"))
        played = await s.ask(ALICE, "/play 9K 10K 11K", GROUP)
        won = "Alice put down 9K 10K 11K (3 tiles). Alice has no tile left: Alice won! /end closes the game."
        assert played.text == won  # and no "… to play": a win ends the turns


async def test_fix_is_read_however_it_is_written(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        fixed = await s.ask(ALICE, "/table Fix:\n1R 2R 3R\n5K 5O 5B", GROUP)
        assert fixed.text == "Table corrected: 2 sets."
        refused = await s.ask(ALICE, "/play fix 9R 10R 11R", GROUP)
        assert "/table fix" in refused.text
        assert await table_of(s) == ["1R 2R 3R", "5B 5K 5O"]


async def test_a_tile_whose_twin_is_on_the_table_can_be_played_by_typing_the_table(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K J", GROUP)
        await linked(s, created, (BOB, "5R 6R J 9K"))
        mark = s.fake.mark()
        await s.ask(BOB, "table: 1K 2K J | 5R 6R J")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text.startswith("Bob put down 5R 6R J (3 tiles).")
        assert rack_of(await s.player(GROUP.id, BOB)) == ["9K"]


async def test_who_won_follows_the_rack_typed_with_the_table(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await linked(s, created, (BOB, "9K 10K 11K"))
        mark = s.fake.mark()
        await s.ask(BOB, "rack: 5B\ntable: 1K 2K 3K | 9K 10K 11K")  # he drew 5B without telling the bot
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Bob put down 9K 10K 11K (3 tiles). Alice to play."
        shown = await s.ask(BOB, "/rack")  # after the message's store (a chat's messages go in order)
        assert shown.text.startswith("Your rack (1 tile): 5B")

        await s.ask(BOB, "/rack 9B 10B 11B 5B")
        mark = s.fake.mark()
        won = await s.ask(BOB, "rack:\ntable: 1K 2K 3K | 9K 10K 11K | 9B 10B 11B")  # 5B played elsewhere, say
        assert won.text == "Played 9B 10B 11B.\nYour rack is empty: you won! /end closes the game."
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert "Bob won!" in posted.text
        assert rack_of(await s.player(GROUP.id, BOB)) == []


async def test_the_same_table_again_changes_nothing_and_tells_nobody(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K | 5R 5B 5O", GROUP)
        before = await s.service.active_game(GROUP.id)
        again = await s.ask(BOB, "/table 5R 5B 5O | 1K 2K 3K", GROUP)
        assert again.text == "No change: the table is already like that."
        assert (await s.service.active_game(GROUP.id)).version == before.version


async def test_a_play_typed_in_private_without_a_known_rack_says_the_groups_table_changed(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await linked(s, created, (BOB, "9K"))
        await s.service.set_rack((await s.service.active_game(GROUP.id)).id, BOB.id, [])  # a rack not known yet
        answer = await s.ask(BOB, "table: 1K 2K 3K | 9B 10B 11B")
        assert answer.text == "The group's table is updated. Now send your rack: rack: 3R 4R 5R J"


async def test_a_single_tile_played_onto_a_set_gets_a_way_to_write_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        refused = await s.ask(ALICE, "/play 4R", GROUP)
        assert "sets. To add tiles to a set on the table, write that set as it is now, like /play 1R 2R 3R 4R" in (
            refused.text
        )
        assert await table_of(s) == ["1R 2R 3R"]
        typo = await s.ask(ALICE, "/play 14R", GROUP)  # a typo gets the parser's word alone
        assert "numbers go 1-13" in typo.text and "To add tiles" not in typo.text


async def test_your_own_play_typed_in_private_is_confirmed_not_solved_again(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await s.ask(ALICE, "/pass", GROUP)  # Bob to play
        await linked(s, created, (BOB, "1B 2B 3B 9K 10K 4R"))
        answer = await s.ask(BOB, "table: 1K 2K 3K | 1B 2B 3B")
        assert answer.text == "Played 1B 2B 3B.\nYour rack (3 tiles): 4R 9K 10K\nAlice to play."


async def test_a_rack_that_no_longer_fits_the_groups_table_is_asked_for_again(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K | 5R 6R 7R", GROUP)
        await linked(s, created, (BOB, "5R 9K"))  # out of date: both 5R are about to be on the table
        mark = s.fake.mark()
        answer = await s.ask(BOB, "table: 1K 2K 3K | 5R 6R 7R | 5R 6R 7R")
        assert answer.text.startswith("The group's table is updated. Your rack as I have it no longer fits")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text.startswith("Recorded: 5R 6R 7R (3 tiles) put down by Alice.")
        assert "9K" not in posted.text
