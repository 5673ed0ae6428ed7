"""A group's answer to anything that would show a rack: the private chat's button, nothing stored."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from bot.game.errors import NoGame
from bot.telegram.context import BotContext
from bot.telegram.words import replies, texts
from bot.telegram.words.language import _
from solver.text import N_

log = logging.getLogger(__name__)


async def private_only(update: Update, context: BotContext, *, holds_tiles: bool = True) -> None:
    """The group answer to anything that would show a rack: the private-chat button, nothing stored.

    ``holds_tiles``: the message itself names rack tiles (so it is better deleted from the group).
    """
    chat = context.where
    message = update.message
    if message is not None and holds_tiles:
        try:
            await message.delete()
        except TelegramError as why:  # not an admin: the message stays, but we neither store nor repeat it
            log.debug("could not delete a rack message in %s: %s", chat.id, why)
    state = await context.service.find_active_game(chat.id)
    if state is None:
        raise NoGame(N_("no game is running in this group; /new starts one"))
    markup = replies.rack_button(context.bot.username, state.invite)
    await context.bot.send_message(chat.id, _(texts.PRIVATE_ONLY), reply_markup=markup)
