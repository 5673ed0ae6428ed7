"""A simpler play (issue 24, part 5): under an answer of more than three moves, the best play a child can
follow in at most three (``bot.coach.simpler``), with its picture and moves, and the tiles it gives up."""

from __future__ import annotations

from telegram import Update

from bot.coach.simpler import simpler
from bot.game.errors import StaleSuggestion
from bot.telegram import callbacks
from bot.telegram.answering import solution_now, tiles_of
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.runtime.work import answer_for
from bot.telegram.sending import photo_coming, say, show
from bot.telegram.suggestions import fingerprint
from bot.telegram.tapping import game_tap
from bot.telegram.words import coach as words
from bot.telegram.words import replies
from bot.telegram.words.language import _, spoken
from bot.telegram.words.picture import picture_wording


@guarded
async def simpler_button(update: Update, context: BotContext) -> None:
    tap = await game_tap(update, context, callbacks.parse_simpler)
    query, chat, tapped, state, me = tap.query, tap.chat, tap.data, tap.state, tap.me
    d = context.deps
    objective = replies.objective_of(tapped.objective)
    if fingerprint(state, me, objective) != tapped.stamp:
        raise StaleSuggestion(words.SIMPLER_STALE)
    await query.answer()
    async with photo_coming(context, chat):
        best = await solution_now(d, state, me, objective, tapped.stamp)
        found = await d.solving_position(tiles_of(state, me), simpler, best)
        answer = None
        if found is not None:
            answer = await d.solving(answer_for, found.solution, numbers=state.numbers, wording=picture_wording())
    if found is None or answer is None or answer.picture is None:
        await say(update, context, _(words.NO_SIMPLER))
        return
    caption = replies.solve_caption(found.solution, answer.moves, head=spoken(found.text()))
    await show(update, context, answer.picture, caption)
