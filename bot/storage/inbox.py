"""Delivered updates, kept until handled, and which process handles each chat's updates.

Telegram forgets an update once we confirm it (the next ``getUpdates`` offset,
or a webhook's 200), so every update is written here first and confirmed after.
Handling marks it in the same transaction as the change it makes (``mark``,
called by the game service's transactions): a crash leaves each update either
applied, or waiting here for the restart, never both and never neither.

One chat's updates are handled in order by one process at a time: a process
claims the chat for ``claim_seconds`` and renews its claims while it lives; a
dead process's claims run out and another process takes the chat over.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.game import errors
from bot.storage.database import Database
from bot.storage.models import Claim, Delivery, utcnow

T = TypeVar("T")

#: How long a claim on a chat holds without being renewed, in seconds.
CLAIM_SECONDS = 15.0
#: How long handled updates are kept (to know a repeated delivery, and to count a flood).
KEPT = timedelta(days=1)
#: Starts after which an update that never finished (it killed the process each time) is given up.
MOST_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Delivered:
    """An update as it arrived: its number, its chat (whose order it keeps), its sender, its JSON."""

    update_id: int
    chat_id: int
    user_id: int | None
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Waiting:
    update_id: int
    user_id: int | None
    payload: dict[str, Any]
    attempts: int


@dataclass(slots=True)
class Handling:
    """The update whose handling is under way in this task; ``marked`` once a change recorded it."""

    update_id: int
    marked: bool = False


HANDLING: ContextVar[Handling | None] = ContextVar("handling", default=None)


@contextlib.contextmanager
def handling(update_id: int) -> Iterator[Handling]:
    """Around the handling of one update: the changes made inside mark it handled with themselves."""
    current = Handling(update_id)
    token = HANDLING.set(current)
    try:
        yield current
    finally:
        HANDLING.reset(token)


class AlreadyApplied(errors.GameError):
    """The update's change was recorded before a restart; it is not made twice."""


async def mark(session: AsyncSession, now: datetime) -> Handling | None:
    """In a change's transaction: record the update under way as handled, or refuse if it already was.

    Returns the handling to flag once the transaction commits (``None`` outside one, or when an earlier
    change of the same update recorded it already).
    """
    current = HANDLING.get()
    if current is None or current.marked:
        return None
    result = await session.execute(
        update(Delivery)
        .where(Delivery.update_id == current.update_id, Delivery.handled_at.is_(None))
        .values(handled_at=now, outcome="done")
        .execution_options(synchronize_session=False)
    )
    if getattr(result, "rowcount", 1) == 0:
        raise AlreadyApplied("I had already recorded this message (before a restart); nothing changed twice.")
    return current


def _owner() -> str:
    return f"{os.getpid()}-{secrets.token_hex(6)}"


@dataclass
class Inbox:
    db: Database
    claim_seconds: float = CLAIM_SECONDS
    owner: str = field(default_factory=_owner)
    clock: Callable[[], float] = time.time

    # -- arriving ---------------------------------------------------------------------------------------

    async def keep(self, updates: Sequence[Delivered]) -> None:
        """Store updates in one transaction; one delivered twice is stored once."""
        if not updates:
            return
        now = utcnow()
        rows = [
            {
                "update_id": u.update_id,
                "chat_id": u.chat_id,
                "user_id": u.user_id,
                "payload": u.payload,
                "received_at": now,
                "attempts": 0,
            }
            for u in updates
        ]
        dialect = postgresql if self.db.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(Delivery).values(rows).on_conflict_do_nothing(index_elements=["update_id"])
        await self._write(lambda session: session.execute(statement))

    async def last_kept(self) -> int | None:
        """The highest update number stored (``getUpdates`` continues after it)."""
        rows = await self.db.rows(select(func.max(Delivery.update_id)))
        value = rows[0][0] if rows else None
        return int(value) if value is not None else None

    # -- which chats, whose turn ------------------------------------------------------------------------

    async def waiting_chats(self, limit: int) -> list[int]:
        """Chats with updates to handle that no live process holds, those waiting longest first."""
        now = self.clock()
        held = select(Claim.chat_id).where(Claim.until >= now, Claim.owner != self.owner)
        statement = (
            select(Delivery.chat_id)
            .where(Delivery.handled_at.is_(None), Delivery.chat_id.not_in(held))
            .group_by(Delivery.chat_id)
            .order_by(func.min(Delivery.update_id))
            .limit(limit)
        )
        return [int(row[0]) for row in await self.db.rows(statement)]

    async def claim(self, chat_id: int) -> bool:
        """Take the chat's updates for this process, unless another live process has them."""
        now = self.clock()
        dialect = postgresql if self.db.engine.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(Claim).values(chat_id=chat_id, owner=self.owner, until=now + self.claim_seconds)
        statement = insert.on_conflict_do_update(
            index_elements=["chat_id"],
            set_={"owner": insert.excluded.owner, "until": insert.excluded.until},
            where=(Claim.until < now) | (Claim.owner == self.owner),
        ).returning(Claim.owner)

        async def take(session: AsyncSession) -> bool:
            return (await session.execute(statement)).first() is not None

        return await self._write(take)

    async def renew(self) -> None:
        """Keep this process's claims (called well within ``claim_seconds``)."""
        statement = update(Claim).where(Claim.owner == self.owner).values(until=self.clock() + self.claim_seconds)
        await self._write(lambda session: session.execute(statement))

    async def release(self, chat_id: int) -> None:
        statement = delete(Claim).where(Claim.chat_id == chat_id, Claim.owner == self.owner)
        await self._write(lambda session: session.execute(statement))

    async def release_all(self) -> None:
        """On a clean stop: other processes may take this one's chats at once."""
        await self._write(lambda session: session.execute(delete(Claim).where(Claim.owner == self.owner)))

    # -- handling ---------------------------------------------------------------------------------------

    async def next_for(self, chat_id: int) -> Waiting | None:
        """The chat's oldest update still to handle."""
        statement = (
            select(Delivery.update_id, Delivery.user_id, Delivery.payload, Delivery.attempts)
            .where(Delivery.chat_id == chat_id, Delivery.handled_at.is_(None))
            .order_by(Delivery.update_id)
            .limit(1)
        )
        rows = await self.db.rows(statement)
        if not rows:
            return None
        update_id, user_id, payload, attempts = tuple(rows[0])
        return Waiting(int(update_id), user_id, dict(payload), int(attempts))

    async def begin(self, update_id: int) -> None:
        """Count a start of handling (an update that never finishes is given up after ``MOST_ATTEMPTS``)."""
        statement = (
            update(Delivery).where(Delivery.update_id == update_id).values(attempts=Delivery.attempts + 1)
        )
        await self._write(lambda session: session.execute(statement))

    async def finish(self, update_id: int, outcome: str) -> None:
        """Mark the update handled, unless a change already did (with ``done``)."""
        statement = (
            update(Delivery)
            .where(Delivery.update_id == update_id, Delivery.handled_at.is_(None))
            .values(handled_at=utcnow(), outcome=outcome)
        )
        await self._write(lambda session: session.execute(statement))

    async def recent(self, chat_id: int, user_id: int | None, seconds: float, upto: int) -> tuple[int, bool]:
        """How many updates this user sent to this chat in the last ``seconds``, up to update ``upto``, and
        whether one of them was already answered with "slow down"."""
        since = utcnow() - timedelta(seconds=seconds)
        statement = select(
            func.count(),
            func.coalesce(func.max(case((Delivery.outcome == "slowed", 1), else_=0)), 0),
        ).where(
            Delivery.chat_id == chat_id,
            Delivery.user_id == user_id,
            Delivery.received_at >= since,
            Delivery.update_id <= upto,
        )
        rows = await self.db.rows(statement)
        count, told = tuple(rows[0]) if rows else (0, 0)
        return int(count), bool(told)

    async def forget(self) -> None:
        """Drop handled updates older than ``KEPT``."""
        before = utcnow() - KEPT
        statement = delete(Delivery).where(Delivery.handled_at.is_not(None), Delivery.received_at < before)
        await self._write(lambda session: session.execute(statement))

    async def _write(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        async with self.db.write_turn(), self.db.writes() as session, session.begin():
            return await work(session)

