"""The solver processes: the standard library's process pool, started by a fork server and renewed regularly.

A process is started by a fork server (never a fork of the bot's threaded
process), warms up once (``work.worker_start``) and caps its own address space,
so a runaway solve fails with ``MemoryError`` in that process instead of
taking the machine's memory. After ``TASKS_PER_PROCESS`` answers a process
leaves and a fresh one takes its place, giving back whatever its caches and
the allocator kept. A process that dies breaks the pool (``BrokenProcessPool``);
``Deps`` then starts another. A process leaves by itself soon after the bot
is gone (``leave_with``): killed outright, the bot tells it nothing.

Python 3.11 and 3.12 can stall a pool that renews processes when many calls
are queued at once (CPython gh-115634, fixed in 3.13.x); ``SolverQueue`` hands the
pool at most one call more than it has processes, which stays clear of it
(tests/telegram/test_processes.py).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from bot.telegram.runtime.work import worker_start

#: Answers a solver process gives before a fresh one replaces it. Starting and warming a process costs
#: about 0.4 s of CPU, under 1 ms an answer at this count.
TASKS_PER_PROCESS = 500
#: How often a solver process looks whether the bot is still there, in seconds.
LOOK_EVERY = 1.0


def solver_processes(count: int, memory_mib: int, *, tasks_per_process: int = TASKS_PER_PROCESS) -> ProcessPoolExecutor:
    """``count`` processes, each capped at ``memory_mib`` MiB of address space (0: no cap)."""
    return ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=functools.partial(_process_start, memory_mib, os.getpid()),
        max_tasks_per_child=tasks_per_process,
    )


def _process_start(memory_mib: int, bot: int) -> None:
    """A solver process: it leaves once process ``bot`` is gone, and starts as ``work.worker_start`` says."""
    leave_with(bot)
    worker_start(memory_mib)


def leave_with(pid: int, every: float = LOOK_EVERY) -> threading.Thread:
    """End this process within ``every`` seconds of process ``pid`` (the bot) ending, by a thread that looks.

    A pool's processes wait for work on a pipe whose writing end each of them holds too, and so does the fork
    server that started them for its own pipe: when the bot is killed outright (SIGKILL, or the kernel out of
    memory), nothing reaches end of file, and they would stay for good, a solver's memory each. (A clean stop
    shuts the pool down as before.)"""
    watcher = threading.Thread(target=_watch, args=(pid, every), name="leave-with-bot", daemon=True)
    watcher.start()
    return watcher


def _watch(pid: int, every: float) -> None:
    while not gone(pid):
        time.sleep(every)
    os._exit(0)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended: it does not exist, or it is a zombie (ended, its status not yet read)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # (someone else's process: it exists)
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):  # (no /proc here: it exists)
        return False
