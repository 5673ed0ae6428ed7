"""Two webhook processes on one PostgreSQL behave as one: started together on an empty database they both
migrate and run; updates of one chat, posted to the two in turn, are handled in order; a question's two taps
(one to each process) store once.

Both processes are the real ``python -m bot``; the fake Telegram posts each update to one of them, the way a
load balancer in front of several processes would.
"""

from __future__ import annotations

import asyncio
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import GameService, open_database
from bot.telegram.runtime.webhook import derived_secret
from tests.bot_support import bot_process, fake_api
from tests.fake_bot_api import FakeBotApi, User
from tests.postgres_support import throwaway_postgres

PLAYERS = [User(7300 + i, f"Twin{i}") for i in range(3)]
DRAWS = ["4R", "5R", "6R", "7R", "8R", "9R", "10B", "11B"]


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with throwaway_postgres() as url:  # empty: the bots migrate it themselves
        yield url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def rack(url: str, user: User) -> list[str]:
    db = open_database(url)
    try:
        state = await GameService(db).game_for(user.id, user.id, private=True)
        player = state.player(user.id)
        return [str(t) for t in player.rack] if player is not None else []
    finally:
        await db.dispose()


async def ask(fake: FakeBotApi, user: User, text: str) -> str:
    mark = fake.mark()
    fake.send(user, text)
    return (await fake.reply(user.id, mark, timeout=60)).text


async def test_two_webhook_processes_on_one_postgres_behave_as_one(tmp_path: Path, pg_url: str) -> None:
    async with fake_api() as fake:
        ports = [free_port(), free_port()]
        urls = [f"http://127.0.0.1:{port}/telegram" for port in ports]
        hooks = [
            {"WEBHOOK_URL": url, "WEBHOOK_LISTEN": "127.0.0.1", "WEBHOOK_PORT": str(port)}
            for url, port in zip(urls, ports, strict=True)
        ]
        bots = [
            bot_process(fake, pg_url, tmp_path / f"bot{i}.log", CLAIM_SECONDS="2", **hook)
            for i, hook in enumerate(hooks)
        ]
        try:
            # started together on an empty database: both migrate (one waits for the other) and register
            await fake.wait_for(
                lambda: True if sum(c.method == "setWebhook" for c in fake.calls) == 2 else None, timeout=90
            )
            assert all(bot.poll() is None for bot in bots)
            secret = derived_secret(fake.token)
            assert {c.params["secret_token"] for c in fake.calls if c.method == "setWebhook"} == {secret}
            fake.hooks.extend((url, secret) for url in urls)  # update n goes to process n % 2
            for user in PLAYERS:
                await ask(fake, user, "/help")

            # a rack set on one process and a solve 5 ms later on the other: the solve sees the new rack
            for user in PLAYERS:
                await ask(fake, user, "/rack 1K")
            marks = {user.id: fake.mark() for user in PLAYERS}
            for user in PLAYERS:
                fake.send(user, "/rack 10R 11R 12R")
                await asyncio.sleep(0.005)
                fake.send(user, "/solve")
            for user in PLAYERS:
                solved = await fake.replies(user.id, marks[user.id], 2, timeout=60)
                assert solved[1].text.startswith("Best opening (most tiles): 3 tiles"), solved[1].text

            # a stream of draws in each chat, alternating processes, then /status: all applied, in order
            marks = {user.id: fake.mark() for user in PLAYERS}
            for tile in DRAWS:
                for user in PLAYERS:
                    fake.send(user, f"/draw {tile}")
            for user in PLAYERS:
                fake.send(user, "/status")
            for user in PLAYERS:
                answers = await fake.replies(user.id, marks[user.id], len(DRAWS) + 1, timeout=60)
                assert [a.text.split(".")[0] for a in answers[:-1]] == [f"You drew {t}" for t in DRAWS]
                assert f"Your rack ({3 + len(DRAWS)} tiles)" in answers[-1].text
                assert sorted(await rack(pg_url, user)) == sorted(["10R", "11R", "12R", *DRAWS])

            # one question, two taps (one to each process): the tiles are drawn once
            user = PLAYERS[0]
            mark = fake.mark()
            fake.send(user, "13O 13K")
            question = await fake.reply(user.id, mark, timeout=60)
            mark = fake.mark()
            fake.tap(user, question, "Tiles I drew")
            fake.tap(user, question, "Tiles I drew")
            await fake.wait_for(
                lambda: next((c for c in fake.calls[mark:] if "already answered" in c.params.get("text", "")), None),
                timeout=60,
            )
            held = await rack(pg_url, user)
            assert held.count("13O") == 1 and held.count("13K") == 1
            assert sorted(fake.delivered) == sorted(set(fake.delivered)) and not fake.undelivered
        finally:
            for bot in bots:
                bot.send_signal(signal.SIGTERM)
            for bot in bots:
                await asyncio.to_thread(bot.wait, 60)
    logs = [(tmp_path / f"bot{i}.log").read_text() for i in range(2)]
    assert [bot.returncode for bot in bots] == [0, 0], [log[-2000:] for log in logs]
    assert not any("Traceback" in log for log in logs), [log[-3000:] for log in logs]
