"""`python -m bot health`: one line on whether the bot is well, exit status 0 (yes) or 1 (no).

For a service manager or a container's ``HEALTHCHECK``: the database must answer (within ``--timeout``
seconds); the line also says when an update was last handled and how many wait. The URL is ``DATABASE_URL``
from the settings unless ``--url`` is given. Nothing is created, migrated or written: a SQLite file that does
not exist is unhealthy, not made.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from pydantic import ValidationError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.settings import Settings
from bot.storage.database import make_engine, sqlite_file
from bot.storage.health import TIMEOUT, Health, check, unhealthy


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser(
        "health",
        help="say in one line whether the bot's database answers and when an update was last handled",
        description="Exit status 0 when the database answers, 1 when it does not; one line either way.",
    )
    p.add_argument("--url", help="database URL (default: DATABASE_URL from the settings)")
    p.add_argument("--timeout", type=float, default=TIMEOUT, help=f"seconds to wait for the database ({TIMEOUT:g})")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    health = look(args.url, args.timeout)
    print(health.line)
    return 0 if health.ok else 1


def look(url: str | None, timeout: float) -> Health:
    if url is None:
        try:
            url = Settings().database_url
        except ValidationError as why:
            first = why.errors()[0]
            return unhealthy(f"setting {'.'.join(str(p) for p in first['loc'])}: {first['msg']}")
    try:
        parsed = make_url(url)
    except ArgumentError:
        return unhealthy("DATABASE_URL is not a database URL")
    file = sqlite_file(parsed)
    if file is not None and not file.exists():
        return unhealthy(f"no database at {file}")
    return asyncio.run(_checked(url, timeout))


async def _checked(url: str, timeout: float) -> Health:
    try:
        engine = make_engine(url)
    except Exception as why:  # a driver that is not installed, a malformed URL the driver refuses
        return unhealthy(f"cannot open the database ({type(why).__name__})")
    try:
        return await check(engine, timeout=timeout)
    finally:
        await engine.dispose()
