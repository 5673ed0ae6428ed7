"""Sending replies: text, photos (with the "sending a photo" action during long work), posts to a group.

A post to a group that has become a supergroup fails with ``ChatMigrated``;
the game then follows the chat to its new id and the post is sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import Chat, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatAction
from telegram.error import ChatMigrated, TelegramError

from bot.game import GameState
from bot.telegram.context import BotContext
from bot.telegram.games import is_group
from bot.telegram.runtime.deps import deps
from bot.telegram.words import texts

log = logging.getLogger(__name__)


def label(context: BotContext, chat: Chat) -> str:
    """ "Family: " before a private reply about a group's game (so a player at two tables knows which);
    nothing in the group itself or about the chat's own game. An answer to an edited message says so first."""
    edit = texts.EDITED if context.edited else ""
    game = context.game
    if game is None or is_group(chat) or game.chat_id == chat.id:
        return edit
    return f"{edit}{game.title or 'Your group'}: "


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
    caption = (label(context, chat) + caption)[:1024]
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


async def post_to_game_chat(context: BotContext, state: GameState, caption: str, photo: bytes | None = None) -> None:
    """Tell the game's group (from a private chat): a picture with a caption, or just text."""
    chat_id = state.chat_id
    for _ in range(2):
        try:
            if photo is None:
                await context.bot.send_message(chat_id, caption)
            else:
                await context.bot.send_photo(chat_id, photo, caption=caption)
            return
        except ChatMigrated as moved:
            await deps(context).service.move_chat(chat_id, moved.new_chat_id)
            chat_id = moved.new_chat_id
        except TelegramError as why:  # the bot was removed from the group, say; the play itself stands
            log.warning("could not post to the game's chat %s: %s", chat_id, why)
            return
