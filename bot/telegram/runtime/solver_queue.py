"""Which answer the solver processes take next: while they are busy, the smallest position first.

When many chats ask at once (a burst), the answers queue for a few solver
processes. Taken in arrival order, a small position waits behind every large
one that came a moment earlier; taken smallest first, most answers come sooner
and the last no later, since the same work is done either way. A position's
tiles stand for its cost, counted in milliseconds of waiting: a large position
is passed only by smaller ones that came at most about its own solving time
after it, so nothing waits for long.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator

#: Milliseconds of work a tile of the position stands for. Measured on the shared positions: solving, planning
#: and drawing takes about 0.14 ms a tile in a solver process (the 20 largest, about 100 tiles on rack and
#: table, 13 ms on average; the 10 smallest, about 12 tiles, 1.5 ms).
MS_PER_TILE = 0.15


class SolverQueue:
    """At most ``slots`` pieces of work handed over at once; the others wait, cheapest by size and arrival first.

    ``slots`` is the number of solver processes plus one, so a process that
    finishes finds its next piece already queued and never waits for the event loop.
    """

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._busy = 0
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    @contextlib.asynccontextmanager
    async def slot(self, tiles: int) -> AsyncIterator[None]:
        """Wait for a slot (a position of ``tiles`` tiles; 0 for work that is only drawing), hold it inside."""
        await self._take(tiles)
        try:
            yield
        finally:
            self._release()

    @property
    def waiting(self) -> int:
        return sum(1 for *_, slot in self._waiting if not slot.done())

    async def _take(self, tiles: int) -> None:
        if self._busy < self.slots:  # then nobody is waiting: a freed slot goes to a waiting one first
            self._busy += 1
            return
        loop = asyncio.get_running_loop()
        slot: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (loop.time() * 1000 + tiles * MS_PER_TILE, next(self._arrivals), slot))
        try:
            await slot
        except asyncio.CancelledError:
            if slot.done() and not slot.cancelled():  # the slot was handed over just as the wait was given up
                self._release()
            raise

    def _release(self) -> None:
        """Hand the slot to the cheapest waiting piece of work (the slot stays busy), or free it."""
        while self._waiting:
            *_, slot = heapq.heappop(self._waiting)
            if not slot.done():  # a wait given up is skipped
                slot.set_result(None)
                return
        self._busy -= 1
