"""/rack: a player's hidden tiles, set only in a private chat.

Typed in a group, a rack is neither stored nor echoed: the bot tries to delete
the message (it can when it is an admin) and answers with the button that
opens the private chat tied to the group's game.
"""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update, User

from bot.game.state import GameState
from bot.telegram import callbacks, notices, tips
from bot.telegram import parsing as typed
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import current_game, seat_of
from bot.telegram.keys import open_keyboard
from bot.telegram.parsing import command_text
from bot.telegram.privacy import private_only
from bot.telegram.sending import say
from bot.telegram.words import keyboard, replies
from bot.telegram.words.language import _

log = logging.getLogger(__name__)


async def _in_private(update: Update, context: BotContext) -> tuple[GameState, User, str] | None:
    """The speaker's game and the command's text, in a private chat; in a group, the button instead (None)."""
    chat, user = context.where, context.who
    if is_group(chat):
        await private_only(update, context)
        return None
    assert update.message is not None and update.message.text is not None
    state = await current_game(context, chat, user)
    return state, user, command_text(update.message.text)


@guarded
async def rack(update: Update, context: BotContext) -> None:
    """/rack 3R 4R J sets the rack; /rack alone shows it, with a Change button for the tile keyboard (an empty
    rack: the keyboard at once)."""
    found = await _in_private(update, context)
    if found is None:
        return
    state, user, text = found
    me = seat_of(state, user)
    if not text and me.rack:
        change = InlineKeyboardButton(_("✏️ Change"), callback_data=callbacks.go("keys"))
        await say(update, context, replies.rack_text(me, state.rules), InlineKeyboardMarkup([[change]]))
        return
    if not text:
        await open_keyboard(update, context, state, keyboard.RACK, replies.rack_text(me, state.rules))
        return
    tiles = typed.tiles(text, state.rules)
    changed = await context.service.set_rack(state.id, user.id, tiles)
    explain = await tips.once(context, state, user.id, tips.SOLVE)
    mine = seat_of(changed.state, user)
    markup = replies.hint_buttons() if mine.rack and changed.state.playing else None
    await say(update, context, replies.rack_answer(mine, changed.state.rules, explain=explain), markup)
    await notices.racks_trimmed(context, changed.state, changed.trimmed)
