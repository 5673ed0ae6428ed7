"""The end of a game in the chat: stopping it, the tiles left on each rack, the score and the totals.

When a player goes out (or nobody can play on, or the players stop the game) the others tell the tiles left
on their racks: typed (``/left 7R 8K``), tapped on the tile keyboard, or with one tap when the bot knows the
rack whole. Racks are shown at the end, as at the table, so the group reads each one. The last rack told
scores the game by the box (``bot.game.ending``) and the group reads the score, with the buttons for the
totals and for a new game with the same players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from telegram import Chat, InlineKeyboardMarkup, Message, User

from bot.game import GameState
from bot.telegram import notices
from bot.telegram.context import BotContext
from bot.telegram.games import in_group_game
from bot.telegram.sending import label, post_to_game_chat
from bot.telegram.words import replies
from solver.tiles import Tile


async def tell_left(
    context: BotContext,
    chat: Chat,
    user: User,
    state: GameState,
    tiles: Sequence[Tile],
    *,
    answering: str | None = None,
    reply_to: Message | None = None,
) -> None:
    """The tiles left on the speaker's rack at the end; said here and in the group, with the score once the
    last rack is told."""
    changed = await context.service.declare(state.id, user.id, tiles, answering=answering)
    after = changed.state
    me = after.player(user.id)
    assert me is not None

    def said() -> str:
        line = replies.declared_line(me, after.rules, you=not after.is_group)
        follow = replies.scored_text(after) if not after.running else replies.waiting_line(after)
        return f"{line}\n{follow}"

    await say_everywhere(context, chat, after, said, reply_to)
    await notices.racks_trimmed(context, after, changed.trimmed)


async def say_everywhere(
    context: BotContext,
    chat: Chat,
    state: GameState,
    said: Callable[[], str],
    reply_to: Message | None = None,
) -> None:
    """``said()`` here (with the end's buttons) and, from a private chat, in the game's group too."""
    markup: InlineKeyboardMarkup | None = replies.end_buttons(state)
    text = label(context, chat) + said()
    if reply_to is not None:
        await reply_to.reply_text(text, reply_markup=markup, do_quote=True)
    else:
        await context.bot.send_message(chat.id, text, reply_markup=markup)
    if in_group_game(state, chat):
        await post_to_game_chat(context, state, said, markup=lambda: replies.end_buttons(state))
