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
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from bot.game import errors
from bot.storage.database import Database
from bot.storage.models import AskedQuestion, Claim, Delivery, Pace, utcnow
from solver.text import N_

#: How long a claim on a chat holds without being renewed, in seconds.
CLAIM_SECONDS = 15.0
#: How long handled updates are kept (to know a repeated delivery, and to count a flood).
KEPT = timedelta(days=1)
#: How long a question asked with buttons (a photo's reading, an open tile keyboard, a shown play) waits.
QUESTIONS_KEPT = timedelta(days=7)
#: Starts after which an update that never finished (it killed the process each time) is given up.
MOST_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Delivered:
    """An update as it arrived: its number, its chat (whose order it keeps), its sender, its JSON."""

    update_id: int
    chat_id: int
    user_id: int | None
    payload: dict[str, Any]
    kind: str = "message"


@dataclass(frozen=True, slots=True)
class Waiting:
    update_id: int
    user_id: int | None
    payload: dict[str, Any]
    attempts: int
    kind: str = "message"


@dataclass(slots=True)
class Handling:
    """The update whose handling is under way in this task; ``marked`` once a change recorded it;
    ``interrupted`` by the database going away (the error handler says so), to be handled again once it is
    back."""

    update_id: int
    marked: bool = False
    interrupted: BaseException | None = None


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
        raise AlreadyApplied(N_("I had already recorded this message (before a restart); nothing changed twice."))
    return current


def _owner() -> str:
    return f"{os.getpid()}-{secrets.token_hex(6)}"


@dataclass
class Inbox:
    db: Database
    claim_seconds: float = CLAIM_SECONDS
    #: How long an update waits before it is handled (webhooks): Telegram may post a chat's updates over
    #: several connections at once, so one can arrive a moment before the update sent ahead of it; handled
    #: only after this, they are taken in Telegram's order. Polling gets them in order: 0.
    settle: float = 0.0
    owner: str = field(default_factory=_owner)
    clock: Callable[[], float] = time.time

    def _ready(self) -> Any:
        """The deliveries still to handle that have settled."""
        waiting = Delivery.handled_at.is_(None)
        if self.settle <= 0:
            return waiting
        return waiting & (Delivery.received_at <= utcnow() - timedelta(seconds=self.settle))

    # -- arriving ---------------------------------------------------------------------------------------

    async def keep(self, updates: Sequence[Delivered]) -> set[int]:
        """Store updates in one transaction (one delivered twice is stored once); their chats."""
        if not updates:
            return set()
        now = utcnow()
        rows = [
            {
                "update_id": u.update_id,
                "chat_id": u.chat_id,
                "user_id": u.user_id,
                "payload": u.payload,
                "received_at": now,
                "attempts": 0,
                "kind": u.kind,
            }
            for u in updates
        ]
        statement = self._insert(Delivery).values(rows).on_conflict_do_nothing(index_elements=["update_id"])
        await self.db.write_now(lambda conn: conn.execute(statement))
        return {u.chat_id for u in updates}

    async def last_kept(self) -> int | None:
        """The highest update number stored (``getUpdates`` continues after it)."""
        rows = await self.db.small_rows(select(func.max(Delivery.update_id)))
        value = rows[0][0] if rows else None
        return int(value) if value is not None else None

    # -- which chats, whose turn ------------------------------------------------------------------------

    async def waiting_chats(self, limit: int) -> list[int]:
        """Chats with updates to handle that no live process holds, those waiting longest first."""
        now = self.clock()
        held = select(Claim.chat_id).where(Claim.until >= now, Claim.owner != self.owner)
        statement = (
            select(Delivery.chat_id)
            .where(self._ready(), Delivery.chat_id.not_in(held))
            .group_by(Delivery.chat_id)
            .order_by(func.min(Delivery.update_id))
            .limit(limit)
        )
        return [int(row[0]) for row in await self.db.small_rows(statement)]

    async def take(self, chat_id: int) -> Waiting | None:
        """Claim the chat for this process and begin its oldest waiting update, in one transaction; ``None``
        when another live process has the chat, or nothing waits (the claim is then let go at once)."""
        now = self.clock()
        insert = self._insert(Claim).values(chat_id=chat_id, owner=self.owner, until=now + self.claim_seconds)
        claim = insert.on_conflict_do_update(
            index_elements=["chat_id"],
            set_={"owner": insert.excluded.owner, "until": insert.excluded.until},
            where=(Claim.until < now) | (Claim.owner == self.owner),
        ).returning(Claim.owner)

        def take(conn: Connection) -> Waiting | None:
            if (conn.execute(claim)).first() is None:
                return None
            waiting = self._begin_next(conn, chat_id)
            if waiting is None:
                conn.execute(self._letting_go(chat_id))
            return waiting

        return await self.db.write_now(take)

    async def done(self, update_id: int, outcome: str, chat_id: int, *, more: bool = True) -> Waiting | None:
        """Mark the update handled (unless its change did) and begin the chat's next one, in one transaction;
        with none left (or ``more`` False: stopping), let the chat go in the same transaction, so an update
        stored meanwhile is either seen here or finds the chat free to claim."""

        def done(conn: Connection) -> Waiting | None:
            conn.execute(
                update(Delivery)
                .where(Delivery.update_id == update_id, Delivery.handled_at.is_(None))
                .values(handled_at=utcnow(), outcome=outcome)
            )
            if more:
                waiting = self._begin_next(conn, chat_id)
                if waiting is not None:
                    return waiting
            conn.execute(self._letting_go(chat_id))
            return None

        return await self.db.write_now(done)

    def _letting_go(self, chat_id: int) -> Any:
        return delete(Claim).where(Claim.chat_id == chat_id, Claim.owner == self.owner)

    def _insert(self, table: type[Delivery] | type[Claim]) -> Any:
        """An INSERT that can say what to do on a conflict (SQLite's and PostgreSQL's spellings)."""
        dialect = postgresql if self.db.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table)

    async def renew(self) -> None:
        """Keep this process's claims (called well within ``claim_seconds``)."""
        statement = update(Claim).where(Claim.owner == self.owner).values(until=self.clock() + self.claim_seconds)
        await self.db.write_now(lambda conn: conn.execute(statement))

    async def hold(self, chat_id: int) -> bool:
        """Whether the chat is still this process's, its claim renewed (after the database was away for a
        while, another process may have taken it over)."""
        statement = (
            update(Claim)
            .where(Claim.chat_id == chat_id, Claim.owner == self.owner)
            .values(until=self.clock() + self.claim_seconds)
        )
        return await self.db.write_now(lambda conn: int(getattr(conn.execute(statement), "rowcount", 0)) > 0)

    async def release_all(self) -> None:
        """On a clean stop: other processes may take this one's chats at once."""
        await self.db.write_now(lambda conn: conn.execute(delete(Claim).where(Claim.owner == self.owner)))

    # -- handling ---------------------------------------------------------------------------------------

    def _begin_next(self, conn: Connection, chat_id: int) -> Waiting | None:
        """The chat's oldest update still to handle, its start counted (an update that never finishes, as it
        kills the process each time, is given up after ``MOST_ATTEMPTS``)."""
        statement = (
            select(Delivery.update_id, Delivery.user_id, Delivery.payload, Delivery.attempts, Delivery.kind)
            .where(Delivery.chat_id == chat_id, self._ready())
            .order_by(Delivery.update_id)
            .limit(1)
        )
        row = (conn.execute(statement)).first()
        if row is None:
            return None
        update_id, user_id, payload, attempts, kind = tuple(row)
        conn.execute(update(Delivery).where(Delivery.update_id == update_id).values(attempts=Delivery.attempts + 1))
        return Waiting(int(update_id), user_id, dict(payload), int(attempts), str(kind))

    async def recent(self, waiting: Waiting, chat_id: int, seconds: float) -> tuple[int, bool]:
        """How many updates of its kind this update's sender sent to this chat in the last ``seconds``, up to
        this one, and whether one of them was already answered with "slow down"."""
        user_id, upto = waiting.user_id, waiting.update_id
        since = utcnow() - timedelta(seconds=seconds)
        statement = select(
            func.count(),
            func.coalesce(func.max(case((Delivery.outcome == "slowed", 1), else_=0)), 0),
        ).where(
            Delivery.chat_id == chat_id,
            Delivery.user_id == user_id,
            Delivery.received_at >= since,
            Delivery.update_id <= upto,
            Delivery.kind == waiting.kind,
        )
        rows = await self.db.small_rows(statement)
        count, told = tuple(rows[0]) if rows else (0, 0)
        return int(count), bool(told)

    async def skip_flood(self, waiting: Waiting, chat_id: int) -> int:
        """Skip, in one write, every update of its kind this update's sender sent to this chat that is still
        waiting (a flood's backlog); returns how many."""
        statement = (
            update(Delivery)
            .where(
                Delivery.chat_id == chat_id,
                Delivery.user_id == waiting.user_id,
                Delivery.kind == waiting.kind,
                Delivery.handled_at.is_(None),
            )
            .values(handled_at=utcnow(), outcome="skipped")
        )

        def skip(conn: Connection) -> int:
            return int(getattr(conn.execute(statement), "rowcount", 0))

        return await self.db.write_now(skip)

    async def forget(self) -> None:
        """Drop handled updates older than ``KEPT``, the flood limits' bookings long past, and questions asked
        with buttons that nobody answered in ``QUESTIONS_KEPT`` (their buttons then say they are stale)."""
        now = utcnow()
        statements = (
            delete(Delivery).where(Delivery.handled_at.is_not(None), Delivery.received_at < now - KEPT),
            delete(Pace).where(Pace.due < self.clock() - 3600),
            delete(AskedQuestion).where(AskedQuestion.created_at < now - QUESTIONS_KEPT),
        )

        def drop(conn: Connection) -> None:
            for statement in statements:
                conn.execute(statement)

        await self.db.write_now(drop)
