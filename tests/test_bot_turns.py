"""The solver pool's queue: while it is busy, the smallest position goes in next, and nothing waits for long."""

from __future__ import annotations

import asyncio

from bot.telegram.turns import MS_PER_TILE, Turns


async def _hold(turns: Turns, tiles: int, order: list[int], release: asyncio.Event) -> None:
    async with turns.turn(tiles):
        order.append(tiles)
        await release.wait()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_free_slots_are_taken_at_once_in_arrival_order() -> None:
    turns, release = Turns(slots=3), asyncio.Event()
    order: list[int] = []
    tasks = [asyncio.create_task(_hold(turns, tiles, order, release)) for tiles in (90, 50, 10)]
    await _settle()
    assert order == [90, 50, 10]
    assert turns.waiting == 0
    release.set()
    await asyncio.gather(*tasks)


async def test_while_busy_the_smallest_waiting_position_goes_next() -> None:
    turns = Turns(slots=1)
    order: list[int] = []
    first = asyncio.Event()
    busy = asyncio.create_task(_hold(turns, 100, order, first))
    await _settle()
    done = asyncio.Event()
    done.set()
    waiting = [asyncio.create_task(_hold(turns, tiles, order, done)) for tiles in (110, 30, 75, 12, 30)]
    await _settle()
    assert turns.waiting == 5
    first.set()
    await asyncio.gather(busy, *waiting)
    assert order == [100, 12, 30, 30, 75, 110]  # equal sizes keep their arrival order


async def test_a_large_position_is_not_passed_by_smaller_ones_that_came_well_after_it() -> None:
    turns = Turns(slots=1)
    order: list[int] = []
    first, done = asyncio.Event(), asyncio.Event()
    done.set()
    busy = asyncio.create_task(_hold(turns, 10, order, first))
    await _settle()
    large = asyncio.create_task(_hold(turns, 40, order, done))  # it stands for 40 * MS_PER_TILE ms of waiting
    await asyncio.sleep(40 * MS_PER_TILE / 1000 + 0.04)
    small = [asyncio.create_task(_hold(turns, tiles, order, done)) for tiles in (3, 5)]
    await _settle()
    first.set()
    await asyncio.gather(busy, large, *small)
    assert order == [10, 40, 3, 5]


async def test_a_wait_given_up_passes_its_turn_on() -> None:
    turns = Turns(slots=1)
    order: list[int] = []
    first, done = asyncio.Event(), asyncio.Event()
    done.set()
    busy = asyncio.create_task(_hold(turns, 50, order, first))
    await _settle()
    gone = asyncio.create_task(_hold(turns, 5, order, done))
    later = asyncio.create_task(_hold(turns, 60, order, done))
    await _settle()
    gone.cancel()
    await _settle()
    first.set()
    await asyncio.wait_for(asyncio.gather(busy, later), 1)
    assert order == [50, 60]
    assert gone.cancelled()
    await _starts_at_once(turns, order)


async def test_a_turn_handed_over_just_as_its_wait_is_given_up_is_passed_on() -> None:
    turns = Turns(slots=1)
    order: list[int] = []
    first, done = asyncio.Event(), asyncio.Event()
    done.set()
    busy = asyncio.create_task(_hold(turns, 50, order, first))
    await _settle()
    unlucky = asyncio.create_task(_hold(turns, 5, order, done))
    after = asyncio.create_task(_hold(turns, 60, order, done))
    await _settle()
    first.set()
    await asyncio.sleep(0)  # the busy one leaves and hands its slot to the smallest waiting one ...
    unlucky.cancel()  # ... which gives up before it can run
    await asyncio.wait_for(asyncio.gather(busy, after), 1)
    assert order == [50, 60]
    assert unlucky.cancelled()
    await _starts_at_once(turns, order)


async def _starts_at_once(turns: Turns, order: list[int]) -> None:
    """No slot was lost: as many pieces of work as there are slots start without waiting."""
    hold = asyncio.Event()
    tasks = [asyncio.create_task(_hold(turns, 1, order, hold)) for _ in range(turns.slots)]
    await _settle()
    assert order[-turns.slots :] == [1] * turns.slots
    assert turns.waiting == 0
    hold.set()
    await asyncio.gather(*tasks)
