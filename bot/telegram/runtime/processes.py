"""The solver processes: the standard library's process pool, started by a fork server and renewed regularly.

A process is started by a fork server (never a fork of the bot's threaded
process), warms up once (``work.worker_start``) and caps its own address space,
so a runaway solve fails with ``MemoryError`` in that process instead of
taking the machine's memory. After ``TASKS_PER_PROCESS`` answers a process
leaves and a fresh one takes its place, giving back whatever its caches and
the allocator kept. A process that dies breaks the pool (``BrokenProcessPool``);
``Deps`` then starts another.

Python 3.11 and 3.12 can stall a pool that renews processes when many calls
are queued at once (CPython gh-115634, fixed in 3.13.x); ``SolverQueue`` hands the
pool at most one call more than it has processes, which stays clear of it
(tests/telegram/test_processes.py).
"""

from __future__ import annotations

import functools
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from bot.telegram.runtime.work import worker_start

#: Answers a solver process gives before a fresh one replaces it. Starting and warming a process costs
#: about 0.4 s of CPU, under 1 ms an answer at this count.
TASKS_PER_PROCESS = 500


def solver_processes(count: int, memory_mib: int, *, tasks_per_process: int = TASKS_PER_PROCESS) -> ProcessPoolExecutor:
    """``count`` processes, each capped at ``memory_mib`` MiB of address space (0: no cap)."""
    return ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=functools.partial(worker_start, memory_mib),
        max_tasks_per_child=tasks_per_process,
    )
