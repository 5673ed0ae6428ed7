"""Opening the tile keyboard: a question kept in the database whose buttons are tiles (``handlers.keyboard``
takes the taps). ``/rack`` or ``/draw`` alone open it, and so does a draw told in the group (in the drawer's
private chat, to name the tile)."""

from __future__ import annotations

from telegram import Update

from bot.game import GameState
from bot.telegram.context import BotContext
from bot.telegram.sending import say
from bot.telegram.words import keyboard
from bot.telegram.words import rules as rule_words
from solver.errors import RummikubError

#: The questions' kind in the ``choices`` table
KEYS = "keys"


async def open_keyboard(update: Update, context: BotContext, state: GameState, mode: str, before: str = "") -> None:
    """Send the keyboard for ``mode`` (``keyboard.RACK``, ``keyboard.DRAW``, ``keyboard.LEFT``), its tiles kept as
    a question."""
    chat, user = context.where, context.who
    token = await keyboard_question(context, state, chat.id, user.id, mode)
    await say(update, context, keyboard.text(mode, [], state.rules, before), keyboard.markup(token, state.rules))


async def keyboard_question(context: BotContext, state: GameState, chat_id: int, user_id: int, mode: str) -> str:
    """Keep a tile keyboard's question for ``user_id`` in the private chat ``chat_id``; its token."""
    if not keyboard.fits(state.rules):
        rules = state.rules
        example = rule_words.example_draw(rules) if mode == keyboard.DRAW else rule_words.example_tiles(rules)
        raise RummikubError(keyboard.TOO_MANY_KEYS, mode=mode, example=example)
    payload = {"chat": chat_id, "may_answer": [user_id], "mode": mode, "tiles": []}
    return await context.service.ask(state.id, user_id, KEYS, payload)
