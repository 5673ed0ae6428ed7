"""Shared set-up for the storage tests: a real SQLite file, migrated, and a service on it."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bot.game import GameState, errors, seats
from bot.game.state import EventKind, EventRecord, Played
from bot.storage import GameService, open_database, queries
from bot.storage.mapping import record_of
from bot.storage.migrate import upgrade_database
from bot.storage.models import Event
from solver import STANDARD, Rules, TileSet, parse_table, parse_tiles
from solver.text import N_
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


# --- changes and reads only the tests make (moved out of GameService: the chat never calls them) ---------------


async def game_by_invite(service: GameService, invite: str) -> GameState:
    """The running game a deep-link payload names."""
    found = await service._games(queries.BY_INVITE, invite=invite)
    if not found or not found[0].running:
        raise errors.InvalidInvite(N_("this link is for a game that is over or unknown; ask for a new one"))
    return found[0]


async def history(service: GameService, game_id: int, *, limit: int = 50) -> list[EventRecord]:
    """The game's latest events, oldest first (undone ones flagged)."""
    async with service.db.reads() as session, session.begin():
        await service._row(session, game_id)
        rows = (
            await session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id.desc()).limit(limit))
        ).all()
        undone = await service._undone_ids(session, game_id)
        return [record_of(r, r.id in undone) for r in reversed(rows)]


async def leave(service: GameService, game_id: int, user_id: int) -> GameState:
    """Leave the game: the rack goes back to the pool, the turn moves on if it was theirs."""

    def step(state: GameState) -> tuple[GameState, dict[str, Any]]:
        return seats.leave(state, user_id), {}

    _, after = await service._change(game_id, user_id, EventKind.PLAYER_LEFT, step)
    return after


async def add_sets(
    service: GameService,
    game_id: int,
    user_id: int,
    sets: Sequence[TileSet],
    *,
    player: int | None = None,
    out_of_turn: bool = False,
    opening_waived: bool = False,
) -> Played:
    """Record a play that only put new sets down (added to the table as it is now)."""
    return await service._play(
        game_id,
        user_id,
        player if player is not None else user_id,
        lambda state: (*state.table, *sets),
        trace=None,
        based_on=None,
        out_of_turn=out_of_turn,
        opening_waived=opening_waived,
        rack_after=None,
        answering=None,
    )


async def count_events(service: GameService, game_id: int) -> int:
    """How many events the game's history holds (undo entries included)."""
    async with service.db.reads() as session, session.begin():
        query = select(func.count()).select_from(Event).where(Event.game_id == game_id)
        return int((await session.scalar(query)) or 0)
