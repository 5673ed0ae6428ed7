"""The bot joining a group: a greeting with a **New game** button, so nobody has to know ``/new`` first."""

from __future__ import annotations

import logging

from telegram import ChatMember, ChatMemberRestricted, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError

from bot.telegram import callbacks
from bot.telegram.chats import is_group, kind_of
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.starting import start_new
from bot.telegram.words import texts
from bot.telegram.words.language import _
from solver.errors import RummikubError
from solver.rules import STANDARD

log = logging.getLogger(__name__)

_IN = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER)


def _inside(member: ChatMember) -> bool:
    return member.status in _IN or (isinstance(member, ChatMemberRestricted) and member.is_member)


@guarded
async def arrived(update: Update, context: BotContext) -> None:
    """The bot's own membership changed: greet a group it was just added to; say nothing otherwise (made an
    admin, removed, or a private chat blocked or unblocked)."""
    change = update.my_chat_member
    if change is None or not is_group(change.chat):
        return
    if _inside(change.old_chat_member) or not _inside(change.new_chat_member):
        return
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(_(texts.NEW_GAME_BUTTON), callback_data=callbacks.NEW_GAME)]])
    try:
        await context.bot.send_message(change.chat.id, _(texts.GREET_GROUP), reply_markup=markup)
    except TelegramError as why:  # added without the right to write: nothing to tell, and nobody to tell it
        log.info("could not greet group %s: %s", change.chat.id, why)


@guarded
async def new_game_button(update: Update, context: BotContext) -> None:
    """The greeting's New game: a game with the standard rules, unless the group already has one."""
    query = update.callback_query
    assert query is not None and query.data is not None
    chat = context.where
    if not callbacks.is_new_game(query.data, kind_of(chat)):
        raise RummikubError(texts.STALE_BUTTON)
    if await context.service.find_active_game(chat.id) is not None:
        raise RummikubError(texts.GAME_ALREADY)
    await query.answer()
    await start_new(update, context, STANDARD, replace=False)
