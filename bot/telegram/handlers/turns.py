"""A turn without a play: /draw (and the group's "I drew" button), /pass on an empty pool (``drawing``)."""

from __future__ import annotations

import logging

from telegram import Message, Update
from telegram.error import TelegramError

from bot.telegram import callbacks
from bot.telegram import parsing as typed
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.drawing import record_draw
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.keys import open_keyboard
from bot.telegram.parsing import command_text
from bot.telegram.tapping import game_tap
from bot.telegram.words import keyboard
from solver.errors import RummikubError
from solver.text import N_

log = logging.getLogger(__name__)


@guarded
async def draw(update: Update, context: BotContext) -> None:
    """/draw: in a group the speaker drew (the tile is named in private); in private /draw 7K draws it (or
    names a tile drawn in the group), /draw alone opens the tile keyboard."""
    chat, user = context.where, context.who
    state = await current_game(context, chat, user)
    seat_of(state, user)
    assert update.message is not None and update.message.text is not None
    text = command_text(update.message.text)
    if is_group(chat):
        if text:  # a tile typed in the group: not repeated, not stored; the draw is told all the same
            await _delete(update.message)
        await record_draw(context, chat, user, state, (), reply_to=update.message)
        return
    if not text:
        await open_keyboard(update, context, state, keyboard.DRAW)
        return
    await record_draw(context, chat, user, state, typed.tiles(text, state.rules), reply_to=update.message)


@guarded
async def pass_turn(update: Update, context: BotContext) -> None:
    """/pass: a turn without a play when the pool is empty (with tiles in it, that is a draw)."""
    chat, user = context.where, context.who
    state = await current_game(context, chat, user)
    seat_of(state, user)
    await record_draw(context, chat, user, state, (), passing=True, reply_to=update.message)


@guarded
async def drew_button(update: Update, context: BotContext) -> None:
    """The group's "I drew a tile" (or "I pass" on an empty pool) under a post that names whose turn it is."""
    tap = await game_tap(update, context, callbacks.parse_drew, running=False)
    query, chat, user, tapped, state = tap.query, tap.chat, tap.user, tap.data, tap.state
    if state.turn != tapped.turn:  # a tap on an earlier turn's button (a second tap, say): nothing is drawn
        raise RummikubError(N_("This button was for an earlier turn; the turn has moved on"))
    await query.answer()
    await record_draw(context, chat, user, state, (), passing=state.pool == 0)


async def _delete(message: Message) -> None:
    try:
        await message.delete()
    except TelegramError as why:  # not an admin: the message stays, but the tile is neither stored nor repeated
        log.debug("could not delete a draw message: %s", why)
