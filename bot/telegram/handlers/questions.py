"""Answers to the questions the bot asked with buttons (``asking``): checked, then handed to their feature.

Data that is not one of ours, a question already answered, a tap in the wrong chat or by someone the
question is not for: each gets a short answer on the button, and nothing changes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping

from telegram import Message, Update
from telegram.error import BadRequest

from bot.game.errors import AlreadyAnswered
from bot.storage.service import Question
from bot.telegram import callbacks
from bot.telegram.context import BotContext
from bot.telegram.errors import Handler, guarded
from bot.telegram.tapping import tap
from bot.telegram.words import texts
from bot.telegram.words.language import _
from solver.errors import RummikubError
from solver.text import N_

Answered = Callable[[Update, BotContext, Question, int], Awaitable[None]]


def answered_by(features: Mapping[str, Answered]) -> Handler:
    """The handler of an answer's button, handing each question (by its kind) to the feature in ``features``
    that asked it (the app registers them: no handler imports another)."""

    @guarded
    async def answered(update: Update, context: BotContext) -> None:
        tapping = tap(update, context, callbacks.parse_answer)
        query, chat, user, answer = tapping.query, tapping.chat, tapping.user, tapping.data
        service = context.service
        try:
            question = await service.question(answer.token)
        except AlreadyAnswered:
            raise RummikubError(N_("This question was already answered")) from None
        context.game = await service.game(question.game_id)
        if question.payload.get("chat") != chat.id or question.kind not in features:
            raise RummikubError(texts.STALE_BUTTON)
        if user.id not in question.payload.get("may_answer", []):
            raise RummikubError(N_("This question is not yours to answer"))
        if answer.option is None:
            await service.drop_question(answer.token)
            await query.answer(_("Cancelled: nothing was recorded."))
        else:
            await features[question.kind](update, context, question, answer.option)
            await query.answer()
        if isinstance(query.message, Message):  # the question is answered: its buttons go
            with contextlib.suppress(BadRequest):
                await context.bot.edit_message_reply_markup(chat.id, query.message.message_id, reply_markup=None)

    return answered


async def stale(update: Update, context: BotContext) -> None:
    """A button no handler knows (an earlier version's, or forged data): it is answered, never left spinning."""
    if update.callback_query is not None:
        await update.callback_query.answer(_(texts.STALE_BUTTON), show_alert=True)
