"""One asyncio lock per game, made on demand and dropped when nobody holds it.

Writers of the same game queue here instead of fighting over the database
(and retrying), while writers of different games never share a lock.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        async with lock:
            yield

    def __len__(self) -> int:
        return len(self._locks)
