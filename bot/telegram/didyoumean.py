"""Did you mean …? A message the bot could not read is answered with what was wrong and, where a right
reading is near (``mending``), a button for each: a tap reads that reading as if it had been sent.

The question is taken before the reading is handled: a crash in between loses the tap (the player taps a
stale button and types it again), never does a draw or a play twice.
"""

from __future__ import annotations

import html

from telegram import Update

from bot.game import GameError
from bot.storage.service import Question
from bot.telegram import mending
from bot.telegram.asking import ask
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.games import current_game
from bot.telegram.retyping import as_if_sent
from bot.telegram.words import texts
from bot.telegram.words.language import _
from solver.errors import RummikubError
from solver.text import N_

#: the questions' kind
MEANT = "meant"

DID_YOU_MEAN = N_("Did you mean {reading}?")
ONE_OF_THESE = N_("Did you mean one of these?")


async def offer(update: Update, context: BotContext, error: str) -> bool:
    """Answer an unreadable message with ``error`` (in the reader's words) and the nearest right readings as
    buttons; False when there is none to offer (the caller says ``error`` alone)."""
    message = update.message
    if message is None or message.text is None:
        return False
    chat, user = context.where, context.who
    state = context.game
    if state is None:  # the mistake came before the handler looked for the game
        try:
            state = await current_game(context, chat, user, create=False)
        except GameError:
            return False
    if not state.running:
        return False
    found = mending.readings(message.text, state.rules, group=is_group(chat), bot_username=context.bot.username)
    if not found:
        return False
    if len(found) == 1:
        question = _(DID_YOU_MEAN).format(reading=f"<code>{html.escape(found[0])}</code>")
    else:
        question = _(ONE_OF_THESE)
    payload = {"readings": found, "message": message.message_id}
    await ask(
        context, chat, state, user.id, MEANT, f"{html.escape(error)}\n{question}", found, payload,
        may_answer=[user.id], reply_to=message if is_group(chat) else None, html=True,
    )  # fmt: skip
    return True


async def meant_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    """The reading tapped is read as the message the player sent, by the handler it goes to."""
    readings = question.payload.get("readings", [])
    if not 0 <= option < len(readings):
        raise RummikubError(texts.STALE_BUTTON)
    await context.service.drop_question(question.token)
    await as_if_sent(update, context, str(readings[option]), int(question.payload.get("message", 0)))
