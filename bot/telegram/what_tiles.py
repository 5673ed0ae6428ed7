"""The question a photo's reading or typed bare tiles raise: what are these tiles (my rack, tiles I drew, the
table)? Its answers are ``handlers.photos.photo_answered``'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import Update

from bot.game import GameState
from bot.game.codec import encode_tiles
from bot.telegram.asking import ask
from bot.telegram.context import BotContext
from bot.telegram.words import replies
from bot.telegram.words.language import _
from solver.text import N_
from solver.tiles import Tile

#: what the tiles may be (the question's options)
RACK, TABLE, DRAWN, PLAYED, FIX = "rack", "table", "drawn", "played", "fix"
#: the kind of question (``choices.kind``) a photo's reading waits as
PHOTO = "photo"
#: the options' labels for typed tiles
TYPED_LABELS = {RACK: N_("My rack"), TABLE: N_("The table"), DRAWN: N_("Tiles I drew")}


async def ask_what_tiles(update: Update, context: BotContext, state: GameState, tiles: Sequence[Tile]) -> None:
    """Typed bare tiles: the same question as a photo's reading (the tiles wait in the database, a double
    tap stores them once, in any process)."""
    _chat, user = context.where, context.who
    options = [RACK, DRAWN, TABLE]
    payload: dict[str, Any] = {"tiles": encode_tiles(tiles), "sets": None, "loose": [], "options": options}
    text = _("{tiles}: what are these tiles?").format(tiles=replies.tiles_text(tiles, state.rules))
    await ask(
        context, context.where, state, user.id, PHOTO, text, [_(TYPED_LABELS[o]) for o in options], payload,
        may_answer=[user.id], reply_to=update.message,
    )  # fmt: skip
