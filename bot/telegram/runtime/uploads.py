"""The bot's HTTP requests to Telegram, with each upload's body sent in one piece.

httpx streams a multipart body field by field: a photo with its caption and
buttons goes out as about twenty small writes, each a trip through httpcore,
anyio and asyncio down to a system call, on the event loop that answers every
chat. Read into one buffer first (the picture is some 50 KiB), the body is one
write.
"""

from __future__ import annotations

import httpx
from telegram.request import HTTPXRequest

#: PTB's own default for the bot's requests (not getUpdates), which a request object given to the builder replaces.
CONNECTION_POOL_SIZE = 256


async def whole_body(request: httpx.Request) -> None:
    """An httpx request hook: read a streamed body into memory, so the transport writes it at once."""
    await request.aread()


def telegram_request() -> HTTPXRequest:
    """PTB's HTTPX request with its defaults, uploads sent in one piece."""
    return HTTPXRequest(
        connection_pool_size=CONNECTION_POOL_SIZE, httpx_kwargs={"event_hooks": {"request": [whole_body]}}
    )
