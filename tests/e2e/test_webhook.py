"""Webhook mode, end to end: Telegram's posts are stored before they are answered 200, and nothing else
gets in (no secret, a wrong one, a body too large to read)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from bot.run import configure_logging
from bot.settings import Settings
from bot.storage.inbox import Delivered, Inbox
from bot.telegram.runtime.serving import Webhook, webhook_of
from bot.telegram.runtime.webhook import MOST_BODY, derived_secret
from tests.bot_support import ALICE, Session, database, fake_api, rack_of, running_bot
from tests.fake_bot_api import TOKEN, private


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def hook(secret: str = "s3cret-Hook_1") -> Webhook:
    port = free_port()
    return Webhook(f"http://127.0.0.1:{port}/telegram/hook", "127.0.0.1", port, secret)


async def test_updates_come_through_the_webhook_and_are_answered(tmp_path: Path) -> None:
    url, webhook = await database(tmp_path), hook()
    async with fake_api() as fake, running_bot(fake, url, webhook=webhook) as app:
        s = Session(fake, app, url)
        registered = next(c for c in fake.calls if c.method == "setWebhook")
        assert registered.params["url"] == webhook.url
        assert registered.params["secret_token"] == webhook.secret
        assert registered.params["allowed_updates"] == ["message", "edited_message", "callback_query", "my_chat_member"]
        answer = await s.ask(ALICE, "/rack 3R 4R 5R 9B")
        assert "3R 4R 5R 9B" in answer.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == ["3R", "4R", "5R", "9B"]
        assert not fake.violations, fake.violations


async def test_posts_without_the_secret_or_too_large_are_refused_and_change_nothing(tmp_path: Path) -> None:
    url, webhook = await database(tmp_path), hook()
    async with fake_api() as fake, running_bot(fake, url, webhook=webhook) as app:
        s = Session(fake, app, url)
        await s.ask(ALICE, "/rack 1R")
        forged = {"update_id": 10**9, "message": fake.user_message(ALICE, private(ALICE), text="rack: 13K 13K")}
        async with httpx.AsyncClient() as client:
            missing = await client.post(webhook.url, json=forged)
            wrong = await client.post(webhook.url, json=forged, headers={"X-Telegram-Bot-Api-Secret-Token": "guess"})
            try:  # refused before it is read: an error status, or the connection closed
                huge = await client.post(
                    webhook.url,
                    content=b"{" + b" " * (MOST_BODY + 1) + b"}",
                    headers={"X-Telegram-Bot-Api-Secret-Token": webhook.secret, "Content-Type": "application/json"},
                )
                huge_refused = huge.status_code >= 400
            except httpx.HTTPError:
                huge_refused = True
            garbage = await client.post(
                webhook.url, content=b"not json", headers={"X-Telegram-Bot-Api-Secret-Token": webhook.secret}
            )
        assert missing.status_code == 403 and wrong.status_code == 403
        assert huge_refused and garbage.status_code == 400
        # the bot is still there and the forged rack never arrived
        answer = await s.ask(ALICE, "/status")
        assert "1R" in answer.text and "13K" not in answer.text
        assert rack_of(await s.player(ALICE.id, ALICE)) == ["1R"]


def test_without_a_configured_secret_one_is_derived_from_the_token() -> None:
    def settings(**extra: Any) -> Settings:
        return Settings(_env_file=None, telegram_bot_token=SecretStr(TOKEN), webhook_url="https://x.org/h", **extra)  # type: ignore[call-arg]

    derived, again = webhook_of(settings()), webhook_of(settings())
    assert derived is not None and again is not None
    assert derived.secret == again.secret == derived_secret(TOKEN)  # every process expects the same one
    assert len(derived.secret) >= 32 and TOKEN not in derived.secret
    configured = webhook_of(settings(webhook_secret=SecretStr("mine")))
    assert configured is not None and configured.secret == "mine"


async def test_the_webhook_secret_is_never_logged_even_at_debug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """PTB logs setWebhook's parameters, the secret among them, at DEBUG: libraries stay at INFO whatever
    LOG_LEVEL says, so it never gets that far (nor does an update's text)."""
    root = logging.getLogger()
    level = root.level
    redact = configure_logging("DEBUG", TOKEN)  # the token redacted; the secret is not even given to the filter
    try:
        caplog.handler.setLevel(logging.DEBUG)
        url, webhook = await database(tmp_path), hook()
        async with fake_api() as fake, running_bot(fake, url, webhook=webhook) as app:
            await Session(fake, app, url).ask(ALICE, "/rack 3R 4R 5R 9O")
        records = [r.getMessage() for r in caplog.records if not r.name.startswith("tornado.access")]
        assert records and not [m for m in records if webhook.secret in m or "9O" in m]
    finally:
        for handler in root.handlers:
            handler.removeFilter(redact)
        root.setLevel(level)
        for name in ("bot", "httpx", "httpcore"):
            logging.getLogger(name).setLevel(logging.NOTSET)


async def test_a_post_the_database_cannot_store_is_answered_503_and_taken_when_telegram_posts_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """With the database away an update is not confirmed: Telegram hears 503, posts it again, and it is handled
    once the database takes it; GET beside the webhook says the bot's health."""
    refusals = 3
    keep = Inbox.keep

    async def away(self: Inbox, updates: Sequence[Delivered]) -> set[int]:
        nonlocal refusals
        if refusals:
            refusals -= 1
            raise ConnectionRefusedError(111, "Connect call failed")
        return await keep(self, updates)

    url, webhook = await database(tmp_path), hook()
    async with fake_api() as fake, running_bot(fake, url, webhook=webhook) as app:
        s = Session(fake, app, url)
        monkeypatch.setattr(Inbox, "keep", away)
        answer = await s.ask(ALICE, "/rack 3R 4R 5R 9B")
        assert "3R 4R 5R 9B" in answer.text and refusals == 0
        assert len(fake.delivered) == 1 and not fake.undelivered
        async with httpx.AsyncClient() as client:
            health = await client.get(f"http://127.0.0.1:{webhook.port}/health")
            refused = await client.post(f"http://127.0.0.1:{webhook.port}/health", json={})
        assert health.status_code == 200 and refused.status_code == 405
        assert health.text.startswith("healthy: the database answers; last update handled 20"), health.text
        assert health.text.endswith("; 0 waiting\n") and TOKEN not in health.text
    answered = [
        r.getMessage() for r in caplog.records if r.name == "tornado.access" and "/telegram/hook" in r.getMessage()
    ]
    assert [line.split()[0] for line in answered] == ["503", "503", "503"]  # refused unstored, never an error
