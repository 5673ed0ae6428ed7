"""Alembic from code: what ``python -m bot db`` and the bot's start-up use.

The migration environment runs its own event loop (``asyncio.run``), so from
async code we run Alembic in a worker thread rather than inside the bot's loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import make_url

from bot.storage.database import sqlite_file

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
    with one_at_a_time(url):
        command.upgrade(alembic_config(url), revision)


def downgrade(url: str | None = None, revision: str = "base") -> None:
    with one_at_a_time(url):
        command.downgrade(alembic_config(url), revision)


@contextlib.contextmanager
def one_at_a_time(url: str | None) -> Iterator[None]:
    """Processes started together migrate a SQLite file one after another (a lock file beside it; PostgreSQL
    takes an advisory lock in ``migrations/env.py``). The bot always names its URL; a URL left to the
    settings is a person at the terminal."""
    file = sqlite_file(make_url(url)) if url is not None else None
    if file is None:
        yield
        return
    file.parent.mkdir(parents=True, exist_ok=True)
    with open(file.with_name(file.name + ".migrating"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def current(url: str | None = None) -> str:
    """The database's revision as Alembic prints it (empty for an empty database)."""
    out = io.StringIO()
    command.current(alembic_config(url, output=out))
    return out.getvalue().strip()


async def upgrade_database(url: str | None = None) -> None:
    """Bring the database to the latest revision; call once at start-up."""
    await asyncio.to_thread(upgrade, url)
