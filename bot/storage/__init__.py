"""Storage: each chat's game in SQL (SQLite or PostgreSQL), and the service that loads a game, asks the
game core (``bot.game``) for the change, and saves it in one transaction.

Exported here: open the database, upgrade it, and make a ``GameService``. The chat reaches a few modules
directly too: the inbox (``inbox``), the outages' backoff (``outages``), the health check (``health``), the flood
budget's table (``models.Pace``) and the questions asked with buttons.
"""

from bot.storage.database import Database, open_database
from bot.storage.migrate import upgrade_database
from bot.storage.service import GameService

__all__ = ["Database", "GameService", "open_database", "upgrade_database"]
