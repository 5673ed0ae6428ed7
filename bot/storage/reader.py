"""Reads of a SQLite file in one thread of their own, straight through the standard library's driver.

Every message starts with a read of its game. Through the async engine, a
statement crosses to aiosqlite's thread and back several times (cursor,
execute, fetch, close), each crossing a wake-up of the event loop and a turn
of the GIL: 1.6 ms of CPU for one read of a game. Here the whole statement
runs in one call in the reader thread: 0.3 ms (BENCHMARKS.md, Bot). One
thread also means reads finish in the order they came, so when 20 chats ask
at once the first answer can start after the first read, not after all of
them. Reads never wait for a write: WAL, and a connection of their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Executable, Row, create_engine, event
from sqlalchemy.engine import URL
from sqlalchemy.pool import ConnectionPoolEntry


class Reader:
    """Runs read statements on a SQLite file, one at a time, in the order they come."""

    def __init__(self, url: URL, *, busy_timeout_ms: int) -> None:
        self._engine = create_engine(
            url.set(drivername="sqlite+pysqlite"),
            pool_size=1,
            max_overflow=0,
            # used only in the reader thread, but one left open may be closed elsewhere (at exit, by the collector)
            connect_args={"check_same_thread": False},
        )
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-reader")

        @event.listens_for(self._engine, "connect")
        def on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
            dbapi_connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")

    async def rows(self, statement: Executable, params: Mapping[str, object] | None = None) -> Sequence[Row[Any]]:
        """The rows of one statement (it runs in its own read transaction, a consistent snapshot)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._rows, statement, params)

    def _rows(self, statement: Executable, params: Mapping[str, object] | None) -> Sequence[Row[Any]]:
        with self._engine.connect() as conn:
            return conn.execute(statement, params).all()

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._engine.dispose)
        self._thread.shutdown(wait=True)
