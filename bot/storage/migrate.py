"""Alembic from code: what ``python -m bot db`` and the bot's start-up use.

The migration environment runs its own event loop (``asyncio.run``), so from
async code we run Alembic in a worker thread rather than inside the bot's loop.
"""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
INI = MIGRATIONS.parent / "alembic.ini"


def alembic_config(url: str | None = None, *, output: io.StringIO | None = None) -> Config:
    """Alembic's config without needing the current folder to be the project root.

    Without ``url`` the environment takes ``DATABASE_URL`` from the settings.
    """
    config = Config(str(INI) if INI.exists() else None, stdout=output or sys.stdout)
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["configure_logging"] = False  # leave the application's logging alone
    if url is not None:
        config.attributes["database_url"] = url
    return config


def upgrade(url: str | None = None, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str | None = None, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def current(url: str | None = None) -> str:
    """The database's revision as Alembic prints it (empty for an empty database)."""
    out = io.StringIO()
    command.current(alembic_config(url, output=out))
    return out.getvalue().strip()


async def upgrade_database(url: str | None = None) -> None:
    """Bring the database to the latest revision; call once at start-up."""
    await asyncio.to_thread(upgrade, url)
