"""/hint and its buttons: the best play told a level at a time (issue 24, part 1).

Level 1 says whether there is a play and how many tiles it lays (or that the opening needs the meld), level 2
where to look, level 3 which rack tiles go down (``bot.coach.hints``), level 4 the whole play, as /solve shows
it. Every level is read off the one answer solved at the first (kept in the database, ``bot.telegram.coach``),
so no level promises a play that is not there, and the play shown at the end is the play the hints told of.
Each button carries the kept answer's token and the level it asks for; once the table or the rack changes,
the answer's fingerprint no longer matches and the button says so, changing nothing. /hint typed again in the
same position gives the next level.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.coach.hints import hint
from bot.game import GameState, PlayerState
from bot.game.errors import StaleSuggestion
from bot.game.plays import opening_due
from bot.telegram import callbacks, coach
from bot.telegram.answering import present, solve_args, tiles_of
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.privacy import private_only
from bot.telegram.runtime.work import answer_for
from bot.telegram.sending import photo_coming, say
from bot.telegram.tapping import seated_at, tap
from bot.telegram.words import coach as words
from bot.telegram.words import replies
from bot.telegram.words.language import _, spoken
from bot.telegram.words.picture import picture_wording
from bot.telegram.words.texts import STALE_BUTTON as STALE
from solver.errors import RummikubError
from solver.solution import Objective, Solution
from solver.solve import solve

#: the last level: the whole play
WHOLE = 4


@guarded
async def hint_command(update: Update, context: BotContext) -> None:
    """/hint: the first level for a new position; in the position of the last hint, the next level."""
    chat, user = context.where, context.who
    if is_group(chat):
        await private_only(update, context, holds_tiles=False)
        return
    d = context.deps
    state = await current_game(context, chat, user)
    me = seat_of(state, user)
    kept = await coach.kept_hint(d, coach.hint_token(state.id, me.user_id))
    solution = coach.hinted(kept, state, me) if kept is not None else None
    if kept is not None and solution is not None:
        level = int(kept.payload.get("level", 0)) + 1
        if level <= WHOLE and (level == 1 or solution.has_play):
            await coach.note_level(d, kept, level)
            await send_hint(update, context, state, me, solution, kept.token, level)
            return
    solution = await solved(context, state, me)
    token = await coach.keep_hint(d, state, me, solution, 1)
    await send_hint(update, context, state, me, solution, token, 1)


async def solved(context: BotContext, state: GameState, me: PlayerState) -> Solution:
    """The player's best play now (most tiles; the opening while it is due), which every level reads."""
    d = context.deps
    rack, table, rules, _objective, meld, limit = solve_args(d, state, me, Objective.TILES)
    assert meld == opening_due(state, me.user_id)
    return await d.solving_position(
        tiles_of(state, me), solve, rack, table, rules, objective=Objective.TILES, initial_meld=meld, time_limit=limit
    )


@guarded
async def hint_button(update: Update, context: BotContext) -> None:
    """A hint's button: the level it names, from the answer kept under its token, if the position is the same."""
    tapping = tap(update, context, callbacks.parse_hint)
    query, user, tapped = tapping.query, tapping.user, tapping.data
    d = context.deps
    kept = await coach.kept_hint(d, tapped.token)
    if kept is None or kept.user_id != user.id:
        raise RummikubError(STALE)
    state, me = await seated_at(context, kept.game_id, user)
    solution = coach.hinted(kept, state, me)
    if solution is None:
        raise StaleSuggestion(words.HINT_STALE)
    await query.answer()
    await coach.note_level(d, kept, tapped.level)
    await send_hint(update, context, state, me, solution, kept.token, tapped.level)


async def send_hint(
    update: Update, context: BotContext, state: GameState, me: PlayerState, solution: Solution, token: str, level: int
) -> None:
    """The hint at ``level`` with the button for the next one; level 4 (or past the last level there is) the
    whole play, as /solve answers."""
    told = hint(solution, level, state.numbers) if level < WHOLE else None
    if told is None and solution.has_play:
        await whole_play(update, context, state, me, solution)
        return
    if told is None:
        told = hint(solution, 1, state.numbers)
        assert told is not None
    text = _(words.HINT_HEAD).format(level=level, text=spoken(told.text))
    if not solution.has_play:
        await say(update, context, text, replies.unseen_buttons(state.id))
        return
    more = level + 1 < WHOLE
    label = _(words.MORE_HINT_BUTTON).format(level=level + 1) if more else _(words.SHOW_PLAY_BUTTON)
    button = InlineKeyboardButton(label, callback_data=callbacks.hint(token, level + 1))
    await say(update, context, text, InlineKeyboardMarkup([[button]]))


async def whole_play(
    update: Update, context: BotContext, state: GameState, me: PlayerState, solution: Solution
) -> None:
    """Level 4: the answer the hints were read from, with its picture, moves and buttons."""
    chat = context.where
    d = context.deps
    async with photo_coming(context, chat):
        answer = await d.solving(answer_for, solution, numbers=state.numbers, wording=picture_wording())
    await present(update, context, state, me, answer)
