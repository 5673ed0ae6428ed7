"""Shared set-up for the storage tests: a real SQLite file, migrated, and a service on it."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.game import GameState
from bot.storage import GameService, open_database
from bot.storage.migrate import upgrade_database
from solver import STANDARD, Rules, TileSet, parse_table, parse_tiles
from solver.tiles import Tile


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 'games.sqlite3'}"


_template: Path | None = None


async def migrated(folder: Path) -> str:
    """A fresh database in ``folder``, made by the migrations (not ``create_all``).

    The migrations run once per test session into a template file, which each
    test copies: the same schema, a tenth of the time.
    """
    global _template
    if _template is None:
        source = Path(tempfile.mkdtemp(prefix="rummikub-template-"))
        atexit.register(shutil.rmtree, source, True)
        await upgrade_database(sqlite_url(source))
        _template = source / "games.sqlite3"
    shutil.copyfile(_template, folder / "games.sqlite3")
    return sqlite_url(folder)


@asynccontextmanager
async def service_at(folder: Path) -> AsyncIterator[GameService]:
    """A service on a fresh, migrated database in ``folder``."""
    db = open_database(await migrated(folder))
    try:
        yield GameService(db)
    finally:
        await db.dispose()


def tiles(text: str, rules: Rules = STANDARD) -> list[Tile]:
    return parse_tiles(text, rules)


def table(text: str, rules: Rules = STANDARD) -> list[TileSet]:
    return parse_table(text, rules)


def layout(state: GameState) -> list[str]:
    return [str(s) for s in state.table]


ALICE, BOB, CAROL = 101, 202, 303
GROUP = -1001234567890


async def two_player_game(service: GameService) -> GameState:
    """A group game with Alice (seat 0, to move) and Bob (seat 1)."""
    game = await service.new_game(GROUP, ALICE, join_as="Alice")
    return await service.join(game.id, BOB, "Bob")


async def melded(service: GameService, game_id: int, *users: int) -> GameState:
    """Set-up only: these players have made their initial meld (as if they had played it earlier), so a test of
    something else need not play openings first; a group's game otherwise records a meld only by a play."""
    from sqlalchemy import update

    from bot.storage.models import Game, Player

    async with service.db.writes() as session, session.begin():
        await session.execute(
            update(Player).where(Player.game_id == game_id, Player.user_id.in_(users)).values(melded=True)
        )
        await session.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
    return await service.game(game_id)


async def empty_pool(service: GameService, game_id: int, user_id: int) -> GameState:
    """Set-up only: ``user_id``'s rack takes every tile still in the pool (their known tiles kept, the tiles
    nobody's rack names added), so the pool is empty and a turn without a play is a pass."""
    from collections import Counter

    state = await service.game(game_id)
    me = state.player(user_id)
    assert me is not None
    rules = state.rules
    free = Counter({t: rules.copies_of(t) for t in (*rules.tiles(), Tile())})
    free -= Counter(t for s in state.table for t in s.tiles)
    for p in state.active_players:
        free -= Counter(p.rack)
    extra = sorted(free.elements(), key=lambda t: (t.is_joker, str(t.colour), t.number))[: state.pool + me.unknown]
    after = (await service.set_rack(game_id, user_id, [*me.rack, *extra])).state
    assert after.pool == 0
    return after
