"""The change runner every part of ``GameService`` stands on: one transaction per change, the game's locks, the
rows a change reads and the event it records.

Every change runs as one transaction that either records a new state and its event or, raising a
``GameError``, changes nothing. Concurrency: changes to one game queue on that game's asyncio lock (so this
process never races itself), then take the database's lock on the game row (``BEGIN IMMEDIATE`` on SQLite,
``SELECT ... FOR UPDATE`` on PostgreSQL, so other processes cannot race us either), and the row's version
column turns any update that slipped through anyway into a retry instead of a lost write. Different games use
different locks and rows and never wait for each other beyond SQLite's single short write at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, delete, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.exc import StaleDataError

from bot.game import errors, invariants
from bot.game import history as changes
from bot.game.state import (
    EventKind,
    GameState,
    GameStatus,
)
from bot.storage import inbox, queries
from bot.storage.database import Database, is_locked
from bot.storage.locks import KeyedLocks
from bot.storage.mapping import state_of, write
from bot.storage.models import AskedQuestion, Event, Game, utcnow
from solver.text import N_

T = TypeVar("T")

Step = Callable[[GameState], tuple[GameState, dict[str, Any]]]
RUNNING = GameStatus.RUNNING.value


@dataclass
class ChangeRunner:
    """The database, the clock and the locks, and the steps that run a change; the parts of ``GameService``
    (``bot.storage.service``) are made of these."""

    db: Database
    clock: Callable[[], datetime] = utcnow
    retries: int = 5
    _locks: KeyedLocks = field(default_factory=KeyedLocks, init=False, repr=False)

    async def _games(self, statement: Select[Any], **params: object) -> list[GameState]:
        return queries.states_of(await self.db.rows(statement, params))

    async def _change(
        self, game_id: int, user_id: int, kind: EventKind, step: Step, *, answering: str | None = None
    ) -> tuple[GameState, GameState]:
        """Run ``step`` on the game under its lock, in one transaction; record the event."""
        return await self._changes(game_id, user_id, lambda state: [(kind, step)], answering=answering)

    async def _changes(
        self,
        game_id: int,
        user_id: int,
        steps: Callable[[GameState], list[tuple[EventKind, Step]]],
        *,
        answering: str | None = None,
    ) -> tuple[GameState, GameState]:
        """Run the steps ``steps`` picks for the game as it is now, in order, under its lock, in one
        transaction; each records its event. Returns the state before the first and after the last.
        ``answering``: the question (``ask``) this change answers; it goes in the same transaction, so a
        question is answered once, whichever process or tap comes first."""

        async def run(session: AsyncSession) -> tuple[GameState, GameState]:
            if answering is not None:
                await self._take_question(session, answering)
            row = await self._row(session, game_id, lock=True)
            before = after = state_of(row)
            now = self.clock()
            for kind, step in steps(before):
                _, after = await self._apply(session, row, user_id, kind, step, now)
            return before, after

        async with self._locks.hold(game_id):
            return await self._transaction(run)

    async def _apply(
        self, session: AsyncSession, row: Game, user_id: int | None, kind: EventKind, step: Step, now: datetime
    ) -> tuple[GameState, GameState]:
        before = state_of(row)
        after, detail = step(before)
        invariants.check(after)  # a change that would leave the record untrue is refused, never stored
        old, new = changes.snapshot(before), changes.snapshot(after)
        change = changes.diff(old, new)
        if not change:
            return before, before
        write(row, new, now)
        session.add(self._event(row.id, kind, user_id, now, detail, change))
        return before, state_of(row)  # flushed with the transaction's other steps, in one go

    @staticmethod
    def _event(
        game_id: int,
        kind: EventKind,
        user_id: int | None,
        now: datetime,
        detail: dict[str, Any],
        diff: changes.Diff | None = None,
        *,
        undoes: int | None = None,
    ) -> Event:
        return Event(
            game_id=game_id, kind=kind.value, user_id=user_id, at=now, detail=detail, diff=diff or {}, undoes_id=undoes
        )

    async def _transaction(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``work`` in a write transaction; start again if another writer got in first.

        A database still locked after the busy timeout is not retried here: the
        timeout already waited, and a chat should hear back rather than hang. The
        update being handled (``bot.storage.inbox``) is marked handled in the same
        transaction, so a crash can neither lose the change nor let it happen twice.
        """
        for attempt in range(self.retries):
            try:
                async with self.db.write_turn(), self.db.writes() as session, session.begin():
                    recorded = await inbox.mark(session, self.clock())
                    done = await work(session)
                if recorded is not None:  # committed: the update's later changes (if any) belong to it too
                    recorded.marked = True
                return done
            except StaleDataError:
                await asyncio.sleep(0.005 * 2**attempt)
            except OperationalError as why:
                if is_locked(why):
                    raise errors.Busy(N_("the game is busy; try again in a moment")) from why
                raise
        raise errors.Busy(N_("the game kept changing while we tried to change it; try again in a moment"))

    @staticmethod
    async def _row(session: AsyncSession, game_id: int, *, lock: bool = False) -> Game:
        if lock:
            await _lock(session, select(Game.id).where(Game.id == game_id))
        query = select(Game).where(Game.id == game_id).options(joinedload(Game.players))
        row = (await session.scalars(query)).unique().one_or_none()
        if row is None:
            raise errors.NoGame(N_("there is no game {game_id}"), game_id=game_id)
        return row

    @staticmethod
    async def _running_row(session: AsyncSession, chat_id: int, *, lock: bool = False) -> Game | None:
        running = [Game.chat_id == chat_id, Game.status == RUNNING]
        if lock:
            locked = await _lock(session, select(Game.id).where(*running))
            if locked is None:
                return None
            running = [Game.id == locked]
        query = select(Game).where(*running).options(joinedload(Game.players))
        return (await session.scalars(query)).unique().one_or_none()

    @staticmethod
    async def _undone_ids(session: AsyncSession, game_id: int) -> set[int]:
        query = select(Event.undoes_id).where(Event.game_id == game_id, Event.undoes_id.is_not(None))
        return {i for i in (await session.scalars(query)).all() if i is not None}

    @staticmethod
    async def _take_question(session: AsyncSession, token: str) -> None:
        gone = await session.execute(delete(AskedQuestion).where(AskedQuestion.token == token))
        if getattr(gone, "rowcount", 0) != 1:
            raise errors.AlreadyAnswered(N_("this question was already answered"))


async def _lock(session: AsyncSession, game_ids: Select[int]) -> int | None:
    """Take the database's lock on a game row (``game_ids`` selects at most one), before its rows are read.

    Its own statement, so the read after it starts after the lock is held: on PostgreSQL (READ COMMITTED) a
    statement that waited for the lock sees the game's row as the other writer committed it, but the rows it
    joins (the players) as they were when it began, and writing those back would undo the other's change.
    """
    return (await session.scalars(game_ids.with_for_update())).one_or_none()
