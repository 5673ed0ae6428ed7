"""Telegram's flood limits hold for the bot as a whole: two processes (two limiters on one database) share
one budget per chat, and a RetryAfter is waited out."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from telegram.error import RetryAfter

from bot.storage import open_database
from bot.telegram.runtime.pacing import Limits, Rate, SharedPace
from tests.storage_support import migrated

GROUP = -100123
FAST = Limits(overall=None, group=Rate(0.2, 3), private=Rate(0.05, 2))


async def test_two_processes_share_one_groups_budget(tmp_path: Path) -> None:
    url = await migrated(tmp_path)
    first, second = open_database(url), open_database(url)
    try:
        limiters = [SharedPace(FAST, first), SharedPace(FAST, second)]
        sent: list[float] = []

        async def send() -> bool:
            sent.append(time.monotonic())
            return True

        start = time.monotonic()
        await asyncio.gather(
            *(limiters[i % 2].process_request(send, (), {}, "sendMessage", {"chat_id": GROUP}, None) for i in range(9))
        )
        sent.sort()
        # three at once, then one every 0.2 s: the ninth no sooner than 6 x 0.2 s after the start
        assert sent[2] - start < 0.15
        for k in range(3, 9):
            assert sent[k] - start >= (k - 2) * 0.2 - 0.02, (k, sent[k] - start)
        # another chat is not held up by the group's queue
        other = time.monotonic()
        await limiters[0].process_request(send, (), {}, "sendMessage", {"chat_id": 42}, None)
        assert time.monotonic() - other < 0.1
    finally:
        await first.dispose()
        await second.dispose()


async def test_a_retry_after_is_waited_out_and_the_message_sent_again(tmp_path: Path) -> None:
    db = open_database(await migrated(tmp_path))
    try:
        limiter = SharedPace(FAST, db)
        tries: list[float] = []

        async def flooded(**kwargs: Any) -> bool:
            tries.append(time.monotonic())
            if len(tries) == 1:
                raise RetryAfter(timedelta(seconds=0.3))
            return True

        assert await limiter.process_request(flooded, (), {}, "sendMessage", {"chat_id": 7}, None) is True
        assert len(tries) == 2 and tries[1] - tries[0] >= 0.29
    finally:
        await db.dispose()
