"""/solve and its buttons: the best play as a picture, "I played this", and the other objective.

The answer carries a fingerprint of the position it was solved for. "I played
this" applies the play that was shown (kept in the database before the
answer is sent, ``bot.telegram.suggestions``) when the fingerprint still
matches the game; a changed table or rack makes the button say so instead of
playing something else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable
from typing import Any

from telegram import Message, Update
from telegram.error import BadRequest

from bot.coach.simpler import MOST_MOVES
from bot.game import GameState, PlayerState
from bot.game.errors import AlreadyAnswered, NoTiles, NotYourTurn, StaleSuggestion
from bot.game.plays import check_suggestion, opening_due, play_turn_check
from bot.game.seats import ensure_running
from bot.storage.service import Question
from bot.telegram import callbacks, coach, notices, suggestions, tips
from bot.telegram.asking import ask
from bot.telegram.chats import is_group, kind_of
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded, short
from bot.telegram.games import current_game, in_group_game, seat_of, speaker
from bot.telegram.handlers.racks import private_only
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.plays import coach_rows, post_play
from bot.telegram.runtime.deps import Deps
from bot.telegram.runtime.work import Answer, answer_for, shown, solve_position
from bot.telegram.sending import label, photo_coming, say, show
from bot.telegram.suggestions import SHOWN, fingerprint
from bot.telegram.tapping import game_tap
from bot.telegram.words import replies, texts
from bot.telegram.words import rules as rule_words
from bot.telegram.words.language import _
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD
from solver.solution import Objective, Solution
from solver.solve import solve
from solver.text import N_

log = logging.getLogger(__name__)


def solve_args(d: Deps, state: GameState, me: PlayerState, objective: Objective) -> tuple[Any, ...]:
    if me.unnamed:
        raise NoTiles(
            N_("you drew a tile in the group: tell me which first, like /draw {example}"),
            example=rule_words.example_draw(state.rules),
        )
    if not me.rack:
        raise NoTiles(
            N_("your rack is empty; send it first: /rack {example}"), example=rule_words.example_tiles(state.rules)
        )
    return (me.rack, state.table, state.rules, objective, opening_due(state, me.user_id), d.settings.solver_time_limit)


def start_solving(d: Deps, state: GameState, me: PlayerState, objective: Objective) -> asyncio.Future[Answer]:
    """Begin solving in the worker pool now (the caller may store things meanwhile)."""
    args = solve_args(d, state, me, objective)
    wording = picture_wording()
    work = d.solving_position(tiles_of(state, me), solve_position, *args, numbers=state.numbers, wording=wording)
    return asyncio.ensure_future(work)


async def answer_now(d: Deps, state: GameState, me: PlayerState, objective: Objective) -> Answer:
    """The player's best play now, with its moves and picture."""
    return await start_solving(d, state, me, objective)


async def solution_now(d: Deps, state: GameState, me: PlayerState, objective: Objective, stamp: str) -> Solution:
    """The play the answer showed (kept in the database); solved again only for an answer from before the
    shown plays were kept (the fingerprint proves the position is the same)."""
    shown = await shown_before(d, state, me, objective, stamp)
    if shown is not None:
        return shown
    rack, table, rules, objective, meld, limit = solve_args(d, state, me, objective)
    return await d.solving_position(
        tiles_of(state, me), solve, rack, table, rules, objective=objective, initial_meld=meld, time_limit=limit
    )


async def shown_before(d: Deps, state: GameState, me: PlayerState, objective: Objective, stamp: str) -> Solution | None:
    """The play last shown to this player for this objective, if it was shown for this very position."""
    try:
        kept = await d.service.question(suggestions.token(state.id, me.user_id, objective))
    except AlreadyAnswered:
        return None
    if kept is None or kept.payload.get("stamp") != stamp:
        return None
    return suggestions.rebuilt(kept.payload, state, me, objective)


async def same_as_shown(d: Deps, state: GameState, me: PlayerState, solution: Solution, shown: Objective) -> bool:
    """The new answer puts down exactly the tiles of the play already shown for the other objective."""
    before = await shown_before(d, state, me, shown, fingerprint(state, me, shown))
    return before is not None and Counter(before.placed) == Counter(solution.placed)


def tiles_of(state: GameState, me: PlayerState) -> int:
    """The position's size, which stands for its cost in the solver pool's queue."""
    return len(me.rack) + sum(len(s) for s in state.table)


async def send_answer(
    update: Update,
    context: BotContext,
    state: GameState,
    me: PlayerState,
    objective: Objective,
    pending: Awaitable[Answer] | None = None,
    *,
    instead_of: Objective | None = None,
) -> None:
    """Solve (or take ``pending``, a solve already started for this position) and send the picture. Asked
    ``instead_of`` another objective, a play that is the same as the one shown says so rather than repeat it."""
    chat, _user = speaker(update)
    d = context.deps
    async with photo_coming(context, chat):
        onto = onto_table(d, state, me, objective)
        try:
            answer = await (pending if pending is not None else answer_now(d, state, me, objective))
        except BaseException:
            if onto is not None:
                onto.cancel()
            raise
        better = await places_more(onto, answer.solution)
    solution = answer.solution
    if answer.picture is None:
        markup = replies.melded_buttons(state.id, objective) if better is not None else replies.unseen_buttons(state.id)
        explain = await tips.once(context, state, me.user_id, tips.DRAW)
        await say(update, context, replies.no_play(solution, better, explain=explain), markup)
        return
    if instead_of is not None and await same_as_shown(d, state, me, solution, instead_of):
        await say(update, context, replies.same_play(objective))
        return
    await present(update, context, state, me, answer, better)


async def present(
    update: Update,
    context: BotContext,
    state: GameState,
    me: PlayerState,
    answer: Answer,
    better: Solution | None = None,
) -> None:
    """Send a play's picture and moves (``answer``, with a play) as the answer to this player, with its buttons
    ("I played this", the other objective, the unseen tiles, a simpler play under more than three moves) and,
    under the best play, the hold-back advice when it differs. The play is kept first as the shown suggestion."""
    d = context.deps
    solution = answer.solution
    assert answer.picture is not None, "only a play is presented"
    objective = solution.objective
    stamp = fingerprint(state, me, objective)
    # kept before it is shown: "I played this" must find it in any process, after any restart
    shown = suggestions.payload(solution, stamp)
    await d.service.remember(suggestions.token(state.id, me.user_id, objective), state.id, me.user_id, SHOWN, shown)
    markup = replies.solve_buttons(
        state.id, solution, stamp, melded=better is not None, simpler=len(answer.moves) > MOST_MOVES
    )
    notes = [replies.melded_note(better) if better is not None else "", coach.hold_back_line(state, me, solution)]
    note = "\n".join(n for n in notes if n)
    await show(update, context, answer.picture, replies.solve_caption(solution, answer.moves, note), markup)


async def answer_with_best_play(update: Update, context: BotContext, state: GameState, me: PlayerState) -> None:
    """Once a rack and a table are complete (a keyboard's Done, a photo's confirmation), the answer is the best
    play, as /solve's (nothing more while a tile drawn is still to be named, or once the game is over)."""
    if state.playing and me.rack and not me.unnamed:
        await send_answer(update, context, state, me, Objective.TILES)


def onto_table(d: Deps, state: GameState, me: PlayerState, objective: Objective) -> asyncio.Future[Solution] | None:
    """For a player not yet melded in a game of their own, with a table to play onto: the best play as if the
    meld were made, begun now beside the opening, so the answer can offer it (a newcomer mid-game may simply
    not have said /meld). In a group's game the opening is the game's: it is made by playing it."""
    if me.melded or not me.rack or not state.table or state.is_group:
        return None
    rack, table, rules, objective, _meld, limit = solve_args(d, state, me, objective)
    work = d.solving_position(
        tiles_of(state, me), solve, rack, table, rules, objective=objective, initial_meld=False, time_limit=limit
    )
    return asyncio.ensure_future(work)


async def places_more(onto: asyncio.Future[Solution] | None, opening: Solution) -> Solution | None:
    """The play onto the table, if it puts down more than the opening does (by the answer's own objective).
    A table too large to solve with leaves the opening to stand alone: it was answered, so it is shown."""
    if onto is None:
        return None
    try:
        melded = await onto
    except RummikubError as why:
        log.info("no play onto the table to offer beside the opening: %s", why)
        return None
    if opening.objective is Objective.POINTS:
        return melded if melded.points_placed > opening.points_placed else None
    return melded if melded.tiles_placed > opening.tiles_placed else None


@guarded
async def solve_command(update: Update, context: BotContext) -> None:
    chat, user = speaker(update)
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
    _chat, user = speaker(update)
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
    chat, user = speaker(update)
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
    chat, _user = speaker(update)
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
    await context.bot.send_photo(chat.id, answer.picture, caption=caption[: CAPTION_LIMIT])
