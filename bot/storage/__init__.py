"""Storage: each chat's game in SQL (SQLite or PostgreSQL) and the service the bot calls.

The bot needs only what is exported here: open the database, upgrade it, make
a ``GameService``, and catch ``GameError``.
"""

from bot.storage.database import Database, open_database
from bot.storage.domain import (
    JOKER_PENALTY,
    EventKind,
    EventRecord,
    GameResult,
    GameState,
    GameStatus,
    Played,
    PlayerScore,
    PlayerState,
    Undone,
)
from bot.storage.errors import GameError
from bot.storage.migrate import upgrade_database
from bot.storage.service import GameService

__all__ = [
    "JOKER_PENALTY",
    "Database",
    "EventKind",
    "EventRecord",
    "GameError",
    "GameResult",
    "GameService",
    "GameState",
    "GameStatus",
    "Played",
    "PlayerScore",
    "PlayerState",
    "Undone",
    "open_database",
    "upgrade_database",
]
