"""One chat flooding the bot cannot delay another chat's answers, and hears once that it should slow down.

The real ``python -m bot`` (solver processes and all) in a process of its own,
so the fake Telegram's work is not counted as the bot's.
"""

from __future__ import annotations

import asyncio
import math
import signal
from pathlib import Path

from bot.telegram.runtime.dispatch import FLOOD_MOST
from bot.telegram.words import texts
from tests.bot_support import bot_process, fake_api
from tests.fake_bot_api import User
from tests.storage_support import migrated

FLOODER = User(8801, "Flooder")
#: other chats, each asking now and then (Telegram lets a bot answer one chat about once a second)
CALM = [User(8900 + i, f"Calm{i}") for i in range(100)]
RACKS = ["3R 4R 5R", "7B 8B 9B 9K", "1O 2O 3O J", "10K 11K 12K 13K", "5R 5B 5K"]


async def test_a_flood_of_500_messages_does_not_hold_up_another_chat(tmp_path: Path) -> None:
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    async with fake_api() as fake:
        bot = bot_process(fake, url, log)
        try:
            for user in (*CALM, FLOODER):  # every chat known, and the bot warmed up, before the flood
                mark = fake.mark()
                fake.send(user, "/help")
                await fake.reply(user.id, mark, timeout=60)
            await asyncio.sleep(1.0)
            mark = fake.mark()
            asked: list[tuple[User, int]] = []

            async def flood() -> None:
                for i in range(500):  # 500 messages in 5 s
                    fake.send(FLOODER, f"rack: {RACKS[i % len(RACKS)]}")
                    await asyncio.sleep(0.01)

            async def calm() -> None:
                for user in CALM:  # one /help from each, every 0.05 s, while the flood goes on
                    await asyncio.sleep(0.05)
                    asked.append((user, fake.send(user, "/help")))

            await asyncio.gather(flood(), calm())
            waits = []
            for user, update in asked:
                answer = await fake.reply(user.id, mark, timeout=30)
                waits.append(answer.at - fake.offered_at[update])
            waits.sort()
            p99 = waits[math.ceil(len(waits) * 0.99) - 1]  # nearest rank
            print("calm chats waited (ms):", [round(w * 1000) for w in waits])
            assert p99 < 0.1, f"the calm chat's p99 was {p99 * 1000:.0f} ms: {[round(w * 1000) for w in waits]}"
            # the flooder heard once to slow down; past the limit its messages were skipped, not answered
            await fake.wait_for(
                lambda: True if any(c.text == texts.SLOW_DOWN for c in fake.sent(FLOODER.id, mark)) else None, 30
            )
            await asyncio.sleep(1.0)
            flooded = fake.sent(FLOODER.id, mark)
            assert sum(1 for c in flooded if c.text == texts.SLOW_DOWN) == 1
            assert len(flooded) <= FLOOD_MOST + 1
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 60)
    assert bot.returncode == 0, log.read_text()[-3000:]
