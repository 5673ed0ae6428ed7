"""Bad input and broken handlers: one short answer, nothing changed, no traceback in a chat.

``guarded`` wraps every handler: a ``RummikubError`` (the parser's, the
service's, the solver's) is the user's mistake and is answered with its
message; an over-long message for the bot is refused before anything reads it
(in a group, only a command of ours or a ``rack:``/``table:`` message is for
the bot: a long recipe pasted in the family chat is none of its business).
Anything else is a bug: ``on_error`` logs it with the update and says sorry.
Not so an outage: a handler that met the database gone hands its update back
to the dispatcher (handled again once it is back), and one whose answer
Telegram never took, or whose token it refused, was already logged once.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Chat, Update
from telegram.error import InvalidToken, TelegramError
from telegram.ext import ApplicationHandlerStop

from bot.storage.database import is_unreachable
from bot.storage.inbox import HANDLING
from bot.telegram import didyoumean
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.limits import ALERT_LIMIT
from bot.telegram.parsing import MAX_TEXT, looks_like_position, names_bot
from bot.telegram.runtime.link import AnswerDropped
from bot.telegram.sending import label
from bot.telegram.words import commands
from bot.telegram.words.language import _, spoken
from bot.telegram.words.texts import TOO_LONG
from solver.errors import RummikubError
from solver.notation import NotationError
from solver.rules_text import OptionError
from solver.text import N_

log = logging.getLogger(__name__)

Handler = Callable[[Update, BotContext], Coroutine[Any, Any, None]]
SORRY = N_("Sorry, something went wrong on my side. Try again, or /help.")


def short(error: Exception) -> str:
    """An error's words in the reader's language, begun with a capital, as an answer of their own (a
    notation error begins with the piece as it was typed, left as typed)."""
    text = (spoken(error) if isinstance(error, RummikubError) else str(error)).strip() or type(error).__name__
    if isinstance(error, NotationError):
        return text
    return text[0].upper() + text[1:]


async def tell(update: Update, context: BotContext, text: str) -> None:
    """One short message in the update's chat; a tapped button gets it as an alert."""
    query = update.callback_query
    if query is not None:
        await query.answer(text[:ALERT_LIMIT], show_alert=True)
        return
    chat = update.effective_chat
    if chat is None:
        return
    message = update.message
    if message is not None and chat.type != chat.PRIVATE:
        await message.reply_text(label(context, chat) + text, do_quote=True)  # (an edit's answer says so)
    else:  # in private, about a group's game: the group's name first, as in every reply there
        await context.bot.send_message(chat.id, label(context, chat) + text)


def for_me(text: str, chat: Chat | None, bot_username: str | None) -> bool:
    """Whether a message is addressed to this bot: everything in private; in a group, our commands (not
    ``/cmd@another_bot``) and ``rack:``/``table:`` messages, which are all the handlers read there."""
    if chat is None or not is_group(chat):
        return True
    if text.startswith("/"):
        name, _at, addressee = text.split(maxsplit=1)[0].partition("@")
        if addressee:
            return addressee.lower() == (bot_username or "").lower()
        return name[1:].lower() in commands.ALL  # /weather without a name may be another bot's
    return looks_like_position(text, bot_username, group=True) or names_bot(text, bot_username)


def guarded(handler: Handler) -> Handler:
    @functools.wraps(handler)
    async def run(update: Update, context: BotContext) -> None:
        message = update.message
        text = message.text if message is not None else None
        if text is not None and len(text) > MAX_TEXT and for_me(text, update.effective_chat, context.bot.username):
            await tell(update, context, _(TOO_LONG).format(length=len(text), limit=MAX_TEXT))
            return
        try:
            await handler(update, context)
        except RummikubError as why:
            said = short(why)
            if not (isinstance(why, NotationError | OptionError) and await didyoumean.offer(update, context, said)):
                await tell(update, context, said)

    return run


async def on_error(update: object, context: BotContext) -> None:
    """Log the failure with where it happened (never the update's text: it may hold a rack); tell the chat
    something went wrong (never the details)."""
    error = context.error
    if isinstance(error, AnswerDropped | InvalidToken):  # said once already, and Telegram takes nothing now
        return
    current = HANDLING.get()
    if error is not None and current is not None and is_unreachable(error):
        context.deps.db.away(error)
        current.interrupted = error  # the dispatcher handles the update again once the database is back
        raise ApplicationHandlerStop  # and no later handler runs without it
    log.error("handling an update failed: %s", _where(update), exc_info=error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(_(SORRY), show_alert=True)
        else:
            await context.bot.send_message(update.effective_chat.id, _(SORRY))
    except TelegramError:
        log.warning("could not tell chat %s about the failure", update.effective_chat.id)


def _where(update: object) -> str:
    """The update's number, chat and kind: enough to find it in the database, nothing a player typed."""
    if not isinstance(update, Update):
        return type(update).__name__
    chat = update.effective_chat.id if update.effective_chat is not None else None
    kinds = {"button": update.callback_query, "message": update.message, "edit": update.edited_message,
             "membership": update.my_chat_member}  # fmt: skip
    kind = next((name for name, part in kinds.items() if part is not None), "other")
    return f"update {update.update_id} ({kind}) in chat {chat}"
