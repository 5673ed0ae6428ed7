"""Reading games in one SQL statement: a game row joined with its players' rows, straight into ``GameState``.

Every message starts with a read of its game, so this path is kept lean: Core
rows instead of ORM objects (no identity map, no second query for the
players), which is about half the CPU of the ORM's ``selectinload``. Writes
still go through the ORM models (``service``), which carry the optimistic lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Row, Select, and_, bindparam, func, or_, select

from bot.game.state import GameState, GameStatus, PlayerState
from bot.storage.mapping import game_state, player_state
from bot.storage.models import Game, Player, Tie

_GAME = Game.__table__
_PLAYER = Player.__table__
_TIE = Tie.__table__
#: the player columns ``mapping.player_state`` reads (none shares a name with a game column)
_PLAYER_COLUMNS = [
    _PLAYER.c[name]
    for name in (
        "user_id", "name", "seat", "rack", "melded", "tiles_played", "active", "rack_size", "unnamed", "declared",
        "score",
    )
]  # fmt: skip


def games_where(*conditions: ColumnElement[bool]) -> Select[Any]:
    """The games meeting any of ``conditions``, each with its players in seat order; ordered by id.

    ``states_of`` turns the statement's rows into ``GameState`` values.
    """
    return (
        select(_GAME, *_PLAYER_COLUMNS)
        .outerjoin(_PLAYER, _PLAYER.c.game_id == _GAME.c.id)
        .where(or_(*conditions))
        .order_by(_GAME.c.id, _PLAYER.c.seat)
    )


# The reads, built once with parameters: building a statement and its cache key cost more than running it.
_RUNNING_IN = and_(_GAME.c.chat_id == bindparam("chat_id"), _GAME.c.status == GameStatus.RUNNING.value)
#: the game a user's private chat is tied to (a group game), if any
_TIED_TO = _GAME.c.id.in_(select(_TIE.c.game_id).where(_TIE.c.user_id == bindparam("user_id")))
#: a game by id (``game_id``)
BY_ID = games_where(_GAME.c.id == bindparam("game_id"))
#: a chat's running game (``chat_id``)
RUNNING_IN = games_where(_RUNNING_IN)
#: a private chat's running game and the group game the user's chat is tied to (``chat_id``, ``user_id``)
RUNNING_IN_OR_TIED = games_where(_RUNNING_IN, _TIED_TO)
#: the game a user's private chat is tied to, running or not (``user_id``)
TIED_TO = games_where(_TIED_TO)
#: the running games a user sits at (``user_id``)
SEATED = games_where(
    and_(
        _GAME.c.status == GameStatus.RUNNING.value,
        _GAME.c.id.in_(
            select(_PLAYER.c.game_id).where(_PLAYER.c.user_id == bindparam("user_id"), _PLAYER.c.active.is_(True))
        ),
    )
)
#: a chat's newest game, running or ended (``chat_id``)
NEWEST_IN = games_where(
    _GAME.c.id == select(func.max(_GAME.c.id)).where(_GAME.c.chat_id == bindparam("chat_id")).scalar_subquery()
)
#: the game a deep link's payload names (``invite``)
BY_INVITE = games_where(_GAME.c.invite == bindparam("invite"))


def states_of(rows: Sequence[Row[Any]]) -> list[GameState]:
    """Rows of (game, player) pairs, grouped by game; a game without players has one row of NULL player columns."""
    games: dict[int, tuple[Row[Any], list[PlayerState]]] = {}
    for row in rows:
        entry = games.get(row.id)
        if entry is None:
            entry = games[row.id] = (row, [])
        if row.user_id is not None:
            entry[1].append(player_state(row))
    return [game_state(row, players) for row, players in games.values()]
