"""Undo: every kind of change taken back exactly, who may undo what, and undo out of order."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.game import EventKind, GameState, GameStatus
from bot.game import errors as e
from bot.storage import GameService
from solver import STANDARD, Objective, Origin, Solution
from tests.storage_support import ALICE, BOB, CAROL, GROUP, service_at, table, tiles, two_player_game


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with service_at(tmp_path) as s:
        yield s


@pytest.fixture
async def game(service: GameService) -> GameState:
    """Two players with racks, a table, and Alice melded: every kind of change has something to change."""
    game = await two_player_game(service)
    await service.set_table(game.id, ALICE, table("3-5R | 9K 9O 9B"))
    await service.set_rack(game.id, ALICE, tiles("6R 7R 1O J"))
    await service.set_rack(game.id, BOB, tiles("2B 2K"))
    return await service.mark_melded(game.id, ALICE)


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
    EventKind.PLAYER_LEFT: lambda s, g: s.leave(g, ALICE),
    EventKind.RACK_SET: lambda s, g: s.set_rack(g, ALICE, tiles("13K")),
    EventKind.TILES_DRAWN: lambda s, g: s.draw(g, ALICE, tiles("12O 12O")),
    EventKind.TABLE_SET: lambda s, g: s.set_table(g, ALICE, table("1-4K")),
    EventKind.PLAY_RECORDED: lambda s, g: s.record_play(g, ALICE, table("3-7R | 9K 9O 9B"), player=ALICE),
    EventKind.SUGGESTION_APPLIED: lambda s, g: s.apply_suggestion(g, ALICE, opening()),
    EventKind.MELD_MARKED: lambda s, g: s.mark_melded(g, BOB),
    EventKind.TURN_PASSED: lambda s, g: s.pass_turn(g, ALICE),
    EventKind.GAME_ENDED: lambda s, g: s.end_game(g, ALICE),
}
UNDOER = {EventKind.PLAYER_JOINED: CAROL, EventKind.MELD_MARKED: BOB}


def test_every_undoable_kind_is_covered() -> None:
    assert set(CHANGES) == {k for k in EventKind if k.undoable}


@pytest.mark.parametrize("kind", list(CHANGES), ids=lambda k: k.value)
async def test_undo_takes_each_kind_of_change_back(service: GameService, game: GameState, kind: EventKind) -> None:
    before = await service.game(game.id)
    await CHANGES[kind](service, game.id)
    changed = await service.game(game.id)
    assert not same(changed, before)
    assert (await service.history(game.id))[-1].kind is kind

    undone = await service.undo(game.id, UNDOER.get(kind, ALICE))

    assert undone.event.kind is kind and undone.event.undone
    assert same(undone.state, before)
    assert same(await service.game(game.id), before)
    assert undone.state.version == changed.version + 1
    last = (await service.history(game.id))[-1]
    assert last.kind is EventKind.UNDONE and last.undoes == undone.event.id


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
    await service.end_game(game.id, BOB)
    state = (await service.undo(game.id, BOB)).state
    assert state.status is GameStatus.RUNNING and state.ended_at is None
    assert (await service.active_game(GROUP)).id == game.id


async def test_an_ended_game_stays_ended_when_the_chat_has_a_new_one(service: GameService, game: GameState) -> None:
    await service.end_game(game.id, ALICE)
    await service.new_game(GROUP, BOB)
    before = await service.game(game.id)
    with pytest.raises(e.GameAlreadyRunning, match="stays ended"):
        await service.undo(game.id, ALICE)
    assert await service.game(game.id) == before


async def test_after_the_end_only_the_end_can_be_undone(service: GameService, game: GameState) -> None:
    await service.end_game(game.id, BOB)
    with pytest.raises(e.GameOver, match="ended"):
        await service.undo(game.id, ALICE)


async def test_repeated_undo_walks_back_through_history(service: GameService, game: GameState) -> None:
    start = await service.game(game.id)
    await service.draw(game.id, ALICE, tiles("1K"))
    await service.draw(game.id, ALICE, tiles("2K"))
    await service.pass_turn(game.id, ALICE)
    assert (await service.undo(game.id, ALICE)).event.kind is EventKind.TURN_PASSED
    assert (await service.undo(game.id, ALICE)).event.detail == {"tiles": 1}
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
    await service.draw(game.id, BOB, tiles("8K"))
    state = (await service.undo(game.id, ALICE)).state  # Bob's later draw is his own business
    alice, bob = state.player(ALICE), state.player(BOB)
    assert alice is not None and "8B" not in [str(t) for t in alice.rack]
    assert bob is not None and "8K" in [str(t) for t in bob.rack]


async def test_undo_refuses_to_clobber_a_later_change(service: GameService, game: GameState) -> None:
    await service.pass_turn(game.id, ALICE)  # turn: Alice -> Bob
    await service.pass_turn(game.id, BOB)  # turn: Bob -> Alice
    before = await service.game(game.id)
    with pytest.raises(e.UndoConflict, match="cannot undo Alice's pass: Bob's pass changed the same things"):
        await service.undo(game.id, ALICE)
    assert await service.game(game.id) == before
    await service.undo(game.id, BOB)
    assert (await service.undo(game.id, ALICE)).state.turn == ALICE


async def test_undo_never_brings_back_more_tiles_than_the_deck(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("11R"))
    await service.set_table(game.id, BOB, table("3-5R | 9K 9O 9B | 11R 11B 11K | 10R 11R 12R"))
    await service.set_rack(game.id, ALICE, tiles("1B"))
    before = await service.game(game.id)
    with pytest.raises(e.TooManyTiles, match="after this undo, the table and Alice's rack would hold more") as why:
        await service.undo(game.id, ALICE)
    assert "11R" not in str(why.value)  # the answer may be read in a group: it never tells a rack
    assert await service.game(game.id) == before


async def test_undo_of_a_shared_table_is_not_blocked_by_a_rack_typed_earlier(
    service: GameService, game: GameState
) -> None:
    await service.set_rack(game.id, BOB, tiles("13K 13K"))
    await service.set_table(game.id, ALICE, table("11K 12K 13K"), with_rack=False)
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
    after = await service.set_table(game.id, BOB, table("9K 9O 9B | 3R 4R 5R"), with_rack=False, based_on=before.table)
    assert [str(s) for s in after.table] == ["9B 9K 9O", "3R 4R 5R"]
