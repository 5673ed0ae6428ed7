"""Questions typed in words (``intents``): the best play, help, whose turn, the pool, answered with the stored
position; anything else the bot cannot read gets a short answer with the two likeliest next steps as buttons.

In a group only a message that starts by naming the bot (``@rummi_bot whose turn?``) is a question for it.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.game import GameState
from bot.telegram import callbacks
from bot.telegram.answering import send_answer
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.games import current_game, seat_of
from bot.telegram.intents import Intent
from bot.telegram.privacy import private_only
from bot.telegram.sending import say
from bot.telegram.words import replies, texts
from bot.telegram.words import rules as rule_words
from bot.telegram.words.help import help_buttons, help_text
from bot.telegram.words.language import _
from solver.solution import Objective
from solver.text import N_

#: the next steps' buttons
STEPS = {
    "keys": N_("⌨️ Tap my rack"),
    "help": N_("❓ Help"),
    "solve": N_("💡 Best play"),
    "status": N_("📋 Table and rack"),
    "new": N_("🎲 New game"),
}


async def answer_question(update: Update, context: BotContext, intent: Intent) -> None:
    """Answer what ``intent`` asks, in this chat, with the game as stored."""
    chat, user = context.where, context.who
    group = is_group(chat)
    if intent is Intent.HELP:
        await say(update, context, help_text(group=group), help_buttons())
        return
    state = await current_game(context, chat, user)
    if intent is Intent.SOLVE:
        if group:  # a best play is for its player's eyes: the private chat's button
            await private_only(update, context, holds_tiles=False)
            return
        me = seat_of(state, user)
        if me.rack:
            await send_answer(update, context, state, me, Objective.TILES)
        else:
            await say(update, context, rule_words.send_rack(state.rules), next_steps(context, state))
        return
    if intent is Intent.TURN:
        await say(update, context, _whose_turn(state))
        return
    if state.is_group:
        await say(update, context, replies.pool_line(state))
    else:
        await say(update, context, _("In a game of your own I don't know the other racks, so I can't count the pool."))


def _whose_turn(state: GameState) -> str:
    if not state.running:
        return _("No game is on; /new starts one.")
    if state.finish is not None:
        return replies.finish_text(state)
    if len(state.active_players) < 2:
        return _("This is a game of your own: every turn is yours.")
    return replies.turn_line(state)


async def not_understood(update: Update, context: BotContext, state: GameState | None) -> None:
    """A short answer, and the two likeliest next steps as buttons."""
    await say(update, context, _(texts.NOT_UNDERSTOOD), next_steps(context, state))


def next_steps(context: BotContext, state: GameState | None) -> InlineKeyboardMarkup:
    """The two likeliest next steps: in private, tapping the rack in (none yet) or the best play (a rack known);
    in a group, a new game (none on) or the table."""
    chat, user = context.where, context.who
    if is_group(chat):
        names = ["status", "help"] if state is not None and state.running else ["new", "help"]
    else:
        me = state.player(user.id) if state is not None else None
        names = ["solve", "status"] if me is not None and me.rack else ["keys", "help"]
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(_(STEPS[name]), callback_data=callbacks.go(name)) for name in names]]
    )
