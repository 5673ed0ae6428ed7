"""The engine and sessions, with SQLite run the way a long-lived bot needs it.

SQLite gets, on every new connection: WAL (readers never wait for the writer),
foreign keys (off by default in SQLite), a busy timeout (a second writer waits
instead of failing at once) and ``synchronous=NORMAL`` (with WAL this never
corrupts and keeps every commit through a process crash; only a power cut may
drop the last commits). Write transactions start with ``BEGIN IMMEDIATE`` so
they take the write lock before reading: a deferred transaction that read and
then tried to write could fail with "database is locked" when another writer
got in between, which no timeout can fix.

A server that goes away (PostgreSQL restarting) is an ``outage``: every
read and write through ``Database`` tells it whether the database answered,
so it is logged once when it begins and once when it ends
(``bot.storage.outages``), and whoever waits for the database wakes when it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Executable, Row, event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from bot.storage.outages import Outage
from bot.storage.sqlite_thread import SqliteThread

T = TypeVar("T")

#: Execution option that marks an engine whose transactions write.
WRITES = "rummikub_writes"
BUSY_TIMEOUT_MS = 10_000
#: A SQLite file's async connections (its writes, and the ORM's reads for history and undo): a few, kept, and
#: waited for in turn. With SQLAlchemy's default (5, plus 10 made and thrown away again when more are busy)
#: 20 transactions at once all went ahead together and made new connections. Games are read apart, in the
#: SQLite thread (``bot.storage.sqlite_thread``).
SQLITE_POOL: dict[str, Any] = {"pool_size": 4, "max_overflow": 0}
#: asyncpg's errors that say the server is not there (yet, or any more), by name (a SQLite bot never imports
#: asyncpg): its connection errors, a server shutting down or starting up, one with no connection left.
ASYNCPG_AWAY = frozenset(
    {
        "PostgresConnectionError",
        "CannotConnectNowError",
        "AdminShutdownError",
        "CrashShutdownError",
        "TooManyConnectionsError",
    }
)

#: A network that does not reach the server (ECONNREFUSED and the like are ``ConnectionError``s already).
NETWORK_ERRNOS = frozenset({errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ENETDOWN, errno.EHOSTDOWN, errno.ETIMEDOUT})


def database_outage() -> Outage:
    return Outage(
        "the database",
        "updates wait with Telegram, unconfirmed, and every one is handled once it is back",
        "updates handled again",
    )


@dataclass(frozen=True, slots=True)
class Database:
    """An engine with one session factory for reading and one for writing."""

    engine: AsyncEngine
    reads: async_sessionmaker[AsyncSession]
    writes: async_sessionmaker[AsyncSession]
    #: a SQLite file's SQLite thread (``bot.storage.sqlite_thread``); other databases read through ``engine``
    sqlite_thread: SqliteThread | None = None
    #: whether the database answers, told by every read and write here (and by the handlers that meet it gone)
    outage: Outage = field(default_factory=database_outage, compare=False, repr=False)
    _writer: asyncio.Lock = field(default_factory=asyncio.Lock, compare=False, repr=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextlib.asynccontextmanager
    async def write_turn(self) -> AsyncIterator[None]:
        """Wait here for this process's turn to write (SQLite only: it has one writer at a time).

        Concurrent write transactions would otherwise meet SQLite's busy handler, which polls with
        sleeps of up to 100 ms. Other processes are still held off by ``BEGIN IMMEDIATE`` and the
        busy timeout.
        """
        if not self.is_sqlite:
            yield
            return
        async with self._writer:
            yield

    @contextlib.contextmanager
    def watched(self) -> Iterator[None]:
        """Around a request to the database: tell ``outage`` whether it answered."""
        try:
            yield
        except Exception as why:
            if is_unreachable(why):
                self.away(why)
            raise
        self.outage.answered()

    def away(self, why: BaseException) -> None:
        """The database could not be reached (``why``): an outage, said once. The driver's own error is told,
        not SQLAlchemy's around it (which carries the statement)."""
        inner = why.orig if isinstance(why, DBAPIError) else None
        self.outage.failed(inner if isinstance(inner, BaseException) else why)

    async def rows(self, statement: Executable, params: Mapping[str, object] | None = None) -> Sequence[Row[Any]]:
        """The rows of one read statement: in the SQLite thread for a SQLite file, else through the engine."""
        with self.watched():
            if self.sqlite_thread is not None:
                return await self.sqlite_thread.rows(statement, params)
            async with self.engine.connect() as conn:
                return (await conn.execute(statement, params)).all()

    async def write_now(self, work: Callable[[Connection], T]) -> T:
        """One short write transaction of Core statements (the inbox's bookkeeping). A SQLite file's runs
        on the event loop in this process's turn to write (``SqliteThread.write_here``), in the SQLite thread
        when another process holds the file; other databases' go through the engine."""
        with self.watched():
            if self.sqlite_thread is not None:
                async with self.write_turn():
                    try:
                        return self.sqlite_thread.write_here(work)
                    except OperationalError as why:
                        if not is_locked(why):
                            raise
                    return await self.sqlite_thread.write(work)  # the thread may wait out another process's lock
            async with self.engine.begin() as conn:
                return await conn.run_sync(work)

    async def small_rows(self, statement: Executable) -> Sequence[Row[Any]]:
        """The rows of a tiny read (the inbox's): on the event loop for a SQLite file, else ``rows``."""
        if self.sqlite_thread is not None:
            try:
                with self.watched():
                    return self.sqlite_thread.rows_here(statement)
            except OperationalError as why:
                if not is_locked(why):
                    raise
        return await self.rows(statement)  # the thread may wait out another process's lock

    async def dispose(self) -> None:
        if self.sqlite_thread is not None:
            await self.sqlite_thread.close()
        await self.engine.dispose()


def is_locked(error: OperationalError) -> bool:
    """Whether the database refused only because another connection holds it (SQLite's busy or locked)."""
    return "locked" in str(error) or "busy" in str(error)


def is_unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the database could not be reached (refused, dropped, restarting), rather than
    that it refused a statement: the same work goes through once the server is back.

    Looks through SQLAlchemy's wrapping (``orig``) and explicit causes, never an error's mere context (an
    error raised while handling a lost connection is not itself one).
    """
    seen: list[BaseException] = []
    pending = [error]
    while pending and len(seen) < 8:
        current = pending.pop()
        seen.append(current)
        if isinstance(current, DBAPIError) and current.connection_invalidated:
            return True
        if isinstance(current, ConnectionError | socket.gaierror):
            return True
        if isinstance(current, OSError) and (
            current.errno in NETWORK_ERRNOS or str(current).startswith("Multiple exceptions: ")
        ):  # asyncio's connect, when every address of the host failed
            return True
        if any(
            kind.__module__.startswith("asyncpg") and kind.__name__ in ASYNCPG_AWAY for kind in type(current).__mro__
        ):
            return True
        wrapped = current.orig if isinstance(current, DBAPIError) else None
        pending.extend(e for e in (wrapped, current.__cause__) if isinstance(e, BaseException) and e not in seen)
    return False


def open_database(url: str | URL, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, echo: bool = False) -> Database:
    """Connect (lazily) to ``url``; for a SQLite file, make its folder first."""
    engine = make_engine(url, busy_timeout_ms=busy_timeout_ms, echo=echo)
    writer = engine.execution_options(**{WRITES: True})
    file = make_url(url)
    return Database(
        engine=engine,
        reads=async_sessionmaker(engine, expire_on_commit=False),
        writes=async_sessionmaker(writer, expire_on_commit=False),
        sqlite_thread=SqliteThread(file, busy_timeout_ms=busy_timeout_ms) if _is_sqlite_file(file) else None,
    )


def make_engine(url: str | URL, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, echo: bool = False) -> AsyncEngine:
    url = make_url(url)
    pooling = SQLITE_POOL if _is_sqlite_file(url) else {}
    engine = create_async_engine(url, echo=echo, **pooling)
    if url.get_backend_name() == "sqlite":
        _make_folder(url)
        _tune_sqlite(engine, busy_timeout_ms)
    return engine


def _is_sqlite_file(url: URL) -> bool:
    return sqlite_file(url) is not None


def sqlite_file(url: URL) -> Path | None:
    """The file a SQLite URL points at (None for an in-memory database, or a database that is no SQLite file)."""
    name = url.database
    if url.get_backend_name() != "sqlite" or not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def _make_folder(url: URL) -> None:
    path = sqlite_file(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)


def _tune_sqlite(engine: AsyncEngine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        # The driver's own implicit BEGIN would be a deferred one; we issue ours in on_begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def on_begin(conn: Connection) -> None:
        writes = conn.get_execution_options().get(WRITES, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")
