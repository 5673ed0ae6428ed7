"""The real ``python -m bot`` through outages: Telegram unreachable at start-up, Telegram failing (502, then
timeouts) for 30 seconds in the middle of a stream of messages from several chats, in polling and in webhook
mode, a token Telegram stops taking, PostgreSQL restarting under the bot or not up yet at start-up, and the
health check in both states.

Each time: every message gets its answer, in its chat's order, none twice; each outage is said once when it
begins and once when it ends; no traceback in the log.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.run import REFUSED_TOKEN
from bot.storage import GameService, open_database
from bot.storage.migrate import upgrade
from bot.telegram.runtime.webhook import derived_secret
from tests.bot_support import ROOT, bot_process, fake_api, rack_of, session
from tests.fake_bot_api import FakeBotApi, User
from tests.postgres_support import Server, postgres_server
from tests.storage_support import migrated

PLAYERS = [User(7600 + i, f"Out{i}") for i in range(4)]
#: each player's draws, one message each, one tile each (a sender's 21st message in 30 s would be a flood)
DRAWS = ["1R", "2R", "3R", "4R", "5R", "6B", "7B", "8B", "9B", "10B"]


#: a draw's answer: "Drew 7B." (or "You drew 7B." where the game's turn moves on with a draw)
DREW = re.compile(r"^(?:.*: )?(?:You drew|Drew) (\S+)\.")


def drawn(text: str) -> str | None:
    """The tile a draw's answer names (None: not a draw's answer)."""
    found = DREW.match(text)
    return found[1] if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def logged(log: Path, found: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
    """The log once ``found`` holds for it."""
    deadline = time.monotonic() + timeout
    while True:
        text = log.read_text(errors="replace") if log.exists() else ""
        if found(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; the log ends: {text[-3000:]}")
        await asyncio.sleep(0.2)


async def stop(bot: subprocess.Popen[bytes], how: int = signal.SIGINT, timeout: float = 60) -> int:
    if bot.poll() is None:
        bot.send_signal(how)
    return await asyncio.to_thread(bot.wait, timeout)


async def started(fake: FakeBotApi, method: str = "deleteWebhook") -> None:
    """Start-up is over: polling begins with deleteWebhook, webhook mode with setWebhook."""
    await fake.wait_for(lambda: next((True for c in fake.calls if c.method == method), None), 90, "start-up")


async def greet(fake: FakeBotApi) -> None:
    """Each player's game exists before the stream, a 1K on the rack: from now on each message makes one
    change (the first message of a private chat also makes its game)."""
    mark = fake.mark()
    for user in PLAYERS:
        fake.send(user, "/rack 1K")
    for user in PLAYERS:
        await fake.reply(user.id, mark, timeout=60)


async def stream(fake: FakeBotApi, every: float) -> None:
    """Each player draws the tiles of ``DRAWS`` in turn, one message per tile, a round every ``every`` s."""
    for tile in DRAWS:
        for user in PLAYERS:
            fake.send(user, f"/draw {tile}")
        await asyncio.sleep(every)


async def every_draw_answered_once_in_order(fake: FakeBotApi, since: int, timeout: float = 120) -> None:
    for user in PLAYERS:
        await fake.replies(user.id, since, len(DRAWS), timeout=timeout)
    await asyncio.sleep(1.5)  # time for an answer sent twice to show
    for user in PLAYERS:
        answers = [drawn(c.text) for c in fake.sent(user.id, since)]
        assert answers == DRAWS, (user.id, answers)


def said_once(text: str, *lines: str) -> None:
    for line in lines:
        assert text.count(line) == 1, (line, text[-4000:])
    assert "Traceback" not in text, text[-4000:]


async def test_the_bot_waits_for_telegram_at_start_up_and_starts_once_it_answers(tmp_path: Path) -> None:
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    fake = FakeBotApi(port=free_port())  # nothing listens there yet: every attempt is refused
    bot = bot_process(fake, url, log)
    try:
        await logged(log, lambda text: text.count("could not reach Telegram") >= 2, "two attempts")
        await fake.start()
        await started(fake)
        mark = fake.mark()
        fake.send(PLAYERS[0], "/draw 4K")
        assert drawn((await fake.reply(PLAYERS[0].id, mark, timeout=30)).text) == "4K"
    finally:
        await fake.end_polls()
        code = await stop(bot)
        await fake.stop()
    text = log.read_text()
    assert code == 0, text
    attempts = [line for line in text.splitlines() if "could not reach Telegram" in line]
    assert len(attempts) >= 2 and all("; attempt " in line and "trying again in" in line for line in attempts)
    assert "ConnectError" in attempts[0]  # what failed
    assert "Traceback" not in text and fake.token not in text, text
    assert not fake.violations, fake.violations


async def test_ctrl_c_while_waiting_for_telegram_stops_at_once(tmp_path: Path) -> None:
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    fake = FakeBotApi(port=free_port())  # never started
    bot = bot_process(fake, url, log)
    await logged(log, lambda text: "could not reach Telegram" in text, "the first attempt")
    asked = time.monotonic()
    code = await stop(bot, signal.SIGINT, timeout=10)
    assert time.monotonic() - asked < 5  # not at the end of the pause under way
    text = log.read_text()
    assert code == 0 and "Traceback" not in text, text


async def test_an_outage_of_telegram_in_a_stream_of_messages_loses_and_repeats_nothing(tmp_path: Path) -> None:
    """502 for 15 s, then no answer at all for 15 s, while four chats keep writing: afterwards each chat has
    every answer, in order, once."""
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    async with fake_api() as fake:
        bot = bot_process(fake, url, log)
        try:
            await started(fake)
            await greet(fake)
            mark = fake.mark()
            sending = asyncio.create_task(stream(fake, every=3.0))
            await asyncio.sleep(4)
            fake.go_down("502")
            await asyncio.sleep(15)
            fake.go_down("timeout")
            await asyncio.sleep(15)
            fake.go_down(None)
            await sending
            await every_draw_answered_once_in_order(fake, mark)
            assert fake.turned_away > 0
            await logged(log, lambda text: "Telegram answers again after" in text, "the outage's end", 30)
        finally:
            await fake.end_polls()
            code = await stop(bot)
        text = log.read_text()
        assert code == 0, text[-4000:]
        said_once(text, "Telegram does not answer (", "Telegram answers again after")
        assert not fake.violations, fake.violations


async def test_webhook_mode_answers_through_an_outage_of_its_requests_and_says_its_health(tmp_path: Path) -> None:
    """Telegram's posts keep coming while the bot's own requests fail: answered afterwards, in order; GET
    beside the webhook answers the health check."""
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    port = free_port()
    hook = f"http://127.0.0.1:{port}/telegram"
    async with fake_api() as fake:
        bot = bot_process(fake, url, log, WEBHOOK_URL=hook, WEBHOOK_LISTEN="127.0.0.1", WEBHOOK_PORT=str(port))
        try:
            await started(fake, "setWebhook")
            fake.hooks.append((hook, derived_secret(fake.token)))
            await greet(fake)
            async with httpx.AsyncClient() as client:
                health = await client.get(f"http://127.0.0.1:{port}/health")
            assert health.status_code == 200, health.text
            assert health.text.startswith("healthy: the database answers; last update handled 20"), health.text
            mark = fake.mark()
            sending = asyncio.create_task(stream(fake, every=1.0))
            await asyncio.sleep(1.5)
            fake.go_down("502")
            await asyncio.sleep(5)
            fake.go_down("timeout")
            await asyncio.sleep(7)
            fake.go_down(None)
            await sending
            await every_draw_answered_once_in_order(fake, mark)
            await logged(log, lambda text: "Telegram answers again after" in text, "the outage's end", 30)
            assert not fake.undelivered
        finally:
            code = await stop(bot)
        text = log.read_text()
        assert code == 0, text[-4000:]
        said_once(text, "Telegram does not answer (", "Telegram answers again after")
        assert not fake.violations, fake.violations


async def test_a_token_telegram_stops_taking_ends_the_bot_in_one_line_and_exit_2(tmp_path: Path) -> None:
    url, log = await migrated(tmp_path), tmp_path / "bot.log"
    async with fake_api() as fake:
        token = fake.token
        bot = bot_process(fake, url, log)
        try:
            await started(fake)
            await greet(fake)
            fake.token = "654321:ANOTHER-token"  # revoked at BotFather: the bot's token is refused from now on
            fake.send(PLAYERS[0], "/draw 5K")  # ends the long poll under way
            code = await asyncio.to_thread(bot.wait, 60)
        finally:
            await stop(bot)
    text = log.read_text()
    assert code == 2, text[-3000:]
    assert text.strip().splitlines()[-1] == REFUSED_TOKEN
    assert "Traceback" not in text and token not in text and token.split(":")[1] not in text, text[-3000:]


@pytest.fixture
def postgres() -> Iterator[Server]:
    with postgres_server() as server:
        upgrade(server.url)
        yield server


def health(url: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot health`` with the bot's settings (``DATABASE_URL``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WEBHOOK_", "DATABASE_"))}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=url)
    return subprocess.run(
        [sys.executable, "-m", "bot", "health"], env=env, capture_output=True, text=True, timeout=60, check=False
    )


async def racks(url: str) -> dict[int, list[str]]:
    db = open_database(url)
    try:
        service = GameService(db)
        found: dict[int, list[str]] = {}
        for user in PLAYERS:
            player = (await service.game_for(user.id, user.id, private=True)).player(user.id)
            found[user.id] = sorted(str(t) for t in player.rack) if player is not None else []
        return found
    finally:
        await db.dispose()


async def test_postgres_restarting_under_the_bot_loses_and_repeats_nothing(tmp_path: Path, postgres: Server) -> None:
    """The server stops for 6 s in the middle of a stream from four chats: every draw is applied once and
    answered once, in order; the health check says the database is away meanwhile, and well after."""
    log = tmp_path / "bot.log"
    async with fake_api() as fake:
        bot = bot_process(fake, postgres.url, log, CLAIM_SECONDS="2")
        try:
            await started(fake)
            await greet(fake)
            mark = fake.mark()
            sending = asyncio.create_task(stream(fake, every=1.5))
            await asyncio.sleep(4)
            await asyncio.to_thread(postgres.stop)
            await logged(log, lambda text: "the database does not answer (" in text, "the outage", 30)
            away = await asyncio.to_thread(health, postgres.url)
            await asyncio.sleep(3)
            await asyncio.to_thread(postgres.start)
            await sending
            await every_draw_answered_once_in_order(fake, mark)
            assert await racks(postgres.url) == {user.id: sorted(["1K", *DRAWS]) for user in PLAYERS}
            await logged(log, lambda text: "the database answers again after" in text, "the outage's end", 30)
            well = await asyncio.to_thread(health, postgres.url)
        finally:
            await fake.end_polls()
            code = await stop(bot)
        text = log.read_text()
        assert code == 0, text[-4000:]
        said_once(text, "the database does not answer (", "the database answers again after")
        assert not fake.violations, fake.violations
    assert away.returncode == 1 and away.stdout.count("\n") == 1, away
    assert away.stdout.startswith("unhealthy: the database does not answer (ConnectionRefusedError"), away.stdout
    assert well.returncode == 0 and well.stdout.count("\n") == 1, well
    assert well.stdout.startswith("healthy: the database answers; last update handled 20"), well.stdout
    assert "; 0 waiting" in well.stdout and not away.stderr and not well.stderr


async def test_an_update_the_database_fails_under_is_handled_again_once_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The database drops the connection under a change, before it commits (twice), or after (a read after
    the commit fails): the update waits and is handled again, as after a restart; its change is there once,
    never twice; no "sorry" in the chat, no traceback in the log."""
    caplog.set_level(logging.INFO)
    real = GameService.draw
    script: list[str] = []

    async def flaky(self: GameService, *args: Any, **kwargs: Any) -> Any:
        step = script.pop(0) if script else "through"
        if step == "before":
            raise ConnectionRefusedError(111, "Connect call failed")
        done = await real(self, *args, **kwargs)
        if step == "after":
            raise ConnectionResetError(104, "Connection reset by peer")
        return done

    monkeypatch.setattr(GameService, "draw", flaky)
    user = PLAYERS[0]
    async with session(tmp_path) as s:
        await s.ask(user, "/rack 1K")
        script[:] = ["before", "before"]
        mark = s.fake.mark()
        s.fake.send(user, "/draw 3R")
        s.fake.send(user, "/draw 4R")
        answers = await s.fake.replies(user.id, mark, 2, timeout=30)
        assert [drawn(a.text) for a in answers] == ["3R", "4R"]  # in order, after the wait
        script[:] = ["after"]
        again = await s.ask(user, "/draw 5R")
        assert "already recorded this message" in again.text  # handled again: the change is not made twice
        assert rack_of(await s.player(user.id, user)) == ["3R", "4R", "5R", "1K"]
        await asyncio.sleep(0.6)  # a sweep of the dispatcher: the outage's end is seen
        sent = [c.text for c in s.fake.sent(user.id, mark)]
        assert not [t for t in sent if "went wrong" in t], sent
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.storage.outages"]
    assert [line.split(" (")[0].split(" after")[0] for line in lines] == [
        "the database does not answer",
        "the database answers again",
        "the database does not answer",
        "the database answers again",
    ], lines
    assert not [r for r in caplog.records if r.exc_info and r.name.startswith("bot")]


async def test_the_bot_waits_for_a_database_that_is_not_up_yet(tmp_path: Path, postgres: Server) -> None:
    log = tmp_path / "bot.log"
    await asyncio.to_thread(postgres.stop)
    async with fake_api() as fake:
        bot = bot_process(fake, postgres.url, log)
        try:
            await logged(log, lambda text: text.count("the database does not answer") >= 2, "two attempts")
            await asyncio.to_thread(postgres.start)
            await started(fake)
            mark = fake.mark()
            fake.send(PLAYERS[0], "/draw 4K")
            assert drawn((await fake.reply(PLAYERS[0].id, mark, timeout=30)).text) == "4K"
        finally:
            await fake.end_polls()
            code = await stop(bot, signal.SIGTERM)
    text = log.read_text()
    assert code == 0 and "Traceback" not in text, text[-3000:]
    attempts = [line for line in text.splitlines() if "the database does not answer" in line]
    assert all("ConnectionRefusedError" in line and "trying again in" in line for line in attempts), attempts


async def test_sigterm_while_waiting_for_the_database_stops_at_once(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    fake = FakeBotApi()  # never asked: the database comes first
    bot = bot_process(fake, f"postgresql+asyncpg://bot@127.0.0.1:{free_port()}/bot", log)
    await logged(log, lambda text: "the database does not answer" in text, "the first attempt")
    asked = time.monotonic()
    code = await stop(bot, signal.SIGTERM, timeout=10)
    assert time.monotonic() - asked < 5
    text = log.read_text()
    assert code == 0 and "Traceback" not in text, text
