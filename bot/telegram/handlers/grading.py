"""How did I do? and the game's review (issue 24, part 3), in the player's private chat.

Each play recorded while the bot knew the player's rack is kept as its turn began (``bot.telegram.coach``).
"How did I do?" under the play's answer solves the best play that was open to the same rack and table and
grades the play against it (``bot.coach.grade``): a play that missed tiles is shown the best one, with its
picture and moves. The review (its button under the game's end, or /review) grades every kept play of the
player's, in the solver pool, and names the turns that missed the most and the share of best plays.
"""

from __future__ import annotations

import asyncio

from telegram import Update

from bot.coach.grade import Grade, best_for, grade_play, grade_turn, review
from bot.game import GameState
from bot.game.errors import NoGame
from bot.telegram import callbacks, coach
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.privacy import private_only
from bot.telegram.runtime.work import answer_for
from bot.telegram.sending import photo_coming, say, show
from bot.telegram.tapping import tap
from bot.telegram.words import coach as words
from bot.telegram.words import replies
from bot.telegram.words.language import _, spoken
from bot.telegram.words.picture import picture_wording
from bot.telegram.words.texts import STALE_BUTTON as STALE
from solver.errors import RummikubError
from solver.text import N_


@guarded
async def how_did_i_do(update: Update, context: BotContext) -> None:
    tapping = tap(update, context, callbacks.parse_how_did)
    query, chat, user, tapped = tapping.query, tapping.chat, tapping.user, tapping.data
    d = context.deps
    kept = await coach.kept_turns(d, tapped.token)
    if kept is None or kept.user_id != user.id:
        raise RummikubError(STALE)
    entries = kept.payload.get("turns", [])
    if not 0 <= tapped.index < len(entries):
        raise RummikubError(words.TURN_GONE)
    state = context.game = await d.service.game(kept.game_id)
    entry = entries[tapped.index]
    record = coach.decoded(entry, state, tapped.index + 1)
    await query.answer()
    size = len(record.rack) + sum(len(s) for s in record.table)
    limit = d.settings.solver_time_limit
    async with photo_coming(context, chat):
        best = await d.solving_position(size, best_for, record, time_limit=limit)
        graded = grade_play(record.placed, best, turn=record.turn)
        answer = None
        if graded.grade is not Grade.BEST and best.has_play:
            numbers = coach.numbers_of(entry)
            answer = await d.solving(answer_for, best, numbers=numbers, wording=picture_wording())
    text = spoken(graded.text())
    if answer is None or answer.picture is None:
        await say(update, context, text)
        return
    head = f"{text}\n{replies.summary(best)}"
    await show(update, context, answer.picture, replies.solve_caption(best, answer.moves, head=head))


@guarded
async def review_button(update: Update, context: BotContext) -> None:
    tapping = tap(update, context, callbacks.parse_review)
    query, user, game_id = tapping.query, tapping.user, tapping.data
    state = context.game = await context.deps.service.game(game_id)
    if state.player(user.id) is None:
        raise RummikubError(STALE)
    await query.answer()
    await send_review(update, context, state, user.id)


@guarded
async def review_command(update: Update, context: BotContext) -> None:
    """/review: the review of the game this chat plays (or played last)."""
    chat, user = context.where, context.who
    if is_group(chat):
        await private_only(update, context, holds_tiles=False)
        return
    service = context.deps.service
    state = await service.tied_game(user.id)
    if state is None:
        try:
            state = await service.newest_game(chat.id)
        except NoGame:
            raise NoGame(N_("no game yet to review; send your rack to start one")) from None
    context.game = state
    await send_review(update, context, state, user.id)


async def send_review(update: Update, context: BotContext, state: GameState, user_id: int) -> None:
    """Every kept play of the player's in this game graded (in the solver pool), the share of best plays and
    the turns that missed the most."""
    chat = context.where
    d = context.deps
    kept = await coach.kept_turns(d, coach.turns_token(state.id, user_id))
    entries = kept.payload.get("turns", []) if kept is not None else []
    if not entries:
        await say(update, context, _(words.NO_TURNS))
        return
    records = [coach.decoded(entry, state, k + 1) for k, entry in enumerate(entries)]
    limit = d.settings.solver_time_limit
    async with photo_coming(context, chat):
        grades = await asyncio.gather(
            *(d.solving_position(len(r.rack) + sum(len(s) for s in r.table), grade_turn, r, limit) for r in records)
        )
    found = review(grades)
    lines = [_(words.REVIEW_HEAD), *(spoken(line) for line in found.lines())]
    await say(update, context, "\n".join(lines))
