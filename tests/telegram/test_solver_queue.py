"""The solver pool's queue: while it is busy, the smallest position goes in next, and nothing waits for long."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.runtime.solver_queue import MS_PER_TILE, SolverQueue


class _Queue:
    """A ``SolverQueue`` and the order in which its pieces of work (named by their tiles) started."""

    def __init__(self, slots: int) -> None:
        self.queue = SolverQueue(slots)
        self.order: list[int] = []

    def start(self, tiles: int, release: asyncio.Event | None = None) -> asyncio.Task[None]:
        """Work of ``tiles`` tiles that, once it has its slot, holds it until ``release`` (at once by default)."""
        if release is None:
            release = asyncio.Event()
            release.set()
        return asyncio.create_task(self._hold(tiles, release))

    async def busy(self, tiles: int) -> tuple[asyncio.Task[None], asyncio.Event]:
        """Work that has taken a slot and holds it until the event is set."""
        release = asyncio.Event()
        task = self.start(tiles, release)
        await _settle()
        return task, release

    async def starts_at_once(self) -> None:
        """No slot was lost: as many pieces of work as there are slots start without waiting."""
        hold = asyncio.Event()
        tasks = [self.start(1, hold) for _ in range(self.queue.slots)]
        await _settle()
        assert self.order[-self.queue.slots :] == [1] * self.queue.slots
        assert self.queue.waiting == 0
        hold.set()
        await asyncio.gather(*tasks)

    async def _hold(self, tiles: int, release: asyncio.Event) -> None:
        async with self.queue.slot(tiles):
            self.order.append(tiles)
            await release.wait()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_free_slots_are_taken_at_once_in_arrival_order() -> None:
    queue, release = _Queue(slots=3), asyncio.Event()
    tasks = [queue.start(tiles, release) for tiles in (90, 50, 10)]
    await _settle()
    assert queue.order == [90, 50, 10]
    assert queue.queue.waiting == 0
    release.set()
    await asyncio.gather(*tasks)


async def test_while_busy_the_smallest_waiting_position_goes_next() -> None:
    queue = _Queue(slots=1)
    busy, release = await queue.busy(100)
    waiting = [queue.start(tiles) for tiles in (110, 30, 75, 12, 30)]
    await _settle()
    assert queue.queue.waiting == 5
    release.set()
    await asyncio.gather(busy, *waiting)
    assert queue.order == [100, 12, 30, 30, 75, 110]  # equal sizes keep their arrival order


async def test_a_large_position_is_not_passed_by_smaller_ones_that_came_well_after_it() -> None:
    queue = _Queue(slots=1)
    busy, release = await queue.busy(10)
    large = queue.start(40)  # it stands for 40 * MS_PER_TILE ms of waiting
    await asyncio.sleep(40 * MS_PER_TILE / 1000 + 0.04)
    small = [queue.start(tiles) for tiles in (3, 5)]
    await _settle()
    release.set()
    await asyncio.gather(busy, large, *small)
    assert queue.order == [10, 40, 3, 5]


@pytest.mark.parametrize("handed_over", [False, True], ids=["while it waits", "just as its slot comes"])
async def test_a_wait_given_up_passes_its_turn_on(handed_over: bool) -> None:
    queue = _Queue(slots=1)
    busy, release = await queue.busy(50)
    gone, later = queue.start(5), queue.start(60)
    await _settle()
    if handed_over:
        release.set()
        await asyncio.sleep(0)  # the busy one leaves and hands its slot to the smallest waiting one ...
        gone.cancel()  # ... which gives up before it can run
    else:
        gone.cancel()
        await _settle()
        release.set()
    await asyncio.wait_for(asyncio.gather(busy, later), 1)
    assert queue.order == [50, 60]
    assert gone.cancelled()
    await queue.starts_at_once()
