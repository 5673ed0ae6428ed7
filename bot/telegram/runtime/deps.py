"""What every handler needs (the game service, the settings, the worker pool), kept in ``bot_data``.

A handler reaches it one way: ``context.deps`` and ``context.service``, properties of the custom context
(``bot.telegram.context.BotContext``, as python-telegram-bot's ``contexttypesbot.py`` example does).

One object instead of globals, so a test can build two applications on two
databases in one process.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from bot.settings import Settings
from bot.storage import Database, GameService
from bot.telegram.runtime.link import Link
from bot.telegram.runtime.solver_queue import SolverQueue
from bot.telegram.words.texts import TOO_LARGE
from solver.errors import RummikubError

KEY = "rummikub"
log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


@dataclass
class Deps:
    """The bot's shared state; one per application.

    ``pool`` (threads) runs any CPU work off the event loop. ``solver_pool``
    runs the solve-plan-draw of an answer; it is a process pool in
    production: those steps are mostly Python holding the GIL, and in
    threads they slowed the event loop itself (every socket call waits for
    the GIL), while in processes they run on every core. Only work whose
    arguments, results and errors pickle goes there.
    """

    settings: Settings
    db: Database
    service: GameService
    pool: Executor
    solver_pool: Executor | None = None
    new_solver_pool: Callable[[], Executor] | None = None
    solver_count: int = 0
    solver_queue: SolverQueue = field(default_factory=lambda: SolverQueue(slots=3))
    #: Telegram as this process reaches it (outages, a refused token)
    telegram: Link = field(default_factory=Link)

    async def off_loop(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run CPU work (SCIP, Pillow, the puzzle search) in the thread pool, never on the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(work, *args, **kwargs))

    async def solving(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run small work in the solver pool (a plan and a picture, the greeting's example): it counts as the
        smallest position in the queue (see ``solving_position``)."""
        return await self.solving_position(0, work, *args, **kwargs)

    async def solving_position(self, tiles: int, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a solve-plan-draw of a position (``tiles`` on rack and table) in the solver pool.

        The thread pool stands in when there is none. While the pool is busy, waiting work goes in
        smallest first (``SolverQueue``). A solver process that dies (a crash in native code) breaks the
        whole pool; the pool is then replaced and the work tried once more, so one bad moment does not
        stop every later answer. Work that outgrows a solver process's memory cap is answered as too
        large (``TooLarge``).
        """
        loop = asyncio.get_running_loop()
        call = functools.partial(work, *args, **kwargs)
        async with self.solver_queue.slot(tiles):
            try:
                return await self._run(loop, call)
            except MemoryError:
                raise TooLarge(TOO_LARGE, limit=self.settings.solver_memory_limit) from None

    async def _run(self, loop: asyncio.AbstractEventLoop, call: Callable[[], T]) -> T:
        pool = self.solver_pool
        if pool is None:
            return await loop.run_in_executor(self.pool, call)
        try:
            return await loop.run_in_executor(pool, call)
        except BrokenExecutor:
            if self.new_solver_pool is None:
                raise
            log.error("the solver pool broke; starting a new one")
            replacement = self.solver_pool
            if replacement is pool:  # the first answer to notice replaces it; the others just retry
                replacement = self.solver_pool = self.new_solver_pool()
                pool.shutdown(wait=False, cancel_futures=True)
            assert replacement is not None, "a pool is only replaced, never dropped"
            return await loop.run_in_executor(replacement, call)

    async def close(self) -> None:
        """Stop taking work; let the solver processes finish what they hold and leave."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.solver_pool is not None:
            await asyncio.to_thread(self.solver_pool.shutdown, wait=True, cancel_futures=True)
        await self.db.dispose()


class TooLarge(RummikubError):
    """A solve that outgrew a solver process's memory cap: answered with the limit, not a traceback."""
