"""Shortcut buttons (``callbacks.go``): /help's topics, /rack's Change, and the next steps offered beside an
answer that did not understand. A command shortcut is handled as if the player had typed it."""

from __future__ import annotations

from telegram import Update

from bot.telegram import callbacks
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.keys import open_keyboard
from bot.telegram.retyping import as_if_sent
from bot.telegram.sending import say
from bot.telegram.tapping import tap
from bot.telegram.words import keyboard, replies
from bot.telegram.words.help import topic_text


@guarded
async def tapped(update: Update, context: BotContext) -> None:
    tapping = tap(update, context, callbacks.parse_go)
    query, chat, user, name = tapping.query, tapping.chat, tapping.user, tapping.data
    await query.answer()
    if name.startswith("topic_"):
        await say(update, context, topic_text(name.removeprefix("topic_"), group=is_group(chat)))
    elif name == "keys":  # /rack's Change: the tile keyboard, the rack as it is above it
        state = await current_game(context, chat, user)
        me = seat_of(state, user)
        await open_keyboard(update, context, state, keyboard.RACK, replies.rack_text(me, state.rules))
    else:
        await as_if_sent(update, context, f"/{name}")
