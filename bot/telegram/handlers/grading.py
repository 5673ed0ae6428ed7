"""How did I do? and the game's review (issue 24, part 3), in the player's private chat.

Each play recorded while the bot knew the player's rack is kept as its turn began (``bot.telegram.coach``).
"How did I do?" under the play's answer solves the best play that was open to the same rack and table and
grades the play against it (``bot.coach.grade``): a play that missed tiles is shown the best one, with its
picture and moves. The review (its button under the game's end, or /review) grades every kept play of the
player's, in the solver pool, and names the turns that missed the most and the share of best plays.
"""

from __future__ import annotations

import asyncio
from typing import Any

from telegram import Chat, Update, User
from telegram.error import Forbidden

from bot.coach.grade import Grade, best_for, grade_play, grade_turn, review
from bot.game import GameState
from bot.game.errors import NoGame
from bot.telegram import callbacks, coach
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.privacy import private_only
from bot.telegram.runtime.work import answer_for
from bot.telegram.sending import language_there, photo_coming, say, show
from bot.telegram.tapping import tap
from bot.telegram.words import coach as words
from bot.telegram.words import replies
from bot.telegram.words.language import _, speaking, spoken
from bot.telegram.words.picture import picture_wording
from bot.telegram.words.texts import STALE_BUTTON as STALE
from solver.errors import RummikubError
from solver.text import N_


@guarded
async def how_did_i_do(update: Update, context: BotContext) -> None:
    """The play graded against the best that was open to it, in the player's private chat (under a group's
    post, only the player may tap it: the answer shows their rack, so it goes to them alone)."""
    tapping = tap(update, context, callbacks.parse_how_did)
    query, chat, user, tapped = tapping.query, tapping.chat, tapping.user, tapping.data
    d = context.deps
    kept = await coach.kept_turns(d, tapped.token)
    if kept is None:
        raise RummikubError(STALE)
    state = context.game = await d.service.game(kept.game_id)
    if kept.user_id != user.id:
        player = state.player(kept.user_id)
        if not is_group(chat) or player is None:
            raise RummikubError(STALE)
        raise RummikubError(words.HOW_NOT_YOURS, name=player.name)
    entries = kept.payload.get("turns", [])
    if not 0 <= tapped.index < len(entries):
        raise RummikubError(words.TURN_GONE)
    if is_group(chat):
        await _graded_privately(context, state, user, entries[tapped.index], tapped.index)
        await query.answer(_(words.HOW_SENT))
        return
    await query.answer()
    text, picture = await _graded(context, chat, state, entries[tapped.index], tapped.index)
    if picture is None:
        await say(update, context, text)
    else:
        await show(update, context, picture, text)


async def _graded(
    context: BotContext, chat: Chat, state: GameState, entry: dict[str, Any], index: int
) -> tuple[str, bytes | None]:
    """The grade's words, and the best play's picture with its caption when the play missed tiles."""
    d = context.deps
    record = coach.decoded(entry, state, index + 1)
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
        return text, None
    head = f"{text}\n{replies.summary(best)}"
    return replies.solve_caption(best, answer.moves, head=head), answer.picture


async def _graded_privately(
    context: BotContext, state: GameState, user: User, entry: dict[str, Any], index: int
) -> None:
    """Under the group's post: the grade in the player's private chat, in its language ("Family: " first)."""
    with speaking(await language_there(context, user.id)):
        text, picture = await _graded(context, Chat(user.id, Chat.PRIVATE), state, entry, index)
        await _to_player(context, user, replies.game_name(state) + text, picture)


async def _to_player(context: BotContext, user: User, text: str, picture: bytes | None = None) -> None:
    """Words for the player alone, in their private chat (which they must have opened once)."""
    try:
        if picture is None:
            await context.bot.send_message(user.id, text)
        else:
            await context.bot.send_photo(user.id, picture, caption=text[:CAPTION_LIMIT])
    except Forbidden:  # the player never opened a private chat with the bot
        raise RummikubError(words.HOW_NO_CHAT) from None


@guarded
async def review_button(update: Update, context: BotContext) -> None:
    """The game's review for the player who taps (under the group's last post: sent to them in private)."""
    tapping = tap(update, context, callbacks.parse_review)
    query, chat, user, game_id = tapping.query, tapping.chat, tapping.user, tapping.data
    state = context.game = await context.deps.service.game(game_id)
    if state.player(user.id) is None:
        raise RummikubError(STALE)
    if not is_group(chat):
        await query.answer()
        await send_review(update, context, state, user.id)
        return
    with speaking(await language_there(context, user.id)):
        text = await review_text(context, Chat(user.id, Chat.PRIVATE), state, user.id)
        await _to_player(context, user, replies.game_name(state) + text)
    await query.answer(_(words.HOW_SENT))


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
    """The review, in this chat."""
    await say(update, context, await review_text(context, context.where, state, user_id))


async def review_text(context: BotContext, chat: Chat, state: GameState, user_id: int) -> str:
    """Every kept play of the player's in this game graded (in the solver pool), the share of best plays and
    the turns that missed the most."""
    d = context.deps
    kept = await coach.kept_turns(d, coach.turns_token(state.id, user_id))
    entries = kept.payload.get("turns", []) if kept is not None else []
    if not entries:
        return _(words.NO_TURNS)
    records = [coach.decoded(entry, state, k + 1) for k, entry in enumerate(entries)]
    limit = d.settings.solver_time_limit
    async with photo_coming(context, chat):
        grades = await asyncio.gather(
            *(d.solving_position(len(r.rack) + sum(len(s) for s in r.table), grade_turn, r, limit) for r in records)
        )
    found = review(grades)
    return "\n".join([_(words.REVIEW_HEAD), *(spoken(line) for line in found.lines())])
