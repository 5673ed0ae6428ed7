"""Killed at any moment, the bot loses nothing it was given and applies nothing twice.

The real ``python -m bot`` polls the fake Telegram from a process of its own.
Six players draw tiles, each tile once, as fast as the bot takes them, while
the bot is killed with SIGKILL at random moments and started again. At the end
each rack holds exactly the tiles its player drew: no delivered update lost,
none applied twice, every answered draw there; the database passes its
integrity check. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import GameService, open_database
from bot.storage.migrate import upgrade
from tests.bot_support import bot_process, fake_api
from tests.fake_bot_api import User
from tests.postgres_support import throwaway_postgres
from tests.storage_support import migrated

PLAYERS = [User(7100 + i, f"Crash{i}") for i in range(6)]
#: the tiles each player draws, one per message, each tile once (fewer than a flood's worth: the bot skips a
#: sender's messages past 20 in 30 seconds)
DRAWS = [f"{n}{c}" for c in "RBKO" for n in range(1, 14)][:16]
KILLS = 10


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with throwaway_postgres() as url:
        upgrade(url)
        yield url


async def kill(bot: subprocess.Popen[bytes]) -> None:
    bot.send_signal(signal.SIGKILL)
    await asyncio.to_thread(bot.wait, 30)


async def racks(url: str) -> dict[int, Counter[str]]:
    db = open_database(url)
    try:
        service = GameService(db)
        found: dict[int, Counter[str]] = {}
        for user in PLAYERS:
            try:
                state = await service.game_for(user.id, user.id, private=True)
            except Exception:
                continue
            player = state.player(user.id)
            found[user.id] = Counter(str(t) for t in player.rack) if player is not None else Counter()
        return found
    finally:
        await db.dispose()


async def crash_run(tmp_path: Path, url: str) -> None:
    log = tmp_path / "bot.log"
    rng = random.Random(20261123)
    async with fake_api() as fake:
        bot = bot_process(fake, url, log, CLAIM_SECONDS="1")
        try:
            for user in PLAYERS:  # each player's game exists before the stream (a /start is a change too)
                fake.send(user, "/start")

            async def stream() -> None:
                for tile in DRAWS:
                    for user in PLAYERS:
                        fake.send(user, f"/draw {tile}")
                    await asyncio.sleep(rng.uniform(0.3, 0.9))  # the stream lasts as long as the kills

            sending = asyncio.create_task(stream())
            for _ in range(KILLS):
                await asyncio.sleep(rng.uniform(0.2, 1.6))
                await kill(bot)
                bot = bot_process(fake, url, log, CLAIM_SECONDS="1")
            await sending
            # after the last restart everything delivered is handled
            wanted = {user.id: Counter(DRAWS) for user in PLAYERS}
            for _ in range(120):
                if await racks(url) == wanted:
                    break
                await asyncio.sleep(0.5)
            got = await racks(url)
            assert got == wanted, (
                {uid: (wanted[uid] - got.get(uid, Counter()), got.get(uid, Counter()) - wanted[uid]) for uid in wanted},
                log.read_text()[-3000:],
            )
            # every draw the bot answered is in the rack it named (no answer about a change that was lost)
            for user in PLAYERS:
                answered = [c.text for c in fake.sent(user.id) if c.text.startswith("You drew ")]
                assert answered, "the bot answered draws"
                for text in answered:
                    drawn = text.split(".")[0].removeprefix("You drew ")
                    assert drawn in DRAWS
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 60)
    assert bot.returncode == 0, log.read_text()[-3000:]
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


async def test_sigkill_at_random_moments_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    url = await migrated(tmp_path)
    await crash_run(tmp_path, url)
    file = tmp_path / "games.sqlite3"
    with sqlite3.connect(file) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_sigkill_at_random_moments_loses_nothing_on_postgres(tmp_path: Path, pg_url: str) -> None:
    await crash_run(tmp_path, pg_url)


async def test_a_rack_answered_is_kept_even_when_the_bot_is_killed_right_after(tmp_path: Path) -> None:
    """The position a rack: message sets is committed before the answer goes out (it was once stored in a
    lull after answering, and a kill then lost it)."""
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    user = PLAYERS[0]
    async with fake_api() as fake:
        bot = bot_process(fake, url, log)
        try:
            for rack in ("3R 4R 5R 9B", "10K 11K 12K 1O", "2B 2K 2O 7R"):
                mark = fake.mark()
                fake.send(user, f"rack: {rack}")
                await fake.reply(user.id, mark, ("sendPhoto", "sendMessage"), timeout=60)
                await kill(bot)  # the moment the answer is out
                assert sorted((await racks(url))[user.id].elements()) == sorted(rack.split())
                bot = bot_process(fake, url, log)
        finally:
            bot.send_signal(signal.SIGTERM)
            await asyncio.to_thread(bot.wait, 60)
