"""Telegram's flood limits for the bot as a whole, however many processes it runs.

Telegram allows a bot about 30 messages a second in all, 20 a minute in one
group, and about one a second in one private chat (short bursts pass). Each
message reserves its moment in the database (``paces``: a generic cell rate
algorithm, one row per chat and one for the bot), so two processes share one
budget; it then waits for that moment. A ``RetryAfter`` from Telegram is
waited out and the message sent again. With the database away a message goes
out unpaced rather than not at all (Telegram's own ``RetryAfter`` still holds
it back).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.storage.database import Database, is_unreachable
from bot.storage.models import Pace

#: Requests that put nothing in a chat, or are answers Telegram does not count.
UNPACED = frozenset({"sendChatAction", "answerCallbackQuery", "getFile", "getChat", "getChatMember"})
RETRIES = 2


def retry_seconds(why: RetryAfter) -> float:
    """How long Telegram asked to wait (seconds now, a timedelta in PTB's next major version)."""
    wait: Any = why.retry_after
    return float(wait.total_seconds()) if hasattr(wait, "total_seconds") else float(wait)


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` messages at once, then one every ``every`` seconds."""

    every: float
    burst: int

    @property
    def slack(self) -> float:
        return (self.burst - 1) * self.every


@dataclass(frozen=True, slots=True)
class Limits:
    overall: Rate | None = Rate(1 / 30, 30)
    group: Rate | None = Rate(3.0, 20)
    private: Rate | None = Rate(1.0, 10)


#: No pacing at all (a fake Telegram in tests).
NONE = Limits(None, None, None)


class SharedPace(BaseRateLimiter[int]):
    def __init__(self, limits: Limits = Limits(), db: Database | None = None) -> None:
        self.limits = limits
        self.db = db
        self.clock: Callable[[], float] = time.time

    async def initialize(self) -> None:
        """Nothing to open: the database is the bot's."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat_id = data.get("chat_id")
        for attempt in range(RETRIES + 1):
            if chat_id is not None and endpoint not in UNPACED:
                delay = await self.reserve(chat_id)
                if delay > 0:
                    await asyncio.sleep(delay)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as why:
                if attempt == RETRIES:
                    raise
                await asyncio.sleep(retry_seconds(why))
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def reserve(self, chat_id: object) -> float:
        """Book the next moment a message may go to ``chat_id``; how many seconds from now that is."""
        rates = [(key, rate) for key, rate in self._rates(chat_id) if rate is not None]
        if not rates or self.db is None:
            return 0.0
        db = self.db

        async def book(session: AsyncSession) -> float:
            now = self.clock()
            keys = [key for key, _ in rates]
            query = select(Pace).where(Pace.key.in_(keys))
            if not db.is_sqlite:  # SQLite's write transaction already holds the whole file
                query = query.with_for_update()
            rows = {row.key: row for row in (await session.scalars(query)).all()}
            delay = 0.0
            for key, rate in rates:
                row = rows.get(key)
                due = max(row.due, now) if row is not None else now
                delay = max(delay, due - rate.slack - now)
            for key, rate in rates:
                row = rows.get(key)
                due = max(row.due if row is not None else now, now + delay) + rate.every
                if row is None:
                    session.add(Pace(key=key, due=due))
                else:
                    row.due = due
            return delay

        for _ in range(RETRIES):
            try:
                with db.watched():
                    async with db.write_turn(), db.writes() as session, session.begin():
                        return await book(session)
            except IntegrityError:  # another process booked this chat's first message meanwhile: book again
                continue
            except Exception as why:
                if is_unreachable(why):  # an answer is not held back for the database's sake
                    return 0.0
                raise
        return 0.0

    def _rates(self, chat_id: object) -> list[tuple[str, Rate | None]]:
        text = str(chat_id)
        group = text.startswith("-") or text.startswith("@")
        return [
            ("all", self.limits.overall),
            (f"chat:{text}"[:32], self.limits.group if group else self.limits.private),
        ]
