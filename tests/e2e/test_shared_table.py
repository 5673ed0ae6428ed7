"""End to end, the table a group shares: every tile on it stays, however a player writes the change.

/table, a ``table:`` line in the group and a ``rack:``/``table:`` message in a private chat tied to the
group all change the same table: they keep every old tile (or say ``fix``, a correction), new tiles are a
play by whoever typed it (the bot asks first on someone else's turn, or below the meld), and the group sees
each change without learning anyone's rack.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import bot.telegram.table_steps as table_module
import solver.table as solver_table
from tests.bot_support import ALICE, BOB, Session, melded, rack_of, session, tie_private_chat, tiles
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.fake_bot_api import Call, Chat, User

GROUP2 = Chat(-100222, "group", "Cousins")
CORRECTED = "A correction is not a play: no rack and no turn changed."


async def table_of(s: Session, chat: Chat = GROUP) -> list[str]:
    return [str(x) for x in (await s.service.active_game(chat.id)).table]


async def tied(s: Session, created: Call, *players: tuple[User, str], meld: bool = False) -> None:
    """Each player opens the group's deep link and sets a rack in private (and says they have melded)."""
    for user, rack in players:
        await tie_private_chat(s, created, user, rack, meld=meld)


async def melded_pair(s: Session) -> Call:
    """Alice and Bob at the group's table, both past their initial meld (plays here are not openings)."""
    created = await new_game_with_two(s)
    await melded(s, GROUP.id, ALICE, BOB)
    return created


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
        assert fixed.method == "sendPhoto" and fixed.text == f"Table corrected: 2 sets. {CORRECTED}"
        assert await table_of(s) == ["1R 2R 3R", "5R 5K 5O"]
        assert (await s.service.active_game(GROUP.id)).turn == ALICE.id  # a correction is not a play


async def test_the_first_table_of_a_game_is_where_it_starts_not_a_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tied(s, created, (ALICE, "10R 11R 12R 5K"))
        started = await s.ask(ALICE, "/table 10R 11R 12R", GROUP)
        assert started.text.startswith("Table set: 1 set.") and "/play records a play" in started.text
        assert rack_of(await s.player(GROUP.id, ALICE)) == tiles("10R 11R 12R 5K")
        assert (await s.service.active_game(GROUP.id)).turn == ALICE.id


async def test_new_tiles_in_a_table_are_a_play_shown_to_the_group(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await melded_pair(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        played = await s.ask(ALICE, "/table 1R 2R 3R 4R | 9B 9K 9O", GROUP)
        assert played.method == "sendPhoto"
        assert played.text == "Alice put down 4R | 9B 9K 9O (4 tiles, 31 points). Bob to play. 75 tiles in the pool."
        assert await table_of(s) == ["1R 2R 3R 4R", "9B 9K 9O"]
        assert (await s.service.active_game(GROUP.id)).turn == BOB.id


async def test_a_set_written_as_it_lies_is_that_set_not_a_second_one(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await melded_pair(s)
        await s.ask(ALICE, "/table 11R 12R 13R | 1B 2B 3B", GROUP)
        played = await s.ask(ALICE, "/play 11R 12R 13R | 1B 2B 3B 4B", GROUP)  # the family's case
        assert played.text == "Alice put down 4B (1 tile, 4 points). Bob to play. 72 tiles in the pool."
        assert await table_of(s) == ["11R 12R 13R", "1B 2B 3B 4B"]
        # a set typed alone that lies on the table once: the one play it can be is a second copy
        second = await s.ask(BOB, "/play 11R 12R 13R", GROUP)
        assert second.text == "Bob put down 11R 12R 13R (3 tiles, 36 points). Alice to play. 72 tiles in the pool."
        assert await table_of(s) == ["11R 12R 13R", "1B 2B 3B 4B", "11R 12R 13R"]
        # both copies lie on the table: nothing typed is new, alone or written twice
        for typed in ("11R 12R 13R", "11R 12R 13R | 11R 12R 13R"):
            refused = await s.ask(ALICE, f"/play {typed}", GROUP)
            assert refused.text == (
                "Every set typed lies on the table as it is: type the sets you changed or made, or the tiles laid off"
            )
        assert await table_of(s) == ["11R 12R 13R", "1B 2B 3B 4B", "11R 12R 13R"]


async def test_one_tile_joins_two_runs(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await melded_pair(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 5R 6R 7R | 9K 9O 9B", GROUP)
        played = await s.ask(ALICE, "/play 1R 2R 3R 4R 5R 6R 7R", GROUP)
        assert played.text == "Alice put down 4R (1 tile, 4 points). Bob to play. 69 tiles in the pool."
        assert await table_of(s) == ["1R 2R 3R 4R 5R 6R 7R", "9B 9K 9O"]
        # Bob's rack holds 7R but neither 1R nor 6R: 7R joins 1R-3R and 4R-6R; the longer 2R-5R is another set
        await s.ask(BOB, "/table fix 2R 3R 4R 5R | 1R 2R 3R | 4R 5R 6R", GROUP)
        await tied(s, created, (BOB, "7R 9K"))
        played = await s.ask(BOB, "/play 1R 2R 3R 4R 5R 6R 7R", GROUP)
        assert played.text == "Bob put down 7R (1 tile, 7 points). Alice to play. 81 tiles in the pool."
        assert await table_of(s) == ["2R 3R 4R 5R", "1R 2R 3R 4R 5R 6R 7R"]


async def test_a_run_that_could_join_two_runs_or_grow_a_third_is_asked_about(tmp_path: Path) -> None:
    """Bob's rack is not known: he may have laid 7R alone, or 1R 6R and 7R; the bot asks rather than guess."""
    async with session(tmp_path) as s:
        await melded_pair(s)
        await s.ask(ALICE, "/table 2R 3R 4R 5R | 1R 2R 3R | 4R 5R 6R", GROUP)
        await s.ask(ALICE, "/draw", GROUP)  # Bob to play
        asked = await s.ask(BOB, "/play 1R 2R 3R 4R 5R 6R 7R", GROUP)
        assert asked.text.startswith("Where did ")
        assert await table_of(s) == ["2R 3R 4R 5R", "1R 2R 3R", "4R 5R 6R"]  # nothing recorded before a tap
        joined = await s.tap(BOB, asked, "1R from 1R 2R 3R", GROUP.id)
        assert joined.text.startswith("Bob put down 7R (1 tile, 7 points).")
        assert sorted(await table_of(s)) == sorted(["2R 3R 4R 5R", "1R 2R 3R 4R 5R 6R 7R"])


async def test_a_single_tile_goes_where_it_fits_or_the_bot_asks_where(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await melded_pair(s)
        await s.ask(ALICE, "/table 7B 8B 9B | 10R 10K 10O", GROUP)
        played = await s.ask(ALICE, "/play 11R", GROUP)  # one place: onto 10R? no, 11R fits no set
        assert "fits onto no set" in played.text
        where = await s.ask(ALICE, "/play 10B", GROUP)
        assert where.text == "Which set did 10B join?"
        assert {b["text"] for b in where.buttons} == {"10B onto 7B 8B 9B", "10B onto 10R 10K 10O", "Cancel"}
        mark = s.fake.mark()
        s.fake.tap(BOB, where, "10B onto 7B 8B 9B")  # not Bob's question
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert "not yours" in alert.params["text"]
        played = await s.tap(ALICE, where, "10B onto 7B 8B 9B", GROUP.id)
        assert played.text == "Alice put down 10B (1 tile, 10 points). Bob to play. 72 tiles in the pool."
        assert await table_of(s) == ["7B 8B 9B 10B", "10R 10K 10O"]
        one = await s.ask(BOB, "/play 11B", GROUP)  # exactly one place: it goes there
        assert one.text == "Bob put down 11B (1 tile, 11 points). Alice to play. 72 tiles in the pool."
        typo = await s.ask(ALICE, "/play 14R", GROUP)  # a typo gets the parser's word
        assert "goes from 1 to 13" in typo.text


async def test_a_play_on_someone_elses_turn_is_asked_about_and_charged_to_the_answer(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await melded_pair(s)
        await s.ask(ALICE, "/draw", GROUP)  # Bob to play
        await tied(s, created, (ALICE, "9B 9K 9O 12R"), (BOB, "9B 9K 9O 1R"))
        asked = await s.ask(ALICE, "/play 9B 9K 9O", GROUP)  # Alice keeps the record for Bob
        assert asked.text == "It is Bob's turn. Whose play is this?"
        assert await table_of(s) == []  # nothing recorded before the answer
        recorded = await s.tap(ALICE, asked, "Bob's", GROUP.id)
        assert recorded.text == (
            "Bob put down 9B 9K 9O (3 tiles, 27 points). Recorded by Alice. Alice to play. 98 tiles in the pool."
        )
        assert rack_of(await s.player(GROUP.id, BOB)) == ["1R"]
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["12R", "9B", "9K", "9O"]
        # the same question, answered "mine": Alice's play, and Bob's turn is passed over, said so
        mark = s.fake.mark()
        await s.ask(ALICE, "/draw 5K")  # in her private chat, on her turn: the draw and its tile
        drew = await s.fake.reply(GROUP.id, mark)
        assert drew.text == "Alice drew a tile. Bob to play. 97 tiles in the pool."
        asked = await s.ask(ALICE, "/play 9B 9K 9O | 9B 9K 9O", GROUP)
        mine = await s.tap(ALICE, asked, "Mine (Alice): Bob's turn is passed over", GROUP.id)
        assert mine.text == (
            "Alice put down 9B 9K 9O (3 tiles, 27 points). Turn passed over: Bob. Bob to play. 97 tiles in the pool."
        )
        assert rack_of(await s.player(GROUP.id, ALICE)) == ["12R", "5K"]
        # Cancel records nothing
        await s.ask(BOB, "/draw", GROUP)  # Alice to play
        asked = await s.ask(BOB, "/play 1R 2R 3R", GROUP)
        assert asked.text == "It is Alice's turn. Whose play is this?"
        mark = s.fake.mark()
        s.fake.tap(BOB, asked, "Cancel")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params["text"].startswith("Cancelled")
        assert "1R 2R 3R" not in await table_of(s)


async def test_a_first_play_below_the_meld_is_recorded_only_as_a_house_rule(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        asked = await s.ask(ALICE, "/play 1R 2R 3R", GROUP)
        assert asked.text.startswith("Alice has not made the initial meld yet")
        assert "6 of 30" in asked.text
        game = await s.service.active_game(GROUP.id)
        assert game.table == () and game.turn == ALICE.id
        alice = game.player(ALICE.id)
        assert alice is not None and not alice.melded
        played = await s.tap(ALICE, asked, "Record it anyway (house rule)", GROUP.id)
        assert played.text == "Alice put down 1R 2R 3R (3 tiles, 6 points). Bob to play. 78 tiles in the pool."
        alice = (await s.service.active_game(GROUP.id)).player(ALICE.id)
        assert alice is not None and alice.melded
        opening = await s.ask(BOB, "/play 10K 11K 12K", GROUP)  # 33 points: a valid opening, no question
        assert opening.text == "Bob put down 10K 11K 12K (3 tiles, 33 points). Alice to play. 78 tiles in the pool."


async def test_what_the_group_reads_does_not_depend_on_any_rack(tmp_path: Path) -> None:
    """The same play, recorded by Bob for Alice in two groups, once from a rack of hers that holds the tiles and
    once from one (as many tiles) that does not: each group reads the same words, questions included; only
    Alice hears, in private, that her rack did not match."""
    async with session(tmp_path) as s:
        said: list[list[str]] = []
        for chat, rack in ((GROUP, "10R 11R 12R 5K"), (GROUP2, "1B 2B 3B 5K")):
            created = await s.ask(ALICE, "/new", chat)
            await s.tap(BOB, created, "Join", chat.id)
            await tied(s, created, (ALICE, rack))
            mark = s.fake.mark()
            asked = await s.ask(BOB, "/play 10R 11R 12R", chat)  # on Alice's turn
            await s.tap(BOB, asked, "Alice's", chat.id)
            said.append([c.text for c in s.fake.sent(chat.id, mark)])
            if chat is GROUP2:
                await s.fake.reply(ALICE.id, mark)  # the notice comes after the group's picture
            private = [c.text for c in s.fake.sent(ALICE.id, mark)]
            if chat is GROUP2:
                assert any("did not hold 10R 11R 12R" in t for t in private), private
                assert all(t.startswith("Cousins: ") for t in private), private
            else:
                assert not private
            assert not s.fake.sent(BOB.id, mark)
        each = [
            "It is Alice's turn. Whose play is this?",
            "Alice put down 10R 11R 12R (3 tiles, 33 points). Recorded by Bob. Bob to play. 88 tiles in the pool.",
        ]
        assert said == [each, each]


async def test_a_play_of_ones_own_that_the_rack_lacks_is_refused_and_recorded_only_for_someone_else(
    tmp_path: Path,
) -> None:
    async with session(tmp_path) as s:
        created = await melded_pair(s)
        await s.ask(ALICE, "/table 10O 11O 12O", GROUP)
        await tied(s, created, (ALICE, "12R 12B 12K 3K 5B"))
        before = await s.service.active_game(GROUP.id)
        # the second 12O is not on her stored rack, and the table's 12O would leave 10O 11O broken
        refused = await s.ask(ALICE, "/play 12R 12B 12K 12O", GROUP)
        assert refused.text == (
            "Taking 12O from 10O 11O 12O would leave 10O 11O, which is no set; to record the play, type the whole "
            "new table: /play and every set on the table after it"
        )
        refused = await s.ask(ALICE, "/play 3K 4K 5K", GROUP)  # tiles the table does not hold either
        assert refused.text == "The rack, as the bot knows it, lacks 4K 5K"
        after = await s.service.active_game(GROUP.id)
        assert after.table == before.table and after.turn == ALICE.id
        assert sorted(rack_of(await s.player(GROUP.id, ALICE))) == sorted(tiles("12R 12B 12K 3K 5B"))
        # recorded for her by Bob, it stands: she alone is told, in private, and her rack is asked for again
        mark = s.fake.mark()
        asked = await s.ask(BOB, "/play 12R 12B 12K 12O", GROUP)
        played = await s.tap(BOB, asked, "Alice's", GROUP.id)
        assert played.text == (
            "Alice put down 12R 12B 12K 12O (4 tiles, 48 points). Recorded by Bob. Bob to play. 84 tiles in the pool."
        )
        await s.fake.reply(ALICE.id, mark)
        notice = [c.text for c in s.fake.sent(ALICE.id, mark)]
        assert notice == [
            "Family: Your play of 12R 12B 12K 12O is recorded, but your rack as I had it did not hold 12O, so I have "
            "forgotten it. Send your rack again: /rack 3R 4R 5R J"
        ]
        assert not s.fake.sent(BOB.id, mark)
        assert rack_of(await s.player(GROUP.id, ALICE)) == []


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
        await tied(s, created, (BOB, "9K 10K"), (ALICE, "9B 9K 9O 10R 11R 12R 1O"))
        mark = s.fake.mark()
        s.fake.send(BOB, "table: 1R 2R 3R 4R 5R 6R")  # the same tiles as one run, read by the solver
        played = await s.ask(ALICE, "/play 9B 9K 9O | 10R 11R 12R", GROUP)
        assert played.text.startswith("Alice put down")
        go.set()
        refused = await s.fake.reply(BOB.id, mark)
        assert refused.text.startswith("Family: The table changed while I read your message")
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
        await tied(s, created, (BOB, "9K 10K"), (ALICE, "4R 5R 6R 9K"), meld=True)
        await s.ask(ALICE, "/play 4R 5R 6R", GROUP)
        go.clear()  # from here, loose tiles are laid out only when the test says so
        mark = s.fake.mark()
        s.fake.send(BOB, "table: 1R 2R 3R 4R 5R 6R")  # the table as it is now, as loose tiles
        undone = await s.ask(ALICE, "/undo", GROUP)
        assert undone.text.startswith("Undone: Alice's play")
        go.set()
        refused = await s.fake.reply(BOB.id, mark)
        assert refused.text.startswith("Family: The table changed while I read your message")
        assert await table_of(s) == ["1R 2R 3R"]
        assert rack_of(await s.player(GROUP.id, ALICE)) == tiles("4R 5R 6R 9K")


async def test_undo_of_a_correction_in_the_group_does_not_look_at_racks(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tied(s, created, (BOB, "13K 13K 5R 6R 7R"))
        await s.ask(ALICE, "/table 11K 12K 13K", GROUP)
        await s.ask(ALICE, "/table fix 1R 2R 3R", GROUP)
        mark = s.fake.mark()
        asked = await s.ask(BOB, "/undo", GROUP)
        undone = await s.tap(BOB, asked, "Undo Alice's table", GROUP.id)
        assert undone.text.startswith("Undone: Alice's table")
        assert await table_of(s) == ["11K 12K 13K"]
        assert all("13K" not in c.text for c in s.fake.sent(GROUP.id, mark))


async def test_a_table_typed_in_a_tied_private_chat_is_the_typists_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await tied(s, created, (BOB, "10B 11B 12B 9K"))
        before = await s.service.active_game(GROUP.id)

        # tiles gone from the group's table: refused in private, nothing stored, the group hears nothing
        mark = s.fake.mark()
        refused = await s.ask(BOB, "rack: 10B 11B 12B 9K 12R\ntable: 10O 11O 12O")
        assert "lacks 1K 2K 3K" in refused.text
        assert (await s.service.active_game(GROUP.id)).version == before.version
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("10B 11B 12B 9K")
        assert not s.fake.sent(GROUP.id, mark)

        # on Alice's turn Bob is asked first, in private, naming the group
        asked = await s.ask(BOB, "table: 1K 2K 3K | 10B 11B 12B")
        assert asked.text == "Family: It is Alice's turn. Whose play is this?"
        mark = s.fake.mark()
        s.fake.tap(BOB, asked, "Mine (Bob): Alice's turn is passed over")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == (
            "Bob put down 10B 11B 12B (3 tiles, 33 points). Turn passed over: Alice. Alice to play. "
            "85 tiles in the pool."
        )
        assert "9K" not in posted.text
        here = await s.fake.reply(BOB.id, mark, ("sendPhoto",))
        assert here.text == "Family: " + posted.text.replace("Bob put down", "You put down")  # "you" to Bob
        assert await table_of(s) == ["1K 2K 3K", "10B 11B 12B"]
        assert rack_of(await s.player(GROUP.id, BOB)) == ["9K"]

        # "fix" with no table after it is a mistake, not an empty table
        refused = await s.ask(BOB, "table: fix")
        assert refused.text.startswith("Family: Write the whole table after fix")
        assert await table_of(s) == ["1K 2K 3K", "10B 11B 12B"]

        # the same sets in another order change nothing
        mark = s.fake.mark()
        await s.ask(BOB, "table: 10B 11B 12B | 1K 2K 3K")
        assert not s.fake.sent(GROUP.id, mark)
        assert await table_of(s) == ["1K 2K 3K", "10B 11B 12B"]


async def test_a_rack_typed_with_the_table_is_what_is_left_after_the_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await s.ask(ALICE, "/draw", GROUP)  # Bob to play
        await tied(s, created, (BOB, "10B 11B 12B 9K 5R"), meld=True)
        mark = s.fake.mark()
        await s.ask(BOB, "rack: 9K 5R 6R\ntable: 1K 2K 3K | 10B 11B 12B")  # he drew 6R without telling the bot
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Bob put down 10B 11B 12B (3 tiles, 33 points). Alice to play. 82 tiles in the pool."
        shown = await s.ask(BOB, "/rack")  # after the message's store (a chat's messages go in order)
        assert "Your rack (3 tiles): 5R 6R 9K" in shown.text
        # his last tiles, played by typing the new table with an empty rack: line: he has won
        await s.ask(ALICE, "/draw", GROUP)
        mark = s.fake.mark()
        await s.ask(BOB, "rack:\ntable: 1K 2K 3K | 10B 11B 12B | 5R 6R J")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == (
            "Bob put down 5R 6R J (3 tiles, 18 points). Bob has no tile left: Bob wins!\n"
            "Alice: tell me the tiles left on your rack, like /left 7R 8K J (or tap below if I know your rack)."
        )
        assert rack_of(await s.player(GROUP.id, BOB)) == []


async def test_last_tiles_recorded_in_the_group_say_who_won(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await tied(s, created, (ALICE, "10K 11K 12K"))
        played = await s.ask(ALICE, "/play 10K 11K 12K", GROUP)
        won = "Alice put down 10K 11K 12K (3 tiles, 33 points). Alice has no tile left: Alice wins!"
        waiting = "Bob: tell me the tiles left on your rack, like /left 7R 8K J (or tap below if I know your rack)."
        assert played.text == f"{won}\n{waiting}"  # and no "… to play": going out ends the turns
        # the others tell their racks; Alice may ask how her last play went (answered in private)
        assert [b["text"] for b in played.buttons] == ["📋 My rack as you have it", "🎯 How did I do? (in private)"]
        assert (await s.service.active_game(GROUP.id)).turn is None


async def test_fix_is_read_however_it_is_written(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        fixed = await s.ask(ALICE, "/table Fix:\n1R 2R 3R\n5K 5O 5B", GROUP)
        assert fixed.text == f"Table corrected: 2 sets. {CORRECTED}"
        refused = await s.ask(ALICE, "/play fix 9R 10R 11R", GROUP)
        assert "/table fix" in refused.text
        assert await table_of(s) == ["1R 2R 3R", "5B 5K 5O"]


async def test_the_same_table_again_changes_nothing_and_tells_nobody(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K | 5R 5B 5O", GROUP)
        before = await s.service.active_game(GROUP.id)
        again = await s.ask(BOB, "/table 5R 5B 5O | 1K 2K 3K", GROUP)
        assert again.text == "No change: the table is already like that."
        assert (await s.service.active_game(GROUP.id)).version == before.version


async def test_a_play_typed_in_private_without_a_known_rack_is_recorded_without_a_word_about_racks(
    tmp_path: Path,
) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await s.ask(ALICE, "/draw", GROUP)
        mark = s.fake.mark()
        s.fake.follow(BOB, created, "My rack")  # his private chat is tied to the game, his 14 tiles not told
        await s.fake.reply(BOB.id, mark)
        assert not (await s.player(GROUP.id, BOB)).rack_known
        mark = s.fake.mark()
        await s.ask(BOB, "table: 1K 2K 3K | 9B 10B 11B")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Bob put down 9B 10B 11B (3 tiles, 30 points). Alice to play. 74 tiles in the pool."
        assert all("rack" not in c.text for c in s.fake.sent(BOB.id, mark))


async def test_a_rack_that_no_longer_fits_the_groups_table_is_told_in_private(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await melded_pair(s)
        await s.ask(ALICE, "/table 1K 2K 3K | 5R 6R 7R", GROUP)
        await tied(s, created, (BOB, "5R 9K"))  # out of date: both 5R are about to be on the table
        mark = s.fake.mark()
        # Alice (her rack never told) plays the second 5R 6R 7R: the table is the newer word
        posted = await s.ask(ALICE, "/table 1K 2K 3K | 5R 6R 7R | 5R 6R 7R", GROUP)
        assert posted.text == "Alice put down 5R 6R 7R (3 tiles, 18 points). Bob to play. 84 tiles in the pool."
        notice = await s.fake.reply(BOB.id, mark)
        assert notice.text == (
            "Family: Your rack as I had it held tiles that are now elsewhere in the game (a play, or a rack told "
            "since), so I no longer count them as yours. Send your rack again: /rack 3R 4R 5R J"
        )
        assert "9K" not in posted.text and not s.fake.sent(ALICE.id, mark)
        bob = await s.player(GROUP.id, BOB)
        assert "5R" not in rack_of(bob) and bob.rack_size == 2


async def test_a_private_undo_does_not_take_back_another_players_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await melded_pair(s)
        await tied(s, created, (BOB, "1B 2B 3B 9K"))
        await s.ask(ALICE, "/play 10R 11R 12R", GROUP)
        asked = await s.ask(BOB, "/undo")
        assert asked.text == (
            "Family: The last change is Alice's play, not yours. Undo it? Alice can tap, or you confirm."
        )
        assert [b["text"] for b in asked.buttons] == ["Undo Alice's play", "Undo my rack instead", "Cancel"]
        assert await table_of(s) == ["10R 11R 12R"]  # nothing undone before a tap
        undone = await s.tap(BOB, asked, "Undo my rack instead", BOB.id)
        assert undone.text.startswith("Family: Undone: Bob's rack.")
        assert await table_of(s) == ["10R 11R 12R"]
