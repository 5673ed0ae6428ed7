"""Whether the bot is well, in one line: does its database answer, and when was an update last handled.

``python -m bot health`` prints it with exit status 0 or 1 (``bot.cli_health``), for a service manager or a
container's health check; in webhook mode the running bot answers the same line on ``HEALTH_PATH`` (200 or
503). The line names no secret: not the database's URL, nothing a player sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.models import Delivery
from bot.storage.outages import describe, duration

#: How long the database has to answer, in seconds.
TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    line: str


def unhealthy(why: str) -> Health:
    return Health(False, f"unhealthy: {why}")


async def check(engine: AsyncEngine, *, timeout: float = TIMEOUT, now: datetime | None = None) -> Health:
    """Ask the database when an update was last handled, and how many wait (the oldest, since when)."""
    waiting = Delivery.handled_at.is_(None)
    statement = select(
        func.max(Delivery.handled_at),
        func.count(Delivery.update_id).filter(waiting),
        func.min(Delivery.received_at).filter(waiting),
    )
    try:
        async with asyncio.timeout(timeout):
            async with engine.connect() as conn:
                last, count, oldest = (await conn.execute(statement)).one()
    except TimeoutError:
        return unhealthy(f"the database does not answer (nothing within {timeout:g} s)")
    except Exception as why:
        return unhealthy(f"the database does not answer ({describe(why)})")
    now = now or datetime.now(UTC)
    handled = f"last update handled {_when(last, now)}" if last is not None else "no update handled in the last day"
    line = f"healthy: the database answers; {handled}; {count} waiting"
    if count and oldest is not None:
        line += f", the oldest for {duration(max(0.0, (now - _utc(oldest)).total_seconds()))}"
    return Health(True, line)


def _utc(moment: datetime) -> datetime:
    """Stored moments are UTC; SQLite and PostgreSQL's plain timestamps hand them back without a zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _when(moment: datetime, now: datetime) -> str:
    moment = _utc(moment)
    ago = max(0.0, (now - moment).total_seconds())
    return f"{moment:%Y-%m-%d %H:%M:%S} UTC ({duration(ago)} ago)"


class Checkup:
    """A running bot's health, looked up at most once a ``every`` seconds however often it is asked (the
    webhook's health path is as public as the webhook)."""

    def __init__(self, engine: AsyncEngine, every: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = engine
        self.every = every
        self.clock = clock
        self._last: tuple[float, Health] | None = None
        self._lock = asyncio.Lock()

    async def __call__(self) -> Health:
        async with self._lock:
            if self._last is not None and self.clock() - self._last[0] < self.every:
                return self._last[1]
            health = await check(self.engine)
            self._last = (self.clock(), health)
            return health
