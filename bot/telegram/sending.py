"""Sending replies: text, photos (with the "sending a photo" action during long work), posts to a group.

Every request goes through ``FittingBot``, so no reply is ever longer than
Telegram takes: a long text is split into a few messages (at line breaks, else
between words), the buttons on the last; a caption, an edit or an alert is
shortened, with "…" where it was cut. A rack of a thousand tiles is then two
messages, not "Message is too long" and a traceback.

A post to a group that has become a supergroup fails with ``ChatMigrated``;
the game then follows the chat to its new id and the post is sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from telegram import Chat, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatAction
from telegram.error import ChatMigrated, TelegramError
from telegram.ext import ExtBot

from bot.game import GameState
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.limits import ALERT_LIMIT, CAPTION_LIMIT, TEXT_LIMIT
from bot.telegram.words import texts
from bot.telegram.words.language import _, current, directed, speaking

log = logging.getLogger(__name__)

#: A long text goes out as at most this many messages (the last one shortened if need be): a reply stays a
#: reply, and a group's 20 messages a minute are not spent on one answer.
MOST_PARTS = 3
CUT = "…"


def size(text: str) -> int:
    """Telegram's length of a text: UTF-16 code units (an emoji outside the BMP counts twice)."""
    return len(text.encode("utf-16-le")) // 2


def _fitting(text: str, limit: int) -> int:
    """How many characters of ``text`` fit in ``limit`` (Telegram's units), ending at a line break or a space
    when one is in the second half of that room."""
    room, used = 0, 0
    for ch in text:
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > limit:
            break
        room += 1
    if room >= len(text):
        return room
    for mark in ("\n", " "):
        at = text.rfind(mark, 0, room + 1)  # the break itself may fall just past the room: it is dropped
        if at > room // 2:
            return at
    return room


def shortened(text: str, limit: int) -> str:
    """``text`` itself when it fits, else as much as fits with "…" at the end."""
    if size(text) <= limit:
        return text
    return text[: _fitting(text, limit - size(CUT))].rstrip() + CUT


def parts(text: str, limit: int = TEXT_LIMIT, most: int = MOST_PARTS) -> list[str]:
    """``text`` as at most ``most`` messages of at most ``limit`` each, split at line breaks or between words."""
    out: list[str] = []
    rest = text
    while size(rest) > limit and len(out) < most - 1:
        cut = _fitting(rest, limit)
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    out.append(shortened(rest, limit))
    return [p for p in out if p] or [text]


class FittingBot(ExtBot[Any]):
    """PTB's bot, with every text, caption and alert fitted to Telegram's limits before it is sent.

    Replies are plain text (no entities or parse mode), so any cut is safe. In a right-to-left language each
    line is marked to read right to left (``language.directed``).
    """

    async def send_message(self, chat_id: int | str, text: str, *args: Any, **kwargs: Any) -> Message:
        """A long text as several messages: the quote on the first, the buttons on the last (returned)."""
        pieces = parts(directed(text))
        for i, piece in enumerate(pieces[:-1]):
            first = {k: v for k, v in kwargs.items() if k != "reply_markup"}
            if i > 0:
                first.pop("reply_parameters", None)
                first.pop("reply_to_message_id", None)
            await super().send_message(chat_id, piece, *args, **first)
        if len(pieces) > 1:
            kwargs.pop("reply_parameters", None)
            kwargs.pop("reply_to_message_id", None)
        return await super().send_message(chat_id, pieces[-1], *args, **kwargs)

    async def send_photo(self, chat_id: int | str, photo: Any, *args: Any, **kwargs: Any) -> Message:
        if isinstance(kwargs.get("caption"), str):
            kwargs["caption"] = shortened(directed(kwargs["caption"]), CAPTION_LIMIT)
        return await super().send_photo(chat_id, photo, *args, **kwargs)

    async def edit_message_text(self, text: str, *args: Any, **kwargs: Any) -> Message | bool:
        return await super().edit_message_text(shortened(directed(text), TEXT_LIMIT), *args, **kwargs)

    async def edit_message_caption(self, *args: Any, **kwargs: Any) -> Message | bool:
        if isinstance(kwargs.get("caption"), str):
            kwargs["caption"] = shortened(directed(kwargs["caption"]), CAPTION_LIMIT)
        return await super().edit_message_caption(*args, **kwargs)

    async def answer_callback_query(self, callback_query_id: str, *args: Any, **kwargs: Any) -> bool:
        if isinstance(kwargs.get("text"), str):
            kwargs["text"] = shortened(directed(kwargs["text"]), ALERT_LIMIT)
        return await super().answer_callback_query(callback_query_id, *args, **kwargs)


def label(context: BotContext, chat: Chat) -> str:
    """ "Family: " before a private reply about a group's game (so a player at two tables knows which);
    nothing in the group itself or about the chat's own game. An answer to an edited message says so first."""
    edit = _(texts.EDITED) if context.edited else ""
    game = context.game
    if game is None or is_group(chat) or game.chat_id == chat.id:
        return edit
    return edit + (game.title or _("Your group")) + ": "


async def say(
    update: Update,
    context: BotContext,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    *,
    quote: bool = False,
) -> Message:
    """Answer in the update's chat (quoting the message in groups, so the answer's subject is clear)."""
    chat = update.effective_chat
    assert chat is not None
    text = label(context, chat) + text
    message = update.message
    if message is not None and (quote or is_group(chat)):
        return await message.reply_text(text, reply_markup=markup, do_quote=True)
    return await context.bot.send_message(chat.id, text, reply_markup=markup)


async def show(
    update: Update,
    context: BotContext,
    photo: bytes,
    caption: str,
    markup: InlineKeyboardMarkup | None = None,
) -> Message:
    chat = update.effective_chat
    assert chat is not None
    caption = label(context, chat) + caption
    message = update.message
    if message is not None and is_group(chat):
        return await message.reply_photo(photo, caption=caption, reply_markup=markup, do_quote=True)
    return await context.bot.send_photo(chat.id, photo, caption=caption, reply_markup=markup)


#: Work shorter than this gets no chat action: the photo itself arrives first (and Telegram's 30 requests a
#: second are kept for replies). Longer work shows "sending a photo", renewed before Telegram drops it at 5 s.
#: Half a second: when 20 chats ask at once most answers take 0.2-0.5 s, and an action shown for the last
#: moments before the photo is only one more request while every request waits for the CPU.
ACTION_AFTER = 0.5
ACTION_RENEW = 4.5


@asynccontextmanager
async def photo_coming(context: BotContext, chat: Chat) -> AsyncIterator[None]:
    """Around long work that ends in a photo: the "sending a photo" action while it lasts."""

    async def keep_showing() -> None:
        await asyncio.sleep(ACTION_AFTER)
        while True:
            try:
                await context.bot.send_chat_action(chat.id, ChatAction.UPLOAD_PHOTO)
            except TelegramError as why:  # a failed action must not stop the reply
                log.info("chat action failed in %s: %s", chat.id, why)
            await asyncio.sleep(ACTION_RENEW)

    task = asyncio.create_task(keep_showing())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def language_there(context: BotContext, chat_id: int) -> str:
    """The language to write to another chat in: the one it chose, else (a group) the one it is spoken to,
    else the current one (the sender's)."""
    service = context.service
    chosen = await service.language_of(chat_id)
    if chosen is not None:
        return chosen
    if chat_id > 0:  # a private chat: no group's first language to fall back on
        return current()
    first, _ask = await service.group_language(chat_id, None)
    return first or current()


async def post_to_game_chat(
    context: BotContext,
    state: GameState,
    caption: str | Callable[[], str],
    photo: bytes | Callable[[], Awaitable[bytes]] | None = None,
    markup: Callable[[], InlineKeyboardMarkup | None] | None = None,
) -> None:
    """Tell the game's group (from a private chat): a picture with a caption, or just text, with buttons made
    by ``markup``. A caption, picture or buttons still to make are made in the group's language (the one it
    chose, else the sender's)."""
    chat_id = state.chat_id
    with speaking(await language_there(context, chat_id)):
        text = caption() if callable(caption) else caption
        picture = await photo() if callable(photo) else photo
        buttons = markup() if markup is not None else None
        await _post(context, chat_id, text, picture, buttons)


async def _post(
    context: BotContext, chat_id: int, caption: str, photo: bytes | None, markup: InlineKeyboardMarkup | None
) -> None:
    for _attempt in range(2):
        try:
            if photo is None:
                await context.bot.send_message(chat_id, caption, reply_markup=markup)
            else:
                await context.bot.send_photo(chat_id, photo, caption=caption, reply_markup=markup)
            return
        except ChatMigrated as moved:
            await context.service.move_chat(chat_id, moved.new_chat_id)
            chat_id = moved.new_chat_id
        except TelegramError as why:  # the bot was removed from the group, say; the play itself stands
            log.warning("could not post to the game's chat %s: %s", chat_id, why)
            return
