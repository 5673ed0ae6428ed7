"""/unseen and the Unseen tiles button: the tiles the player has not seen, and their outs (issue 24, part 2).

The deck less the table less the player's rack, as a picture by colour and number (``render.unseen``), with
how many lie in the pool and on the other racks; then which unseen kinds of tile, drawn, would let the player
play (or play more; before the opening, open), and the odds of drawing one (``bot.coach.unseen``). Every kind
is solved with the rack: the solves go in batches to the solver pool, one batch a process, beside the picture.
"""

from __future__ import annotations

import asyncio

from telegram import Update

from bot.coach.unseen import Probed, probe, probes, summarise, unseen_of
from bot.game import GameState, PlayerState
from bot.game.plays import opening_due
from bot.telegram import callbacks
from bot.telegram.answering import solve_args, tiles_of
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.privacy import private_only
from bot.telegram.sending import photo_coming, show
from bot.telegram.tapping import game_tap
from bot.telegram.words.language import spoken
from bot.telegram.words.picture import picture_wording
from render.unseen import render_unseen
from solver.solution import Objective


@guarded
async def unseen_command(update: Update, context: BotContext) -> None:
    chat, user = context.where, context.who
    if is_group(chat):
        await private_only(update, context, holds_tiles=False)
        return
    state = await current_game(context, chat, user)
    await send_unseen(update, context, state, seat_of(state, user))


@guarded
async def unseen_button(update: Update, context: BotContext) -> None:
    """The Unseen tiles button under an answer: counted for the game as it is now."""
    tap = await game_tap(update, context, callbacks.parse_unseen)
    await tap.query.answer()
    await send_unseen(update, context, tap.state, tap.me)


async def send_unseen(update: Update, context: BotContext, state: GameState, me: PlayerState) -> None:
    chat = context.where
    d = context.deps
    solve_args(d, state, me, Objective.TILES)  # a rack to count from (else the answer says how to send it)
    seen = unseen_of(state, me.user_id)
    meld = opening_due(state, me.user_id)
    jobs = probes(me.rack, state.table, state.rules, seen, initial_meld=meld, parts=max(1, d.solver_count))
    size = tiles_of(state, me)
    async with photo_coming(context, chat):
        drawing = asyncio.ensure_future(
            d.solving(render_unseen, seen.tiles, state.rules, seen.pool, seen.on_racks, wording=picture_wording())
        )
        try:
            found = await asyncio.gather(*(d.solving_position(size, probe, job) for job in jobs))
        except BaseException:
            drawing.cancel()
            raise
        picture = await drawing
    results: list[Probed] = [p for batch in found for p in batch]
    outs = summarise(seen, results, initial_meld=meld)
    lines = [spoken(seen.text()), *(spoken(line) for line in outs.lines())]
    caption = "\n".join(lines)[:CAPTION_LIMIT]
    await show(update, context, picture, caption)
