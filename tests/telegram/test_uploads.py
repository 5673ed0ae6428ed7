"""Uploads go to Telegram in one piece: the same multipart body, one buffer instead of a stream of fields."""

from __future__ import annotations

import io
from collections.abc import AsyncIterable

import httpx
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.telegram.runtime.uploads import CONNECTION_POOL_SIZE, telegram_request, whole_body
from tests.bot_support import PNG


def _photo_request() -> httpx.Request:
    """A sendPhoto as PTB builds it: the picture, a caption and a button, as multipart form data."""
    picture = InputFile(io.BytesIO(PNG + bytes(48_000)), filename="play.png", attach=True)
    buttons = InlineKeyboardMarkup([[InlineKeyboardButton("I played this", callback_data="played:1:abc")]])
    data = RequestData(
        [
            RequestParameter.from_input("chat_id", 101),
            RequestParameter.from_input("photo", picture),
            RequestParameter.from_input("caption", "Best play (most tiles): 4 tiles, 46 points"),
            RequestParameter.from_input("reply_markup", buttons),
        ]
    )
    return httpx.Request(
        "POST", "http://127.0.0.1/botTOKEN/sendPhoto", files=data.multipart_data, data=data.json_parameters
    )


async def _chunks(request: httpx.Request) -> list[bytes]:
    """The pieces the transport writes, one by one."""
    stream = request.stream
    assert isinstance(stream, AsyncIterable)
    return [chunk async for chunk in stream]


async def test_a_photo_upload_is_sent_as_one_piece_with_the_same_bytes() -> None:
    request = _photo_request()
    streamed = await _chunks(request)
    assert len(streamed) > 10  # field by field, as httpx streams it
    await whole_body(request)
    whole = await _chunks(request)
    assert whole == [b"".join(streamed)]
    assert int(request.headers["Content-Length"]) == len(whole[0])


async def test_the_bots_requests_keep_ptbs_defaults_and_send_uploads_whole() -> None:
    request = telegram_request()
    client = request._client
    assert client.event_hooks["request"] == [whole_body]
    pool = client._transport._pool  # type: ignore[attr-defined]
    assert pool._max_connections == CONNECTION_POOL_SIZE
    assert client.timeout == httpx.Timeout(connect=5.0, read=5.0, write=5.0, pool=1.0)
    await request.shutdown()
