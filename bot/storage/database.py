"""The engine and sessions, with SQLite run the way a long-lived bot needs it.

SQLite gets, on every new connection: WAL (readers never wait for the writer),
foreign keys (off by default in SQLite), a busy timeout (a second writer waits
instead of failing at once) and ``synchronous=NORMAL`` (with WAL this never
corrupts and keeps every commit through a process crash; only a power cut may
drop the last commits). Write transactions start with ``BEGIN IMMEDIATE`` so
they take the write lock before reading: a deferred transaction that read and
then tried to write could fail with "database is locked" when another writer
got in between, which no timeout can fix.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Executable, Row, event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from bot.storage.reader import Reader

T = TypeVar("T")

#: Execution option that marks an engine whose transactions write.
WRITES = "rummikub_writes"
BUSY_TIMEOUT_MS = 10_000
#: A SQLite file's async connections (its writes, and the ORM's reads for history and undo): a few, kept, and
#: waited for in turn. With SQLAlchemy's default (5, plus 10 made and thrown away again when more are busy)
#: 20 transactions at once all went ahead together and made new connections. Games are read apart, in the
#: reader thread (``bot.storage.reader``).
SQLITE_POOL: dict[str, Any] = {"pool_size": 4, "max_overflow": 0}


@dataclass(frozen=True, slots=True)
class Database:
    """An engine with one session factory for reading and one for writing."""

    engine: AsyncEngine
    reads: async_sessionmaker[AsyncSession]
    writes: async_sessionmaker[AsyncSession]
    #: a SQLite file's reader thread (``bot.storage.reader``); other databases read through ``engine``
    reader: Reader | None = None
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

    async def rows(self, statement: Executable, params: Mapping[str, object] | None = None) -> Sequence[Row[Any]]:
        """The rows of one read statement: in the reader thread for a SQLite file, else through the engine."""
        if self.reader is not None:
            return await self.reader.rows(statement, params)
        async with self.engine.connect() as conn:
            return (await conn.execute(statement, params)).all()

    async def write_now(self, work: Callable[[Connection], T]) -> T:
        """One short write transaction of Core statements (the inbox's bookkeeping). A SQLite file's runs
        on the event loop in this process's turn to write (``Reader.write_here``), in the reader thread
        when another process holds the file; other databases' go through the engine."""
        if self.reader is not None:
            async with self.write_turn():
                try:
                    return self.reader.write_here(work)
                except OperationalError as why:
                    if not is_locked(why):
                        raise
                return await self.reader.write(work)  # the thread may wait out another process's lock
        async with self.engine.begin() as conn:
            return await conn.run_sync(work)

    async def small_rows(self, statement: Executable) -> Sequence[Row[Any]]:
        """The rows of a tiny read (the inbox's): on the event loop for a SQLite file, else ``rows``."""
        if self.reader is not None:
            try:
                return self.reader.rows_here(statement)
            except OperationalError as why:
                if not is_locked(why):
                    raise
        return await self.rows(statement)  # the thread may wait out another process's lock

    async def dispose(self) -> None:
        if self.reader is not None:
            await self.reader.close()
        await self.engine.dispose()


def is_locked(error: OperationalError) -> bool:
    """Whether the database refused only because another connection holds it (SQLite's busy or locked)."""
    return "locked" in str(error) or "busy" in str(error)


def open_database(url: str | URL, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, echo: bool = False) -> Database:
    """Connect (lazily) to ``url``; for a SQLite file, make its folder first."""
    engine = make_engine(url, busy_timeout_ms=busy_timeout_ms, echo=echo)
    writer = engine.execution_options(**{WRITES: True})
    file = make_url(url)
    return Database(
        engine=engine,
        reads=async_sessionmaker(engine, expire_on_commit=False),
        writes=async_sessionmaker(writer, expire_on_commit=False),
        reader=Reader(file, busy_timeout_ms=busy_timeout_ms) if _is_sqlite_file(file) else None,
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
    return url.get_backend_name() == "sqlite" and sqlite_file(url) is not None


def sqlite_file(url: URL) -> Path | None:
    """The file a SQLite URL points at (None for an in-memory database)."""
    name = url.database
    if not name or name == ":memory:" or name.startswith("file:"):
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
