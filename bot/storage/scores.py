"""A chat's scores: every scored game of the chat, summed per player (``python -m bot game`` and ``/scores``).

The score of a game lives on its players' rows (``players.score``, set when the game is scored), so a game's
score and the chat's totals are one sum, and undoing the end of a game takes its score back with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, select

from bot.game.state import GameStatus
from bot.storage.database import Database
from bot.storage.models import Game, Player


@dataclass(frozen=True, slots=True)
class Total:
    """One player's line in a chat's totals: the sum of their scores, the games scored and the games won."""

    user_id: int
    name: str
    points: int
    games: int
    won: int


async def totals(db: Database, chat_id: int) -> list[Total]:
    """The chat's players with a score in some ended game, most points first (the newest name each had)."""
    won = case((Game.winner_user_id == Player.user_id, 1), else_=0)
    query = (
        select(
            Player.user_id,
            func.sum(Player.score).label("points"),
            func.count().label("games"),
            func.sum(won).label("won"),
            func.max(Game.id).label("last"),
        )
        .join(Game, Game.id == Player.game_id)
        .where(Game.chat_id == chat_id, Game.status == GameStatus.ENDED.value, Player.score.is_not(None))
        .group_by(Player.user_id)
    )
    rows = await db.rows(query)
    names = await _names(db, [(row.user_id, row.last) for row in rows])
    out = [Total(row.user_id, names[row.user_id], int(row.points), int(row.games), int(row.won)) for row in rows]
    return sorted(out, key=lambda t: (-t.points, -t.won, t.name))


async def _names(db: Database, newest: list[tuple[int, int]]) -> dict[int, str]:
    """Each player's name in the newest game that scored them."""
    if not newest:
        return {}
    games = sorted({game for _uid, game in newest})
    rows = await db.rows(select(Player.user_id, Player.game_id, Player.name).where(Player.game_id.in_(games)))
    wanted = dict(newest)
    return {row.user_id: row.name for row in rows if wanted.get(row.user_id) == row.game_id}
