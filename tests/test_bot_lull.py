"""Stores wait for a lull in the answers, but never for long."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.runtime.lull import Lull


async def test_a_store_goes_ahead_when_no_answer_is_under_way() -> None:
    lull = Lull(patience=5.0)
    await asyncio.wait_for(lull.wait(), 0.5)


async def test_a_store_waits_until_the_last_answer_is_out() -> None:
    lull = Lull(patience=5.0)
    order: list[str] = []

    async def answer(name: str, seconds: float) -> None:
        with lull.answer():
            await asyncio.sleep(seconds)
            order.append(name)

    async def store() -> None:
        await lull.wait()
        order.append("store")

    await asyncio.gather(answer("first", 0.05), store(), answer("second", 0.1))
    assert order == ["first", "second", "store"]
    assert lull.answering == 0


async def test_an_answer_that_fails_still_ends() -> None:
    lull = Lull(patience=5.0)

    async def failing() -> None:
        with lull.answer():
            raise ValueError("bad table")

    with pytest.raises(ValueError):
        await failing()
    assert lull.answering == 0
    await asyncio.wait_for(lull.wait(), 0.5)


async def test_a_store_is_not_put_off_for_longer_than_its_patience() -> None:
    lull = Lull(patience=0.1)
    with lull.answer():  # answers that never stop coming
        loop = asyncio.get_running_loop()
        started = loop.time()
        await lull.wait()
        waited = loop.time() - started
    assert 0.09 <= waited < 1.0
