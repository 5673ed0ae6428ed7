"""Words to one player alone, in their private chat: what the group must not read.

A stored rack that a play or a table no longer agrees with, and a tile drawn in the group that the player
still has to name, are told to that player in private, in the language they chose (else the sender's). A
player who never opened a private chat with the bot cannot be written to: that is logged, and the group's
answer already says what to do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.game import GameState
from bot.telegram.context import BotContext
from bot.telegram.sending import language_there
from bot.telegram.words import replies
from bot.telegram.words import rules as rule_words
from bot.telegram.words.language import _, speaking
from solver.notation import format_tiles
from solver.tiles import Tile

log = logging.getLogger(__name__)


async def tell(
    context: BotContext, state: GameState, user_id: int, text: str, markup: InlineKeyboardMarkup | None = None
) -> bool:
    """Send ``text`` (already in the player's words) to the player's private chat; False if they cannot get it."""
    try:
        await context.bot.send_message(user_id, text, reply_markup=markup)
    except TelegramError as why:  # they never opened a private chat with the bot: nothing to tell them in
        log.info("could not write to player %s in private: %s", user_id, why)
        return False
    return True


async def racks_trimmed(context: BotContext, state: GameState, players: Iterable[int]) -> None:
    """Each player whose stored rack gave up tiles that the table (or another rack told since) now holds."""
    for user_id in players:
        p = state.player(user_id)
        if p is None or not p.active:
            continue
        with speaking(await language_there(context, user_id)):
            text = replies.game_name(state) + _(
                "Your rack as I had it held tiles that are now elsewhere in the game (a play, or a rack told since), "
                "so I no longer count them as yours. Send your rack again: /rack {example}"
            ).format(example=rule_words.example_tiles(state.rules))
        await tell(context, state, user_id, text)


async def rack_mismatch(
    context: BotContext, state: GameState, user_id: int, placed: Iterable[Tile], lacked: Iterable[Tile]
) -> None:
    """A play recorded for the player (by someone else) with tiles their stored rack did not hold: the rack is
    forgotten, and they are asked for it again."""
    with speaking(await language_there(context, user_id)):
        text = replies.game_name(state) + _(
            "Your play of {tiles} is recorded, but your rack as I had it did not hold {lacked}, so I have "
            "forgotten it. Send your rack again: /rack {example}"
        ).format(
            tiles=replies.tiles_text(list(placed), state.rules),
            lacked=format_tiles(lacked, state.rules),
            example=rule_words.example_tiles(state.rules),
        )
    await tell(context, state, user_id, text)
