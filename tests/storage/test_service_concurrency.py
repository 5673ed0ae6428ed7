"""Many writers at once: no lost update on one game, no waiting across games, one running game per chat."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Executable, Row, text

from bot.game import EventKind
from bot.game import errors as e
from bot.storage import GameService, open_database
from bot.storage.sqlite_thread import SqliteThread
from solver import STANDARD, Colour, TileSet
from solver.tiles import Tile
from tests.storage_support import ALICE, GROUP, add_sets, history, migrated

WRITERS = 50
# room for 64 distinct three-tile runs; any play opens; fifty players are dealt 4 tiles each off the pool
MANY = STANDARD.replace(copies=4, initial_meld=0, deal=4)


def runs(count: int) -> list[TileSet]:
    """``count`` runs that can all lie on one table together."""
    out = [
        TileSet.run(colour, start, length=3)
        for _copy in range(MANY.copies)
        for colour in MANY.colour_order
        for start in (1, 4, 7, 10)
    ]
    assert len(out) >= count
    return out[:count]


@pytest.fixture
async def url(tmp_path: Path) -> str:
    return await migrated(tmp_path)


async def test_fifty_writers_on_one_game_lose_nothing(url: str) -> None:
    db = open_database(url)
    service = GameService(db)
    try:
        game = await service.new_game(GROUP, ALICE, MANY)
        users = range(1, WRITERS + 1)
        await asyncio.gather(*(service.join(game.id, u, f"player {u}") for u in users))
        joined = await service.game(game.id)
        assert sorted(p.user_id for p in joined.players) == list(users)
        assert sorted(p.seat for p in joined.players) == list(range(WRITERS))  # no seat handed out twice
        assert joined.pool == MANY.deck_size() - WRITERS * MANY.deal  # no rack dealt twice, none lost

        sets = runs(WRITERS)
        results = await asyncio.gather(
            *(add_sets(service, game.id, u, [s], out_of_turn=True) for u, s in zip(users, sets, strict=True))
        )
        final = await service.game(game.id)
    finally:
        await db.dispose()
    assert Counter(str(s) for s in final.table) == Counter(str(s) for s in sets)
    assert final.version == joined.version + WRITERS
    assert sorted(r.state.version for r in results) == list(range(joined.version + 1, final.version + 1))
    assert all(p.rack_size == 1 for p in final.players) and final.pool == joined.pool  # each played 3 of 4
    assert sorted(final.numbers) == list(range(1, WRITERS + 1))  # each set its own number, none twice


async def test_two_processes_worth_of_writers_lose_nothing(url: str) -> None:
    """Two services with their own engines and locks (as two bot processes would be) share one game:
    only the database's locking keeps them apart."""
    first, second = open_database(url), open_database(url)
    services = [GameService(first), GameService(second)]
    try:
        game = await services[0].new_game(GROUP, ALICE, MANY, join_as="Alice")
        sets = runs(WRITERS)
        # her rack holds every run, and a joker she keeps (so no play of hers is her last)
        await services[0].set_rack(game.id, ALICE, [*(t for s in sets for t in s.tiles), Tile()])
        thirteens = [Tile(13, c) for c in MANY.colour_order for _copy in range(MANY.copies)]  # not in any run
        await asyncio.gather(
            *(add_sets(services[i % 2], game.id, ALICE, [s]) for i, s in enumerate(sets)),
            *(services[i % 2].draw(game.id, ALICE, [t]) for i, t in enumerate(thirteens)),
        )
        final = await services[1].game(game.id)
        events = await history(services[0], game.id, limit=1000)
    finally:
        await asyncio.gather(first.dispose(), second.dispose())
    assert Counter(str(s) for s in final.table) == Counter(str(s) for s in sets)
    alice = final.player(ALICE)
    assert alice is not None and sorted(map(str, alice.rack)) == sorted(["J", *map(str, thirteens)])
    assert len(thirteens) == 16 and alice.rack_size == 17 and alice.rack_known
    kinds = Counter(ev.kind for ev in events)
    assert kinds[EventKind.PLAY_RECORDED] == WRITERS and kinds[EventKind.TILES_DRAWN] == 16


async def test_a_busy_game_does_not_hold_up_another(url: str) -> None:
    db = open_database(url)
    service = GameService(db)
    try:
        busy = await service.new_game(GROUP, ALICE, join_as="Alice")
        free = await service.new_game(GROUP - 1, ALICE, join_as="Alice")
        holding, release = asyncio.Event(), asyncio.Event()

        async def hold_busy_game() -> None:
            async with service._locks.hold(busy.id):  # as a long change to that game would
                holding.set()
                await release.wait()

        holder = asyncio.create_task(hold_busy_game())
        await holding.wait()
        queued = asyncio.create_task(service.draw(busy.id, ALICE))
        drawn = await asyncio.wait_for(service.draw(free.id, ALICE, [TileSet.run(Colour.RED, 1).tiles[0]]), 5)
        assert drawn.state.version == free.version + 1
        assert not queued.done()  # the busy game's own writer still waits its turn
        release.set()
        await asyncio.wait_for(asyncio.gather(holder, queued), 5)
    finally:
        await db.dispose()
    assert len(service._locks) == 0  # locks of idle games are dropped


@pytest.mark.parametrize("engines", [1, 2], ids=["one process", "two processes"])
async def test_one_new_game_wins_in_a_chat(url: str, engines: int) -> None:
    dbs = [open_database(url) for _ in range(engines)]
    services = [GameService(db) for db in dbs]
    try:
        outcomes = await asyncio.gather(
            *(services[i % engines].new_game(GROUP, ALICE + i) for i in range(10)), return_exceptions=True
        )
    finally:
        await asyncio.gather(*(db.dispose() for db in dbs))
    started = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(started) == 1
    assert all(isinstance(o, e.GameAlreadyRunning) for o in refused), refused


async def test_a_database_locked_too_long_is_busy_and_changes_nothing(url: str) -> None:
    """Another process holding the write lock past the busy timeout: a clear "try again", no half write."""
    blocker, db = open_database(url), open_database(url, busy_timeout_ms=50)
    service = GameService(db)
    try:
        game = await service.new_game(GROUP, ALICE, join_as="Alice")
        async with blocker.writes() as session, session.begin():
            await session.execute(text("UPDATE games SET version = version"))  # holds the write lock
            with pytest.raises(e.Busy, match="try again"):
                await service.draw(game.id, ALICE, [Tile(1, Colour.RED)])
        assert await service.game(game.id) == game
        assert (await service.draw(game.id, ALICE, [Tile(1, Colour.RED)])).state.version == game.version + 1
    finally:
        await asyncio.gather(blocker.dispose(), db.dispose())


async def test_reads_take_turns_in_the_order_they_came_and_never_wait_for_a_writer(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 chats asking at once: the first read is done first (it is all this process's CPU anyway)."""
    db = open_database(url)
    service = GameService(db)
    running, most, finished = 0, 0, []
    real = SqliteThread._rows

    def counted(thread: SqliteThread, statement: Executable, params: Mapping[str, object] | None) -> Sequence[Row[Any]]:
        nonlocal running, most
        running += 1
        most = max(most, running)
        try:
            time.sleep(0.005)  # a statement under way: another read would start now
            return real(thread, statement, params)
        finally:
            running -= 1

    try:
        games = [await service.new_game(GROUP - i, ALICE, join_as="Alice") for i in range(6)]
        monkeypatch.setattr(SqliteThread, "_rows", counted)

        async def read(i: int) -> None:
            state = await service.game_for(GROUP - i, ALICE, private=False)
            assert state.id == games[i].id
            finished.append(i)

        async with db.write_turn(), db.writes() as writing, writing.begin():  # a write under way holds none up
            await writing.execute(text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": games[0].id})
            await asyncio.wait_for(asyncio.gather(*(read(i) for i in range(6))), 5)
        # and a read sees what was written just before it
        drawn = (await service.draw(games[1].id, ALICE, [TileSet.run(Colour.RED, 1).tiles[0]])).state
        assert drawn.version == games[1].version + 1
        assert (await service.game(games[1].id)).version == drawn.version
    finally:
        await db.dispose()
    assert db.sqlite_thread is not None  # a SQLite file is read in the SQLite thread
    assert most == 1
    assert finished == list(range(6))
