"""A SQLite file's statements in one thread of their own (reads, and writes when the file is locked),
straight through the standard library's driver.

Every message starts with a read of its game. Through the async engine, a
statement crosses to aiosqlite's thread and back several times (cursor,
execute, fetch, close), each crossing a wake-up of the event loop and a turn
of the GIL: 1.6 ms of CPU for one read of a game. Here the whole statement
runs in one call in the SQLite thread: 0.3 ms (BENCHMARKS.md, Bot). One
thread also means reads finish in the order they came, so when 20 chats ask
at once the first answer can start after the first read, not after all of
them. Reads never wait for a write: WAL, and a connection of their own.

The bookkeeping of delivered updates (``bot.storage.inbox``) is a few tiny
statements per update, whose SQL takes microseconds: those run right on the
event loop (``here``), on a connection of their own, because each hop to a
thread costs up to the interpreter's switch interval (5 ms) while the loop is
busy. When the file is locked by another process, they go to the thread
(``write``), which may wait for the busy timeout without stopping the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Executable, Row, create_engine, event
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import ConnectionPoolEntry

T = TypeVar("T")


class SqliteThread:
    """Runs statements on a SQLite file in one thread, one at a time, in the order they come."""

    def __init__(self, url: URL, *, busy_timeout_ms: int) -> None:
        self._engine = _engine(url, busy_timeout_ms)
        self._here = _engine(url, HERE_BUSY_MS)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-thread")

    async def rows(self, statement: Executable, params: Mapping[str, object] | None = None) -> Sequence[Row[Any]]:
        """The rows of one statement (it runs in its own read transaction, a consistent snapshot)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._rows, statement, params)

    def _rows(self, statement: Executable, params: Mapping[str, object] | None) -> Sequence[Row[Any]]:
        with self._engine.connect() as conn:
            return conn.execute(statement, params).all()

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one write transaction (``BEGIN IMMEDIATE``: the write lock first), in this thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._write, work)

    def write_here(self, work: Callable[[Connection], T]) -> T:
        """``write`` on the caller's thread; ``OperationalError`` if the file stays locked ``HERE_BUSY_MS``."""
        return self._write(work, self._here)

    def rows_here(self, statement: Executable) -> Sequence[Row[Any]]:
        """A tiny read on the caller's thread."""
        with self._here.connect() as conn:
            return conn.execute(statement).all()

    def _write(self, work: Callable[[Connection], T], engine: Engine | None = None) -> T:
        with (engine or self._engine).connect() as conn:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                done = work(conn)
            except BaseException:
                conn.exec_driver_sql("ROLLBACK")
                raise
            conn.exec_driver_sql("COMMIT")
            return done

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._engine.dispose)
        self._thread.shutdown(wait=True)
        self._here.dispose()


#: How long a statement on the event loop waits for another process's lock before going to the thread.
HERE_BUSY_MS = 20


def _engine(url: URL, busy_timeout_ms: int) -> Engine:
    engine = create_engine(
        url.set(drivername="sqlite+pysqlite"),
        pool_size=1,
        max_overflow=0,
        # used in one thread, but one left open may be closed elsewhere (at exit, by the collector)
        connect_args={"check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # transactions are ours: BEGIN IMMEDIATE in ``write``
        dbapi_connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        dbapi_connection.execute("PRAGMA foreign_keys = ON")
        dbapi_connection.execute("PRAGMA synchronous = NORMAL")

    return engine
