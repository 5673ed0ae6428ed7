"""Edited messages: read again, so fixing a typo by editing updates what the message set.

What a message sets (a rack, a table, ``rack:``/``table:`` lines, bare tiles to ask about) is set again from
the edited text, by the same handler as a new message, and the answer starts by saying it answers an edit;
a question that changes nothing (``/solve``, ``/status``, ``/fit 3R``…) is answered again.
What a message did (a draw, a play, a new game) is not done twice: the answer says so, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping

from telegram import Update

from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import Handler, for_me, guarded
from bot.telegram.sending import say
from bot.telegram.words import texts
from bot.telegram.words.language import _

#: Commands whose edit sets again what they set, or only shows something (asking again changes nothing)
READ_AGAIN = ("rack", "table", "help", "rules", "status", "fit", "solve")


def edited_by(read_again: Mapping[str, Handler], plain_text: Handler) -> Handler:
    """The handler of edited messages: each goes to the handler a new one would go to (``plain_text``, or the
    command's in ``read_again``, which the app gives: no handler imports another)."""

    async def edited(update: Update, context: BotContext) -> None:
        """Hand the edited message to the handler a new one would go to, as if it had just been sent."""
        message = update.edited_message
        if message is None or message.chat is None:
            return
        context.edited = True
        again = Update(update.update_id, message=message)
        text = message.text
        if text is None:  # a photo's caption, say
            if not is_group(message.chat):
                await guarded(_say_not_text)(again, context)
            return
        if not text.startswith("/"):
            await plain_text(again, context)
            return
        name = text.split(maxsplit=1)[0][1:].partition("@")[0]
        if not for_me(text, message.chat, context.bot.username):
            return
        handler = read_again.get(name.lower())
        if handler is not None:
            await handler(again, context)
        elif name.lower() == "draw":
            await guarded(_say_draw)(again, context)
        else:
            await guarded(_say_not_again)(again, context)

    return edited


async def _say_not_text(update: Update, context: BotContext) -> None:
    await say(update, context, _(texts.EDIT_NOT_TEXT))


async def _say_draw(update: Update, context: BotContext) -> None:
    await say(update, context, _(texts.EDIT_DRAW))


async def _say_not_again(update: Update, context: BotContext) -> None:
    assert update.message is not None and update.message.text is not None
    command = update.message.text.split(maxsplit=1)[0].partition("@")[0]
    await say(update, context, _(texts.EDIT_NOT_RERUN).format(command=command))
