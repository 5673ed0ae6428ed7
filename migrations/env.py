"""Alembic's environment: async, with the database URL from the bot's settings.

Precedence for the URL: one handed over by code (``bot.storage.migrate``), then
``alembic -x url=...``, then ``DATABASE_URL`` from the settings. Migrations run
through the same engine set-up as the bot (``bot.storage.database``), so SQLite
gets the same pragmas, foreign keys included.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from bot.settings import Settings
from bot.storage.database import make_engine
from bot.storage.models import Base

config = context.config
if config.config_file_name and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name)

target_metadata = Base.metadata


def database_url() -> str:
    url = config.attributes.get("database_url") or context.get_x_argument(as_dictionary=True).get("url")
    return str(url) if url else Settings().database_url


def run_offline() -> None:
    """`alembic upgrade head --sql`: print the SQL instead of running it."""
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


#: The advisory lock every bot process takes around migrating PostgreSQL, so processes started together
#: migrate one after another (the later ones find nothing left to do) instead of racing to create tables.
MIGRATION_LOCK = 7_261_847_001


def run_with(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":  # held until this transaction ends
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


async def run_online() -> None:
    engine = make_engine(database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_with)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    asyncio.run(run_online())
