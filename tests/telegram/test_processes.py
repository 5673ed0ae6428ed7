"""The solver processes as the bot uses them (``Deps`` over ``runtime.processes``): answers come back from
another process, processes are renewed without losing a call, a crash costs one pool, not the answers, a
solve that outgrows the memory cap is answered as too large while the process lives on, and the processes leave
when the bot is killed outright."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.settings import Settings
from bot.storage import GameService, open_database
from bot.telegram.runtime.deps import Deps, TooLarge
from bot.telegram.runtime.processes import LOOK_EVERY, gone, solver_processes
from bot.telegram.runtime.solver_queue import SolverQueue
from solver import STANDARD, parse_tiles
from solver.solve import solve

MIB = 1024 * 1024
CAP_MIB = 600


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def crash_once(flag: Path) -> str:
    """A crash in native code, the first time only (the file says it happened)."""
    if not flag.exists():
        flag.touch()
        os._exit(1)
    return "answered"


def allocate(mib: int) -> int:
    """Work that needs ``mib`` MiB at once, as a runaway model would."""
    return len(bytearray(mib * MIB))


@asynccontextmanager
async def solver_deps(
    folder: Path, count: int, *, tasks_per_process: int = 500, memory_mib: int = CAP_MIB
) -> AsyncIterator[Deps]:
    """The bot's shared state with ``count`` real solver processes (warmed, capped) as ``build_application``
    makes them, and a database nothing here reads."""
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token=SecretStr("1:x"),
        solver_memory_limit=memory_mib,
    )
    db = open_database(f"sqlite+aiosqlite:///{folder / 'unused.sqlite3'}")

    def start() -> Executor:
        return solver_processes(count, memory_mib, tasks_per_process=tasks_per_process)

    deps = Deps(
        settings=settings,
        db=db,
        service=GameService(db),
        pool=ThreadPoolExecutor(2),
        solver_pool=start(),
        new_solver_pool=start,
        solver_count=count,
        solver_queue=SolverQueue(slots=count + 1),  # as build_application sets it
    )
    try:
        yield deps
    finally:
        await deps.close()


def position_solve() -> int:
    """A real solve in the process: the rack 10R-13R is one run of 4 tiles."""
    return len(solve(parse_tiles("10R 11R 12R 13R", STANDARD), [], STANDARD).placed)


async def test_a_solve_runs_in_another_process_and_its_errors_come_back(tmp_path: Path) -> None:
    async with solver_deps(tmp_path, 1) as deps:
        assert await deps.solving(position_solve) == 4
        assert await deps.solving(os.getpid) != os.getpid()
        with pytest.raises(ValueError, match="invalid literal"):
            await deps.solving(int, "twelve")
        assert await deps.solving(pow, 3, 3) == 27  # an error does not cost the process


async def test_processes_are_renewed_without_losing_a_call_in_a_burst(tmp_path: Path) -> None:
    # a burst queues more work than there are processes while they leave and are replaced
    # (Python 3.11's pool can stall on that, CPython gh-115634; SolverQueue keeps the queue short enough)
    async with solver_deps(tmp_path, 2, tasks_per_process=3) as deps:
        calls = [deps.solving_position(n % 7, pid_after, 0.01) for n in range(18)]
        pids = await asyncio.wait_for(asyncio.gather(*calls), 120)
    assert len(set(pids)) >= 6  # 18 calls, at most 3 each


async def test_a_crashed_process_is_replaced_and_the_calls_under_way_are_answered(tmp_path: Path) -> None:
    async with solver_deps(tmp_path, 2) as deps:
        first = deps.solver_pool
        busy = asyncio.create_task(deps.solving(pid_after, 0.5))
        await asyncio.sleep(0.1)
        assert await deps.solving(crash_once, tmp_path / "crashed") == "answered"  # tried again in a new pool
        assert await busy != os.getpid()  # the call under way in the other process was answered too
        assert deps.solver_pool is not first
        assert await deps.solving(position_solve) == 4


async def test_work_over_the_memory_cap_is_answered_as_too_large_and_the_process_lives_on(tmp_path: Path) -> None:
    async with solver_deps(tmp_path, 1) as deps:
        pool, pid = deps.solver_pool, await deps.solving(os.getpid)
        with pytest.raises(TooLarge, match=f"{CAP_MIB} MiB"):
            await deps.solving(allocate, 2 * CAP_MIB)
        assert await deps.solving(allocate, 64) == 64 * MIB  # what fits is still done
        assert deps.solver_pool is pool and await deps.solving(os.getpid) == pid
        assert await deps.solving(position_solve) == 4


async def test_without_a_cap_the_same_work_is_done(tmp_path: Path) -> None:
    async with solver_deps(tmp_path, 1, memory_mib=0) as deps:
        assert await deps.solving(allocate, 2 * CAP_MIB) == 2 * CAP_MIB * MIB


@pytest.mark.parametrize("mib", [1, 100, 511, -5])
def test_a_cap_too_small_to_start_a_process_is_refused(mib: int) -> None:
    with pytest.raises(ValueError, match="at least 512"):
        Settings(_env_file=None, solver_memory_limit=mib)  # type: ignore[call-arg]


def test_a_process_is_gone_once_it_ends_even_before_its_status_is_read() -> None:
    assert not gone(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while not gone(child.pid):  # ended, not waited for: a zombie, and gone already
        assert time.monotonic() < deadline, "the child never ended"
        time.sleep(0.05)
    assert os.waitpid(child.pid, os.WNOHANG)[0] == child.pid  # (it was a zombie till now)
    child.returncode = 0
    assert gone(child.pid)


#: A stand-in for the bot: a process that starts the solver processes, prints a solver process's pid, and waits.
BOT = """
import os, sys, time
from bot.telegram.runtime.processes import solver_processes
pool = solver_processes(1, 0)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(600)
"""


def test_the_solver_processes_and_their_fork_server_leave_when_the_bot_is_killed_outright() -> None:
    """SIGKILL (or the kernel out of memory) gives the bot no time to stop its pool; the processes see it gone
    within a second or two and leave, and so does the fork server that started them (they were staying for
    good, a solver's memory each)."""
    bot = subprocess.Popen([sys.executable, "-c", BOT], stdout=subprocess.PIPE)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        with open(f"/proc/{worker}/stat", "rb") as stat:
            server = int(stat.read().rsplit(b")", 1)[1].split()[1])  # the worker's parent: the fork server
        assert server != bot.pid and not gone(worker) and not gone(server)
        time.sleep(2 * LOOK_EVERY)
        assert not gone(worker), "a solver process leaves while the bot is there"
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait(30)
    deadline = time.monotonic() + 10 * LOOK_EVERY + 5
    while not (gone(worker) and gone(server)):
        assert time.monotonic() < deadline, "the solver process or its fork server stayed after the bot"
        time.sleep(0.1)
