"""The bot's HTTP requests to Telegram, with each upload's body sent in one piece.

httpx streams a multipart body field by field: a photo with its caption and
buttons goes out as about twenty small writes, each a trip through httpcore,
anyio and asyncio down to a system call, on the event loop that answers every
chat. Read into one buffer first (the picture is some 50 KiB), the body is one
write.
"""

from __future__ import annotations

from typing import Any

import httpx
from telegram.ext import BaseRateLimiter
from telegram.request import HTTPXRequest

from bot.settings import Settings
from bot.telegram.sending import FittingBot

#: PTB's own default for the bot's requests (not getUpdates), which a request object given to the builder replaces.
CONNECTION_POOL_SIZE = 256
#: Telegram's Bot API, PTB's default address
TELEGRAM = "https://api.telegram.org/bot"
TELEGRAM_FILES = "https://api.telegram.org/file/bot"


async def whole_body(request: httpx.Request) -> None:
    """An httpx request hook: read a streamed body into memory, so the transport writes it at once."""
    await request.aread()


def telegram_request() -> HTTPXRequest:
    """PTB's HTTPX request with its defaults, uploads sent in one piece."""
    return HTTPXRequest(
        connection_pool_size=CONNECTION_POOL_SIZE, httpx_kwargs={"event_hooks": {"request": [whole_body]}}
    )


def telegram_bot(settings: Settings, rate_limiter: BaseRateLimiter[Any]) -> FittingBot:
    """The bot's connection to Telegram (or ``TELEGRAM_BASE_URL``): replies fitted to Telegram's limits,
    uploads in one piece, flood limits by ``rate_limiter``."""
    assert settings.telegram_bot_token is not None
    return FittingBot(
        settings.telegram_bot_token.get_secret_value(),
        base_url=settings.telegram_base_url or TELEGRAM,
        base_file_url=settings.file_url or TELEGRAM_FILES,  # where photos are fetched (getFile's files)
        request=telegram_request(),
        # On stopping, getUpdates is called once more to confirm the stored updates, while the poll being
        # cancelled may still hold its connection.
        get_updates_request=HTTPXRequest(connection_pool_size=2),
        rate_limiter=rate_limiter,
    )
