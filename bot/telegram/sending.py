"""Sending replies: text, photos with the "sending a photo" action, and posts to a group's chat.

A post to a group that has become a supergroup fails with ``ChatMigrated``;
the game then follows the chat to its new id and the post is sent again.
"""

from __future__ import annotations

import logging

from telegram import Chat, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatAction
from telegram.error import ChatMigrated, TelegramError
from telegram.ext import ContextTypes

from bot.storage import GameState
from bot.telegram.deps import deps
from bot.telegram.games import is_group

log = logging.getLogger(__name__)


async def say(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    *,
    quote: bool = False,
) -> Message:
    """Answer in the update's chat (quoting the message in groups, so the answer's subject is clear)."""
    chat = update.effective_chat
    assert chat is not None
    message = update.message
    if message is not None and (quote or is_group(chat)):
        return await message.reply_text(text, reply_markup=markup, do_quote=True)
    return await context.bot.send_message(chat.id, text, reply_markup=markup)


async def show(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    photo: bytes,
    caption: str,
    markup: InlineKeyboardMarkup | None = None,
) -> Message:
    chat = update.effective_chat
    assert chat is not None
    message = update.message
    if message is not None and is_group(chat):
        return await message.reply_photo(photo, caption=caption, reply_markup=markup, do_quote=True)
    return await context.bot.send_photo(chat.id, photo, caption=caption, reply_markup=markup)


async def uploading(context: ContextTypes.DEFAULT_TYPE, chat: Chat) -> None:
    """The "sending a photo" action while a picture is being made; a failure here must not stop the reply."""
    try:
        await context.bot.send_chat_action(chat.id, ChatAction.UPLOAD_PHOTO)
    except TelegramError as why:
        log.info("chat action failed in %s: %s", chat.id, why)


async def post_to_game_chat(
    context: ContextTypes.DEFAULT_TYPE, state: GameState, caption: str, photo: bytes | None = None
) -> None:
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
