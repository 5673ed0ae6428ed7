"""Undo: every kind of change taken back exactly, who may undo what, and undo out of order."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.game import EventKind, Finish, GameState, GameStatus
from bot.game import errors as e
from bot.storage import GameService, open_database
from bot.storage.migrate import upgrade
from solver import STANDARD, Objective, Origin, Solution
from tests.storage_support import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    empty_pool,
    history,
    leave,
    melded,
    sqlite_url,
    table,
    tiles,
    two_player_game,
)


@pytest.fixture
async def game(service: GameService) -> GameState:
    """Two players with racks, a table, and Alice melded: every kind of change has something to change."""
    game = await two_player_game(service)
    await service.set_table(game.id, ALICE, table("3-5R | 9K 9O 9B"))
    await service.set_rack(game.id, ALICE, tiles("6R 7R 1O J"))
    await service.set_rack(game.id, BOB, tiles("2B 2K"))
    return await melded(service, game.id, ALICE)


def same(a: GameState, b: GameState) -> bool:
    """Equal but for the version, which every change (an undo too) moves on."""
    return replace(a, version=0) == replace(b, version=0)


def opening() -> Solution:
    after = table("3-7R | 9K 9O 9B")
    return Solution(
        rules=STANDARD,
        objective=Objective.TILES,
        initial_meld=False,
        table_before=tuple(table("3-5R | 9K 9O 9B")),
        table=tuple(after),
        origins=tuple(tuple(Origin(None) for _ in s.tiles) for s in after),
        kept_from=(0, 1),
        placed=tuple(tiles("6R 7R")),
        rack_left=tuple(tiles("1O J")),
        points_placed=13,
        kept_sets=2,
        optimal=True,
        solve_ms=1.0,
    )


Change = Callable[[GameService, int], Awaitable[object]]
CHANGES: dict[EventKind, Change] = {
    EventKind.PLAYER_JOINED: lambda s, g: s.join(g, CAROL, "Carol"),
    EventKind.PLAYER_LEFT: lambda s, g: leave(s, g, ALICE),
    EventKind.RACK_SET: lambda s, g: s.set_rack(g, ALICE, tiles("13K")),
    EventKind.TILES_DRAWN: lambda s, g: s.draw(g, ALICE, tiles("12O 12O")),
    EventKind.TILES_NAMED: lambda s, g: s.draw(g, ALICE, tiles("8B")),
    EventKind.TABLE_SET: lambda s, g: s.set_table(g, ALICE, table("1-4K")),
    EventKind.PLAY_RECORDED: lambda s, g: s.record_play(g, ALICE, table("3-7R | 9K 9O 9B"), player=ALICE),
    EventKind.SUGGESTION_APPLIED: lambda s, g: s.apply_suggestion(g, ALICE, opening()),
    EventKind.TURN_PASSED: lambda s, g: s.pass_turn(g, ALICE),
    EventKind.GAME_STOPPED: lambda s, g: s.end_game(g, ALICE),
    EventKind.RACK_DECLARED: lambda s, g: s.declare(g, ALICE, tiles("6R 7R 1O J")),
    EventKind.GAME_ENDED: lambda s, g: s.end_game(g, ALICE),
}
#: what the game needs first for the change to be made: a tile drawn in the group to name, an empty pool to
#: pass on, a stopped game to tell a rack in or to close
SET_UP: dict[EventKind, Change] = {
    EventKind.TILES_NAMED: lambda s, g: s.draw(g, ALICE),
    EventKind.TURN_PASSED: lambda s, g: empty_pool(s, g, BOB),
    EventKind.RACK_DECLARED: lambda s, g: s.end_game(g, ALICE),
    EventKind.GAME_ENDED: lambda s, g: s.end_game(g, ALICE),
}
UNDOER = {EventKind.PLAYER_JOINED: CAROL}
#: a meld marked by a word is a private game's only (``test_undo_of_a_meld_marked_in_a_private_game``)
ELSEWHERE = {EventKind.MELD_MARKED}


def test_every_undoable_kind_is_covered() -> None:
    assert set(CHANGES) | ELSEWHERE == {k for k in EventKind if k.undoable}
    assert not set(CHANGES) & ELSEWHERE


@pytest.mark.parametrize("kind", list(CHANGES), ids=lambda k: k.value)
async def test_undo_takes_each_kind_of_change_back(service: GameService, game: GameState, kind: EventKind) -> None:
    if kind in SET_UP:
        await SET_UP[kind](service, game.id)
    before = await service.game(game.id)
    await CHANGES[kind](service, game.id)
    changed = await service.game(game.id)
    assert not same(changed, before)
    assert (await history(service, game.id))[-1].kind is kind

    undone = await service.undo(game.id, UNDOER.get(kind, ALICE))

    assert undone.event.kind is kind and undone.event.undone
    assert same(undone.state, before)
    assert same(await service.game(game.id), before)
    assert undone.state.version == changed.version + 1
    last = (await history(service, game.id))[-1]
    assert last.kind is EventKind.UNDONE and last.undoes == undone.event.id


async def test_undo_of_a_meld_marked_in_a_private_game(service: GameService) -> None:
    own = await service.new_game(BOB, BOB, join_as="Bob")
    before = await service.game(own.id)
    marked = await service.mark_melded(own.id, BOB)
    assert not same(marked, before)
    undone = await service.undo(own.id, BOB)
    assert undone.event.kind is EventKind.MELD_MARKED and same(undone.state, before)


async def test_undo_of_a_join_frees_the_seat_for_good(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    state = (await service.undo(game.id, CAROL)).state
    assert state.player(CAROL) is None
    again = await service.join(game.id, CAROL, "Caroline")
    carol = again.player(CAROL)
    assert carol is not None and carol.name == "Caroline" and carol.seat == 2


async def test_the_seat_a_game_was_started_with_is_not_undone(service: GameService) -> None:
    state = await service.new_game(ALICE, ALICE, join_as="Alice")  # a private chat's own game
    with pytest.raises(e.NothingToUndo, match="no change of yours"):
        await service.undo(state.id, ALICE)
    await service.set_rack(state.id, ALICE, tiles("3R"))
    after = (await service.undo(state.id, ALICE)).state  # the rack goes, the seat stays
    me = after.player(ALICE)
    assert me is not None and me.active and me.rack == ()


async def test_undo_of_the_end_reopens_the_game(service: GameService, game: GameState) -> None:
    await service.end_game(game.id, BOB)  # stopped: the racks are asked for
    await service.end_game(game.id, BOB)  # closed, scored with the racks known
    assert await service.chat_totals(GROUP) != []
    state = (await service.undo(game.id, BOB)).state
    # open again, stopped as it was, its score gone
    assert state.status is GameStatus.RUNNING and state.ended_at is None and state.finish is Finish.STOPPED
    assert all(p.score is None for p in state.players) and await service.chat_totals(GROUP) == []
    assert (await service.active_game(GROUP)).id == game.id
    state = (await service.undo(game.id, BOB)).state  # and the stop: the turns go on
    assert state.playing and state.finish is None and state.turn == ALICE


async def test_undo_of_going_out_gives_the_turns_back(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("6R 7R"))
    out = await service.record_play(game.id, ALICE, table("3-7R | 9K 9O 9B"))
    assert out.won and not out.state.playing
    state = (await service.undo(game.id, ALICE)).state
    assert state.playing and state.finish is None and state.winner is None and state.turn == ALICE
    alice = state.player(ALICE)
    assert alice is not None and [str(t) for t in alice.rack] == ["6R", "7R"]


async def test_an_ended_game_stays_ended_when_the_chat_has_a_new_one(service: GameService, game: GameState) -> None:
    await service.end_game(game.id, ALICE)
    await service.end_game(game.id, ALICE)
    await service.new_game(GROUP, BOB)
    before = await service.game(game.id)
    with pytest.raises(e.GameAlreadyRunning, match="stays ended"):
        await service.undo(game.id, ALICE)
    assert await service.game(game.id) == before


async def test_after_the_end_only_the_end_can_be_undone(service: GameService, game: GameState) -> None:
    await service.end_game(game.id, BOB)
    await service.end_game(game.id, BOB)
    with pytest.raises(e.GameOver, match="ended"):
        await service.undo(game.id, ALICE)


async def test_repeated_undo_walks_back_through_history(service: GameService, game: GameState) -> None:
    start = await service.game(game.id)
    await service.draw(game.id, ALICE)  # in the group: counted
    await service.draw(game.id, ALICE, tiles("2K"))  # named in private
    await service.set_rack(game.id, ALICE, tiles("6R 7R 1O J 2K 3K"))
    assert (await service.undo(game.id, ALICE)).event.kind is EventKind.RACK_SET
    named = (await service.undo(game.id, ALICE)).event
    assert named.kind is EventKind.TILES_NAMED and named.detail == {"tiles": 1, "player": ALICE}
    assert (await service.undo(game.id, ALICE)).event.kind is EventKind.TILES_DRAWN
    assert same(await service.game(game.id), start)


async def test_nothing_to_undo(service: GameService) -> None:
    game = await service.new_game(GROUP, ALICE)
    await service.move_chat(GROUP, GROUP - 1)  # neither the start nor a chat move is undoable
    await service.join(game.id, ALICE, "Alice")
    await service.set_table(game.id, ALICE, table("1-3K"))
    with pytest.raises(e.NothingToUndo, match="no change of yours"):
        await service.undo(game.id, CAROL)  # not at the table: not even its changes
    await service.undo(game.id, ALICE)
    await service.undo(game.id, ALICE)  # her joining: she is gone again
    before = await service.game(game.id)
    assert before.players == ()
    with pytest.raises(e.NothingToUndo, match="no change of yours"):
        await service.undo(game.id, ALICE)
    assert await service.game(game.id) == before


async def test_a_rack_is_undone_only_by_its_owner(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("13K"))
    undone = await service.undo(game.id, BOB)  # Bob's own latest change, not Alice's rack
    assert undone.event.kind is EventKind.RACK_SET and undone.event.user_id == BOB
    p = undone.state.player(ALICE)
    assert p is not None and [str(t) for t in p.rack] == ["13K"]


async def test_someone_elses_table_change_is_undone_only_when_confirmed(service: GameService, game: GameState) -> None:
    await service.record_play(game.id, ALICE, table("3-7R | 9K 9O 9B"), player=ALICE)
    choice = await service.undo_choice(game.id, BOB)
    assert choice.theirs is not None and choice.theirs.kind is EventKind.PLAY_RECORDED
    before = await service.game(game.id)
    with pytest.raises(e.NothingToUndo, match="confirmation"):
        await service.undo(game.id, BOB, event_id=choice.theirs.id)
    assert await service.game(game.id) == before
    undone = await service.undo(game.id, BOB, event_id=choice.theirs.id, confirmed=True)
    assert undone.event.kind is EventKind.PLAY_RECORDED and undone.event.user_id == ALICE
    assert [str(s) for s in undone.state.table] == ["3R 4R 5R", "9B 9K 9O"]
    alice = undone.state.player(ALICE)
    assert alice is not None and [str(t) for t in alice.rack] == ["6R", "7R", "1O", "J"]


async def test_undo_out_of_order_when_nothing_later_touched_it(service: GameService, game: GameState) -> None:
    await service.draw(game.id, ALICE, tiles("8B"))
    await service.set_rack(game.id, BOB, tiles("2B 2K 8K"))
    state = (await service.undo(game.id, ALICE)).state  # Bob's later rack is his own business
    alice, bob = state.player(ALICE), state.player(BOB)
    assert alice is not None and "8B" not in [str(t) for t in alice.rack] and alice.rack_size == 4
    assert bob is not None and "8K" in [str(t) for t in bob.rack]
    assert state.turn == ALICE  # her draw's turn is given back with it


async def test_a_draw_is_not_undone_under_the_next_players_turn(service: GameService, game: GameState) -> None:
    await service.draw(game.id, ALICE, tiles("8B"))
    await service.draw(game.id, BOB, tiles("8K"))  # a draw ends the turn: Bob's came after Alice's
    before = await service.game(game.id)
    with pytest.raises(e.UndoConflict, match="cannot undo Alice's draw: Bob's draw changed the same things"):
        await service.undo(game.id, ALICE)
    assert await service.game(game.id) == before


async def test_undo_refuses_to_clobber_a_later_change(service: GameService, game: GameState) -> None:
    await service.draw(game.id, ALICE)  # turn: Alice -> Bob
    await service.draw(game.id, BOB)  # turn: Bob -> Alice
    before = await service.game(game.id)
    with pytest.raises(e.UndoConflict, match="cannot undo Alice's draw: Bob's draw changed the same things"):
        await service.undo(game.id, ALICE)
    assert await service.game(game.id) == before
    await service.undo(game.id, BOB)
    assert (await service.undo(game.id, ALICE)).state.turn == ALICE


async def test_undo_refuses_to_clobber_a_later_pass(service: GameService, game: GameState) -> None:
    await empty_pool(service, game.id, BOB)
    await service.pass_turn(game.id, ALICE)
    await service.pass_turn(game.id, BOB)  # the second pass in a row: a round, the game is over
    assert (await service.game(game.id)).finish is Finish.BLOCKED
    with pytest.raises(e.UndoConflict, match="cannot undo Alice's pass: Bob's pass changed the same things"):
        await service.undo(game.id, ALICE)
    state = (await service.undo(game.id, BOB)).state
    assert state.playing and state.passes == 1 and state.turn == BOB


async def test_undo_never_brings_back_more_tiles_than_the_deck(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("11R"))
    await service.set_rack(game.id, ALICE, tiles("1B"))
    await service.set_table(game.id, BOB, table("3-5R | 9K 9O 9B | 11R 11B 11K | 10R 11R 12R"))
    before = await service.game(game.id)
    with pytest.raises(e.TooManyTiles, match="after this undo, the table and a rack would hold more") as why:
        await service.undo(game.id, ALICE)
    assert "11R" not in str(why.value) and "Alice" not in str(why.value)  # it may be read in a group
    assert await service.game(game.id) == before


async def test_a_table_told_after_a_rack_is_the_newest_word_and_the_undo_keeps_it(
    service: GameService, game: GameState
) -> None:
    await service.set_rack(game.id, ALICE, tiles("11R"))
    changed = await service.set_table(game.id, BOB, table("3-5R | 9K 9O 9B | 11R 11B 11K | 10R 11R 12R"))
    assert changed.trimmed == (ALICE,)  # her 11R is no longer named: the table holds both
    await service.set_rack(game.id, ALICE, tiles("1B"))
    state = (await service.undo(game.id, ALICE)).state  # back to the rack as the table left it
    alice = state.player(ALICE)
    assert alice is not None and alice.rack == () and alice.rack_size == 1


async def test_undo_of_a_shared_table_is_not_blocked_by_a_rack_typed_earlier(
    service: GameService, game: GameState
) -> None:
    await service.set_rack(game.id, BOB, tiles("13K 13K"))
    shared = await service.set_table(game.id, ALICE, table("11K 12K 13K"), with_rack=False)
    assert shared.trimmed == (BOB,)
    await service.set_table(game.id, ALICE, table("1R 2R 3R"), with_rack=False)
    correction = (await service.undo_choice(game.id, BOB)).theirs
    assert correction is not None
    # Bob undoes Alice's correction (confirmed); his rack is out of date
    after = (await service.undo(game.id, BOB, event_id=correction.id, confirmed=True)).state
    assert [str(s) for s in after.table] == ["11K 12K 13K"]


async def test_a_table_laid_out_anew_keeps_every_tile_under_the_lock(service: GameService, game: GameState) -> None:
    before = await service.game(game.id)
    with pytest.raises(e.InvalidTable, match="lacks 9B 9K 9O"):
        await service.set_table(game.id, BOB, table("3-5R"), with_rack=False, based_on=before.table)
    with pytest.raises(e.TableChanged, match="the table changed while I read your message"):
        await service.set_table(game.id, BOB, table("3-5R | 9K 9O 9B"), with_rack=False, based_on=table("3-5R"))
    with pytest.raises(e.TableChanged):
        await service.record_play(game.id, BOB, table("3-6R | 9K 9O 9B"), based_on=table("3-5R"))
    assert await service.game(game.id) == before
    after = (
        await service.set_table(game.id, BOB, table("9K 9O 9B | 3R 4R 5R"), with_rack=False, based_on=before.table)
    ).state
    # laid out anew, each set keeps its number: the table reads in the same order
    assert [str(s) for s in after.table] == ["3R 4R 5R", "9B 9K 9O"] and after.numbers == (1, 2)


# --- events stored before the rack counts (migration 0005) -------------------------------------------------


def old_game(file: Path) -> None:
    """A group game as a bot before 0005 stored it: Alice (melded, her rack told twice) and Bob, who joined
    last; each event's diff holds a player's values of that time (no rack count, no score)."""
    old_player = {"seat": 1, "rack": [], "melded": False, "tiles_played": 0, "active": True}
    events: list[tuple[str, int | None, dict[str, Any]]] = [
        ("game_started", None, {}),
        ("player_joined", ALICE, {"game": {"turn": [None, ALICE]},
                                  "added": {str(ALICE): {**old_player, "name": "Alice", "seat": 0}}}),
        ("rack_set", ALICE, {"players": {str(ALICE): {"rack": [[], ["1R", "2R", "3R", "4R"]]}}}),
        ("rack_set", ALICE, {"players": {str(ALICE): {"rack": [["1R", "2R", "3R", "4R"], ["5B", "6B", "J"]]}}}),
        ("table_set", BOB, {"game": {"table": [[], [["7R", "7B", "7K"]]]}}),
        ("player_joined", BOB, {"added": {str(BOB): {**old_player, "name": "Bob"}}}),
    ]  # fmt: skip
    at = "2026-01-01 00:00:00.000000"
    with sqlite3.connect(file) as db:
        db.execute(
            "INSERT INTO games (id, chat_id, status, rules, table_sets, turn_user_id, invite, version, created_at,"
            " updated_at, title) VALUES (1, ?, 'running', '{}', '[[\"7R\", \"7B\", \"7K\"]]', ?, 'inv', 7, ?, ?,"
            " 'Family')",
            (GROUP, ALICE, at, at),
        )
        for seat, (uid, name, rack) in enumerate([(ALICE, "Alice", '["5B", "6B", "J"]'), (BOB, "Bob", "[]")]):
            db.execute(
                "INSERT INTO players (game_id, user_id, name, seat, rack, melded, tiles_played, active, joined_at)"
                " VALUES (1, ?, ?, ?, ?, ?, 0, 1, ?)",
                (uid, name, seat, rack, uid == ALICE, at),
            )
        for kind, by, diff in events:
            db.execute(
                "INSERT INTO events (game_id, kind, user_id, at, detail, diff) VALUES (1, ?, ?, ?, '{}', ?)",
                (kind, by, at, json.dumps(diff)),
            )


async def test_events_stored_before_the_rack_counts_still_undo(tmp_path: Path) -> None:
    url, file = sqlite_url(tmp_path), tmp_path / "games.sqlite3"
    await asyncio.to_thread(upgrade, url, "0004")
    old_game(file)
    await asyncio.to_thread(upgrade, url)
    db = open_database(url)
    try:
        service = GameService(db)
        game = await service.active_game(GROUP)
        # the racks count what they held (Bob's rack was never told: none), the pool what is left
        assert [(p.user_id, p.rack_size) for p in game.players] == [(ALICE, 3), (BOB, 0)]
        assert game.pool == 106 - 3 - 3
        # Bob's joining: the player stored then had fewer values than a player has now
        left = await service.undo(game.id, BOB)
        assert left.event.kind is EventKind.PLAYER_JOINED and left.state.player(BOB) is None
        # Alice's last rack: the one before comes back, counted as it was (all of it known)
        back = (await service.undo(game.id, ALICE)).state
        alice = back.player(ALICE)
        assert alice is not None and [str(t) for t in alice.rack] == ["1R", "2R", "3R", "4R"]
        assert alice.rack_size == 4 and alice.rack_known and back.pool == 106 - 3 - 4
        # and the game goes on as any other: a change after the old ones undoes as well
        await service.draw(game.id, ALICE, tiles("9O"))
        assert (await service.undo(game.id, ALICE)).event.kind is EventKind.TILES_DRAWN
        first = (await service.undo(game.id, ALICE)).state  # her first rack: back to nothing told
        alice = first.player(ALICE)
        assert alice is not None and alice.rack == () and alice.rack_size == 0
        # the table Bob set then, public, taken back on a confirmation: numbered as the migration numbered it
        table_set = (await service.undo_choice(game.id, ALICE)).theirs
        assert table_set is not None and table_set.kind is EventKind.TABLE_SET
        empty = (await service.undo(game.id, ALICE, event_id=table_set.id, confirmed=True)).state
        assert empty.table == () and empty.numbers == ()
    finally:
        await db.dispose()
