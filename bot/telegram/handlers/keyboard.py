"""The tile keyboard: ``/rack``, ``/draw`` or ``/left`` alone opens buttons to tap the tiles instead of typing them.

The tiles tapped so far are kept in the database (a question, ``GameService.amend_question``), not in this
process, so any bot process can take the next tap; the message's text shows them, edited in place after each
tap. Done stores them through the same steps as typing ``/rack …``, ``/draw …`` or ``/left …``, answering the
question in the same transaction: a second Done (or a tap after it) finds it gone and changes nothing.
"""

from __future__ import annotations

import contextlib

from telegram import Message, Update
from telegram.error import BadRequest

from bot.game import GameState
from bot.game.errors import AlreadyAnswered
from bot.telegram import callbacks, notices
from bot.telegram.answering import answer_with_best_play
from bot.telegram.context import BotContext
from bot.telegram.drawing import record_draw
from bot.telegram.ending import tell_left
from bot.telegram.errors import guarded
from bot.telegram.games import seat_of
from bot.telegram.keys import KEYS
from bot.telegram.sending import label
from bot.telegram.tapping import tap
from bot.telegram.words import keyboard, replies, texts
from bot.telegram.words import rules as rule_words
from solver.deck import DeckError, check_deck
from solver.errors import RummikubError
from solver.notation import parse_tiles
from solver.tiles import Tile

#: More tiles than this are not taken by taps (a whole deck is 106; no rack comes near)
MOST_TILES = 60


@guarded
async def tapped(update: Update, context: BotContext) -> None:
    """A key: add the tile, take the last one back (⌫), or store them all (Done)."""
    tapping = tap(update, context, callbacks.parse_key)
    query, chat, user, pressed = tapping.query, tapping.chat, tapping.user, tapping.data
    service = context.service
    try:
        question = await service.question(pressed.token)
    except AlreadyAnswered:
        raise RummikubError(keyboard.GONE, mode="rack") from None
    payload = question.payload
    mode = payload.get("mode")
    if question.kind != KEYS or payload.get("chat") != chat.id or mode not in keyboard.MODES:
        raise RummikubError(texts.STALE_BUTTON)
    if user.id not in payload.get("may_answer", []):
        raise RummikubError(keyboard.NOT_YOURS)
    state = await service.game(question.game_id)
    context.game = state
    tiles = parse_tiles(" ".join(str(t) for t in payload.get("tiles", [])), state.rules)
    if pressed.key == callbacks.DONE:
        await _done(update, context, state, mode, pressed.token, tiles)
        return
    if pressed.key == callbacks.DELETE:
        del tiles[-1:]
    else:
        tiles.append(_addable(pressed.key, tiles, state, user.id, mode))
    try:
        await service.amend_question(pressed.token, {**payload, "tiles": [str(t) for t in tiles]})
    except AlreadyAnswered:
        raise RummikubError(keyboard.GONE, mode=mode) from None
    await query.answer()
    await _show(update, context, keyboard.text(mode, tiles, state.rules), pressed.token, state)


def _addable(name: str, tiles: list[Tile], state: GameState, user_id: int, mode: str) -> Tile:
    """The tile a key names, when the deck holds one more of it besides the table's, the tiles tapped and
    (for a draw) the rack's; else the reason, as an error, so a tap never builds what Done would refuse."""
    (tile,) = parse_tiles(name, state.rules)  # a colour outside the game's is refused here, as typed
    me = state.player(user_id)
    rack = me.rack if mode == keyboard.DRAW and me is not None else ()
    try:  # the deck's own count (solver.deck), as Done's store will check it
        check_deck(state.rules, [*tiles, tile], [t for s in state.table for t in s.tiles], rack)
    except DeckError:
        raise RummikubError(keyboard.NO_MORE, copies=state.rules.copies_of(tile), tile=tile) from None
    if len(tiles) >= MOST_TILES:
        raise RummikubError(keyboard.FULL)
    return tile


async def _done(
    update: Update, context: BotContext, state: GameState, mode: str, token: str, tiles: list[Tile]
) -> None:
    """Store the tiles as ``/rack …``, ``/draw …`` or ``/left …`` would, answering the keyboard's question once."""
    query = update.callback_query
    assert query is not None
    chat, user = context.where, context.who
    if not tiles:
        raise RummikubError(keyboard.EMPTY_DONE[mode], example=rule_words.example_tiles(state.rules))
    service = context.service
    try:
        if mode == keyboard.RACK:
            changed = await service.set_rack(state.id, user.id, tiles, answering=token)
            await query.answer()
            me = seat_of(changed.state, user)
            await _show(update, context, replies.rack_text(me, state.rules), None, state)
            await notices.racks_trimmed(context, changed.state, changed.trimmed)
            await answer_with_best_play(update, context, changed.state, me)
        elif mode == keyboard.DRAW:
            await record_draw(context, chat, user, state, tiles, answering=token)
            await query.answer()
            await _show(update, context, keyboard.text(mode, tiles, state.rules), None, state)
        else:
            await tell_left(context, chat, user, state, tiles, answering=token)
            await query.answer()
            await _show(update, context, keyboard.text(mode, tiles, state.rules), None, state)
    except AlreadyAnswered:
        raise RummikubError(keyboard.GONE, mode=mode) from None


async def _show(update: Update, context: BotContext, text: str, token: str | None, state: GameState) -> None:
    """The keyboard's message, edited in place: the tiles so far and the keys, or (``token`` None) the result."""
    query = update.callback_query
    assert query is not None
    chat = context.where
    markup = keyboard.markup(token, state.rules) if token is not None else None
    if isinstance(query.message, Message):
        with contextlib.suppress(BadRequest):  # "message is not modified": the same tiles again
            await query.message.edit_text(label(context, chat) + text, reply_markup=markup)
