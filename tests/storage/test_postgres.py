"""The same models, migrations and service on PostgreSQL (asyncpg), against a throwaway server.

The server (``tests.postgres_support``) runs from a temp folder, on loopback,
and is killed at the end of the module.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from bot.game import Finish, GameStatus
from bot.game import errors as e
from bot.game.ending import scores
from bot.storage import GameService, open_database
from bot.storage.migrate import current, downgrade, upgrade
from bot.storage.models import Base
from solver import STANDARD, TileSet
from solver.tiles import Tile
from tests.postgres_support import throwaway_postgres
from tests.storage_support import ALICE, BOB, add_sets, count_events, game_by_invite, table, tiles

MANY = STANDARD.replace(copies=4, initial_meld=0)  # every small run is a play, opening or not


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with throwaway_postgres() as url:
        yield url


@pytest.fixture(scope="module")
def migrated(pg_url: str) -> str:
    upgrade(pg_url)
    return pg_url


@pytest.fixture
async def service(migrated: str) -> AsyncIterator[GameService]:
    db = open_database(migrated)
    try:
        yield GameService(db)
    finally:
        await db.dispose()


def test_migrations_down_and_up_match_the_models(pg_url: str) -> None:
    upgrade(pg_url)
    downgrade(pg_url)
    assert current(pg_url) == ""
    upgrade(pg_url)
    assert current(pg_url) == "0006 (head)"

    def drift(conn: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata))

    async def check() -> list[object]:
        engine = create_async_engine(pg_url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(drift)
        finally:
            await engine.dispose()

    assert asyncio.run(check()) == []


async def test_a_whole_game_on_postgres(service: GameService) -> None:
    chat = -501
    game = await service.new_game(chat, ALICE, join_as="Alice")
    with pytest.raises(e.GameAlreadyRunning):
        await service.new_game(chat, BOB)
    await service.join(game.id, BOB, "Bob")
    # every read a message makes: the group's game, and from Bob's private chat the group game it is linked to
    assert (await game_by_invite(service, game.invite)).id == game.id
    await service.tie_by_invite(BOB, game.invite)
    assert (await service.game_for(chat, BOB, private=False)).id == game.id
    assert (await service.game_for(BOB, BOB, private=True)).id == game.id
    await service.set_rack(game.id, ALICE, tiles("10R 11R 12R 9K J"))
    played = await add_sets(service, game.id, ALICE, table("10-12R"), player=ALICE)
    assert [str(s) for s in played.state.table] == ["10R 11R 12R"] and played.state.turn == BOB
    theirs = (await service.undo_choice(game.id, BOB)).theirs
    assert theirs is not None
    undone = await service.undo(game.id, BOB, event_id=theirs.id, confirmed=True)
    assert undone.state.table == ()
    moved = await service.move_chat(chat, chat - 1)
    assert moved is not None and moved.chat_id == chat - 1
    drawn = await service.draw(game.id, ALICE)  # "I drew" in the group: counted, Bob to play
    assert drawn.count == 1 and drawn.state.turn == BOB and drawn.state.pool == 106 - 5 - 1 - 14
    named = await service.draw(game.id, ALICE, tiles("2O"))  # named later in private: no turn
    assert named.named_only and named.state.turn == BOB
    stopped = await service.end_game(game.id, ALICE)
    assert stopped.running and stopped.finish is Finish.STOPPED
    await service.declare(game.id, ALICE, tiles("10R 11R 12R 9K J 2O"))
    scored = (await service.declare(game.id, BOB, tiles("1B 1K"))).state
    assert scored.status is GameStatus.ENDED and scored.winner == BOB
    assert [(s.name, s.points_left, s.score, s.won) for s in scores(scored)] == [
        ("Bob", 2, 74, True),
        ("Alice", 74, -74, False),
    ]
    assert (await service.game(game.id)).ended_at == scored.ended_at
    # the chat's totals, summed by PostgreSQL (the chat moved with the game)
    assert [(t.name, t.points, t.games, t.won) for t in await service.chat_totals(chat - 1)] == [
        ("Bob", 74, 1, 1),
        ("Alice", -74, 1, 0),
    ]


async def test_fifty_writers_from_two_engines_on_postgres(migrated: str) -> None:
    """SELECT ... FOR UPDATE keeps two processes' writers to one game in line."""
    dbs = [open_database(migrated), open_database(migrated)]
    services = [GameService(db) for db in dbs]
    try:
        game = await services[0].new_game(-502, ALICE, MANY, join_as="Alice")
        sets = [TileSet.run(c, s, length=3) for _ in range(4) for c in MANY.colour_order for s in (1, 4, 7, 10)][:50]
        # her rack told whole: every run, and a joker she keeps (no play of hers is her last)
        game = (await services[0].set_rack(game.id, ALICE, [*(t for s in sets for t in s.tiles), Tile()])).state
        await asyncio.gather(*(add_sets(services[i % 2], game.id, ALICE, [s]) for i, s in enumerate(sets)))
        final = await services[1].game(game.id)
        events = await count_events(services[0], game.id)
    finally:
        await asyncio.gather(*(db.dispose() for db in dbs))
    assert Counter(str(s) for s in final.table) == Counter(str(s) for s in sets)
    assert final.version == game.version + 50
    assert events == 3 + 50  # started, joined, her rack, and one per play
    alice = final.player(ALICE)
    assert alice is not None and [str(t) for t in alice.rack] == ["J"] and alice.rack_size == 1
    assert alice.tiles_played == 150  # no writer's change to her row was lost


async def test_a_question_is_answered_once_across_two_engines_on_postgres(migrated: str) -> None:
    """Two bot processes taking the same tap: one records the play, the other finds the question gone."""
    dbs = [open_database(migrated), open_database(migrated)]
    services = [GameService(db) for db in dbs]
    try:
        game = await services[0].new_game(-503, ALICE, join_as="Alice")
        token = await services[0].ask(game.id, ALICE, "play", {"step": "opening"})
        answers = await asyncio.gather(
            *(s.record_play(game.id, ALICE, table("1-3R"), opening_waived=True, answering=token) for s in services),
            return_exceptions=True,
        )
        final = await services[1].game(game.id)
    finally:
        await asyncio.gather(*(db.dispose() for db in dbs))
    assert sorted(type(a).__name__ for a in answers) == ["AlreadyAnswered", "Played"]
    assert [str(s) for s in final.table] == ["1R 2R 3R"]


async def test_a_change_that_waited_for_the_games_lock_reads_the_players_as_committed(migrated: str) -> None:
    """Another process changes Alice's rack while holding the game's row lock; a change that came meanwhile
    (and waited for the lock) must build on that rack, not on the players as they were when it began."""
    blocker, db = open_database(migrated), open_database(migrated)
    service = GameService(db)
    try:
        game = await service.new_game(-504, ALICE, join_as="Alice")
        await service.set_rack(game.id, ALICE, tiles("1R 2R"))
        async with blocker.writes() as session, session.begin():
            await session.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game.id})
            await session.execute(
                text("UPDATE players SET rack = :rack, rack_size = 3 WHERE game_id = :id AND user_id = :user"),
                {"rack": json.dumps(["1R", "2R", "3R"]), "id": game.id, "user": ALICE},
            )
            await session.execute(text("UPDATE games SET version = version + 1 WHERE id = :id"), {"id": game.id})
            waiting = asyncio.create_task(service.draw(game.id, ALICE, tiles("9K")))
            await asyncio.sleep(0.5)  # the draw has begun, and waits for the lock
            assert not waiting.done()
        drawn = await asyncio.wait_for(waiting, 10)
    finally:
        await asyncio.gather(blocker.dispose(), db.dispose())
    alice = drawn.state.player(ALICE)
    assert alice is not None and [str(t) for t in alice.rack] == ["1R", "2R", "3R", "9K"] and alice.rack_size == 4
