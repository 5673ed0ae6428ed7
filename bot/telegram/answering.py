"""The best play for a player's position: solved in the pool (started early, kept for the buttons), presented
with its picture, moves and buttons; the steps the solving, hint, unseen, simpler and message handlers share."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable
from typing import Any

from telegram import Update

from bot.coach.simpler import MOST_MOVES
from bot.game import GameState, PlayerState
from bot.game.errors import AlreadyAnswered, NoTiles
from bot.game.plays import opening_due
from bot.telegram import coach, suggestions, tips
from bot.telegram.context import BotContext
from bot.telegram.runtime.deps import Deps
from bot.telegram.runtime.work import Answer, solve_position
from bot.telegram.sending import photo_coming, say, show
from bot.telegram.suggestions import SHOWN, fingerprint
from bot.telegram.words import replies
from bot.telegram.words import rules as rule_words
from bot.telegram.words.picture import picture_wording
from solver.errors import RummikubError
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
    chat = context.where
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
