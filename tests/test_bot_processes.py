"""The solver processes fed from the event loop: answers and errors come back, queued calls wait, deaths are told."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.telegram.runtime.processes import SolverProcesses


def ready() -> None:
    """The processes' set-up (the bot's warms the solver and the pictures)."""


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture
async def two() -> AsyncIterator[SolverProcesses]:
    pool = SolverProcesses(2, multiprocessing.get_context("forkserver"), ready)
    yield pool
    await pool.close()


async def test_answers_and_errors_come_back_from_the_processes(two: SolverProcesses) -> None:
    assert await two.run(pow, 2, 10) == 1024
    with pytest.raises(ValueError, match="invalid literal"):
        await two.run(int, "twelve")
    assert await two.run(pow, 3, 3) == 27  # an error does not cost the process


async def test_more_calls_than_processes_wait_and_all_are_answered_by_both(two: SolverProcesses) -> None:
    pids = await asyncio.gather(*(two.run(pid_after, 0.05) for _ in range(6)))
    assert len(set(pids)) == 2 and os.getpid() not in pids


async def test_a_call_given_up_leaves_the_process_free_for_the_next() -> None:
    pool = SolverProcesses(1, multiprocessing.get_context("forkserver"), ready)
    try:
        slow = asyncio.create_task(pool.run(pid_after, 0.3))
        await asyncio.sleep(0.05)
        slow.cancel()
        queued = [asyncio.create_task(pool.run(pow, 2, n)) for n in range(4)]
        assert await asyncio.wait_for(asyncio.gather(*queued), 5) == [1, 2, 4, 8]
    finally:
        await pool.close()


async def test_a_process_that_dies_fails_its_call_and_the_waiting_ones() -> None:
    pool = SolverProcesses(1, multiprocessing.get_context("forkserver"), ready)
    try:
        dying = asyncio.create_task(pool.run(os._exit, 1))
        waiting = asyncio.create_task(pool.run(pow, 2, 2))
        for task in (dying, waiting):
            with pytest.raises(BrokenProcessPool):
                await asyncio.wait_for(task, 10)
        with pytest.raises(BrokenProcessPool):
            await pool.run(pow, 2, 2)  # the caller starts a new pool (see Deps.solving_position)
    finally:
        await pool.close()


async def test_closing_ends_every_process() -> None:
    pool = SolverProcesses(2, multiprocessing.get_context("forkserver"), ready)
    await asyncio.gather(pool.run(pow, 1, 1), pool.run(pow, 1, 1))
    await pool.close()
    assert pool.count == 2
    assert all(not w.process.is_alive() for w in pool._workers)


async def test_a_death_fails_the_other_processes_calls_and_their_late_answers_are_ignored() -> None:
    loop = asyncio.get_running_loop()
    troubles: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _, context: troubles.append(context))
    pool = SolverProcesses(2, multiprocessing.get_context("forkserver"), ready)
    try:
        await asyncio.gather(pool.run(pow, 1, 1), pool.run(pow, 1, 1))  # both processes have started
        busy = asyncio.create_task(pool.run(pid_after, 0.3))
        await asyncio.sleep(0.05)
        with pytest.raises(BrokenProcessPool):
            await asyncio.wait_for(pool.run(os._exit, 1), 10)
        with pytest.raises(BrokenProcessPool):
            await busy
        await asyncio.sleep(0.5)  # the busy process answers after all
        assert troubles == []
    finally:
        await pool.close()
        loop.set_exception_handler(None)


async def test_closing_fails_a_call_under_way_instead_of_leaving_it_waiting() -> None:
    pool = SolverProcesses(1, multiprocessing.get_context("forkserver"), ready)
    await pool.run(pow, 1, 1)
    busy = asyncio.create_task(pool.run(pid_after, 0.3))
    await asyncio.sleep(0.05)
    await pool.close()
    with pytest.raises(BrokenProcessPool):
        await asyncio.wait_for(busy, 1)
    assert not pool._workers[0].process.is_alive()
