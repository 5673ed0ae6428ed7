"""/solve and its buttons: the best play as a picture, "I played this", and the other objective.

The answer carries a fingerprint of the position it was solved for. "I played
this" applies the play that was shown (kept in the database before the
answer is sent, ``bot.telegram.suggestions``) when the fingerprint still
matches the game; a changed table or rack makes the button say so instead of
playing something else.
"""

from __future__ import annotations

import contextlib
import logging

from telegram import Message, Update
from telegram.error import BadRequest

from bot.game import GameState, PlayerState
from bot.game.errors import NotYourTurn, StaleSuggestion
from bot.game.plays import check_suggestion, play_turn_check
from bot.game.seats import ensure_running
from bot.storage.service import Question
from bot.telegram import callbacks, coach, notices
from bot.telegram.answering import (
    send_answer,
    solution_now,
)
from bot.telegram.asking import ask
from bot.telegram.chats import is_group, kind_of
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded, short
from bot.telegram.games import current_game, in_group_game, seat_of
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.plays import coach_rows, post_play
from bot.telegram.privacy import private_only
from bot.telegram.runtime.work import answer_for, shown
from bot.telegram.sending import label, photo_coming, say
from bot.telegram.suggestions import fingerprint
from bot.telegram.tapping import game_tap
from bot.telegram.words import replies, texts
from bot.telegram.words.language import _
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD
from solver.solution import Objective
from solver.solve import solve
from solver.text import N_

log = logging.getLogger(__name__)


@guarded
async def solve_command(update: Update, context: BotContext) -> None:
    chat, user = context.where, context.who
    if is_group(chat):
        await private_only(update, context, holds_tiles=False)
        return
    state = await current_game(context, chat, user)
    await send_answer(update, context, state, seat_of(state, user), Objective.TILES)


@guarded
async def other_objective(update: Update, context: BotContext) -> None:
    """The "Most points instead" / "Most tiles instead" button: solve again for the other goal."""
    tap = await game_tap(update, context, callbacks.parse_other_objective)
    state, me = tap.state, tap.me
    await tap.query.answer()
    objective = replies.objective_of(tap.data.objective)
    shown = Objective.TILES if objective is Objective.POINTS else Objective.POINTS
    await send_answer(update, context, state, me, objective, instead_of=shown)


@guarded
async def melded_instead(update: Update, context: BotContext) -> None:
    """ "I have melded: play onto the table": the meld is noted, and the play onto the table is shown."""
    tap = await game_tap(update, context, callbacks.parse_melded_instead)
    user, tapped, state = tap.user, tap.data, tap.state
    d = context.deps
    await tap.query.answer(replies.melded_noted())
    state = context.game = await d.service.mark_melded(state.id, user.id)
    await send_answer(update, context, state, seat_of(state, user), replies.objective_of(tapped.objective))


SUGGESTION = "suggestion"


@guarded
async def played_this(update: Update, context: BotContext) -> None:
    """ "I played this": the suggestion goes onto the game; a group sees the play, never the rack. On someone
    else's turn the bot asks first (the turns in between are passed over, and said so)."""
    tap = await game_tap(update, context, callbacks.parse_played_this)
    query, chat, user, state, me = tap.query, tap.chat, tap.user, tap.state, tap.me
    code, stamp = tap.data.objective, tap.data.stamp
    objective = replies.objective_of(code)
    if fingerprint(state, me, objective) != stamp:  # a stale suggestion is said before anything is asked
        raise StaleSuggestion(N_("the table or your rack has changed since this suggestion; /solve again"))
    try:
        play_turn_check(state, user.id)
    except NotYourTurn as why:
        await query.answer()
        await ask(
            context, chat, state, user.id, SUGGESTION,
            _("{why}. Record this play as yours anyway? The turns before yours are passed over.").format(
                why=short(why)
            ),
            [_("Yes, I played it")], {"code": code, "stamp": stamp, "message": _message_id(query.message)},
            may_answer=[user.id],
        )  # fmt: skip
        return
    await play_suggestion(update, context, state, me, code, stamp, message_id=_message_id(query.message))
    await query.answer(_("Played!"))


def _message_id(message: object) -> int | None:
    return message.message_id if isinstance(message, Message) else None


async def suggestion_answered(update: Update, context: BotContext, question: Question, option: int) -> None:
    _chat, user = context.where, context.who
    state = await context.service.game(question.game_id)
    ensure_running(state)
    me = seat_of(state, user)
    payload = question.payload
    await play_suggestion(
        update, context, state, me, str(payload["code"]), str(payload["stamp"]),
        message_id=payload.get("message"), out_of_turn=True, answering=question.token,
    )  # fmt: skip


async def play_suggestion(
    update: Update,
    context: BotContext,
    state: GameState,
    me: PlayerState,
    code: str,
    stamp: str,
    *,
    message_id: int | None,
    out_of_turn: bool = False,
    answering: str | None = None,
) -> None:
    """Record the suggestion the button stands for, if the table and the rack are still as they were."""
    chat, user = context.where, context.who
    d = context.deps
    objective = replies.objective_of(code)
    if fingerprint(state, me, objective) != stamp:
        raise StaleSuggestion(N_("the table or your rack has changed since this suggestion; /solve again"))
    solution = await solution_now(d, state, me, objective, stamp)
    check_suggestion(state, me, solution)
    as_shown = await d.solving(shown, solution)  # recorded with the sets and numbers the answer showed
    played = await d.service.apply_suggestion(state.id, user.id, as_shown, out_of_turn=out_of_turn, answering=answering)
    if message_id is not None:
        with contextlib.suppress(BadRequest):  # too old to edit, or already without buttons
            await context.bot.edit_message_reply_markup(chat.id, message_id, reply_markup=None)
    after = played.state
    mine = seat_of(after, user)
    placed = replies.placed_text(as_shown)
    lines = [label(context, chat) + _("Played {tiles}.").format(tiles=placed)]
    if after.playing:
        lines.append(replies.rack_text(mine, after.rules))
    passed = [p.name for uid in played.skipped if (p := after.player(uid)) is not None]
    if passed:
        lines.append(_("Turn passed over: {names}.").format(names=", ".join(passed)))
    lines.append(replies.turn_line(after) if after.playing else replies.finish_text(after))
    markup = None if after.playing else replies.end_buttons(after)
    index = await coach.note_play(d, state, after, user.id, played.placed, added=played.added)
    markup = coach_rows(markup, after, user.id, index)
    await context.bot.send_message(chat.id, "\n".join(line for line in lines if line), reply_markup=markup)
    if in_group_game(after, chat):
        await post_play(context, state, played, recorder=user)
    await notices.racks_trimmed(context, after, played.trimmed)


@guarded
async def example(update: Update, context: BotContext) -> None:
    """The greeting's example, solved without touching any game."""
    query = update.callback_query
    assert query is not None and query.data is not None
    chat = context.where
    if not callbacks.is_example(query.data, kind_of(chat)):
        raise RummikubError(texts.STALE_BUTTON)
    await query.answer()
    d = context.deps
    rack = parse_tiles(texts.EXAMPLE_RACK, STANDARD)
    table = parse_table(texts.EXAMPLE_TABLE, STANDARD)
    async with photo_coming(context, chat):
        solution = await d.solving(solve, rack, table, STANDARD, time_limit=d.settings.solver_time_limit)
        answer = await d.solving(answer_for, solution, wording=picture_wording())
    caption = (
        replies.solve_caption(solution, answer.moves)
        + "\n"
        + _(
            "This is a play after the opening: until you send /meld (or play through me), I look for an opening "
            "worth 30 points in your rack alone.\nNow send yours: rack: … and table: … lines."
        )
    )
    if answer.picture is None:
        await say(update, context, replies.no_play(solution))
        return
    await context.bot.send_photo(chat.id, answer.picture, caption=caption[:CAPTION_LIMIT])
