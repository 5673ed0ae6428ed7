"""The end-to-end harness: the fake Bot API on loopback, the real application polling it through the settings.

``running_bot`` starts exactly what ``python -m bot`` starts (the same
builder, handlers, rate limiter class, database migrations), only inside the
test's event loop instead of ``run_polling``, and stops it cleanly.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter

from bot.settings import Settings
from bot.telegram.app import ALLOWED_UPDATES, BotApplication, build_application
from tests.fake_bot_api import FakeBotApi, User
from tests.storage_support import migrated

ALICE = User(101, "Alice", "alice")
BOB = User(202, "Bob", "bob")
CAROL = User(303, "Carol")
PNG = b"\x89PNG\r\n\x1a\n"


def settings_for(fake: FakeBotApi, database_url: str, **extra: Any) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token=fake.token,
        telegram_base_url=fake.base_url,
        database_url=database_url,
        **extra,
    )


@asynccontextmanager
async def fake_api() -> AsyncIterator[FakeBotApi]:
    fake = FakeBotApi()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@asynccontextmanager
async def running_bot(
    fake: FakeBotApi, database_url: str, *, workers: int | None = None, **extra: Any
) -> AsyncIterator[BotApplication]:
    """The bot application, initialised (getMe, command menus, warm-up) and polling the fake."""
    # Flood limits off against the fake (a group may get 20 messages a minute from Telegram, not from a test),
    # but through the same AIORateLimiter class the bot runs with.
    limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0)
    application = build_application(settings_for(fake, database_url, **extra), rate_limiter=limiter, workers=workers)
    await application.initialize()
    try:
        if application.post_init is not None:  # run_polling calls it; so do we
            await application.post_init(application)
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0.0, timeout=10, allowed_updates=ALLOWED_UPDATES)
        try:
            yield application
        finally:
            await application.updater.stop()
            await application.stop()
    finally:
        await application.shutdown()


async def database(folder: Path) -> str:
    return await migrated(folder)
