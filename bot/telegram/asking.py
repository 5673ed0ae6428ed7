"""Asking with buttons: a question kept in the database, whose buttons carry its token and an option.

Who may answer is part of the question (``may_answer``); any bot process can take the answer, and the
change it makes deletes the question in the same transaction, so two taps never make it twice.
"""

from __future__ import annotations

import html as markup_text
from collections.abc import Sequence
from typing import Any

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode

from bot.game import GameState
from bot.telegram import callbacks
from bot.telegram.chats import kind_of
from bot.telegram.context import BotContext
from bot.telegram.sending import label, shortened
from bot.telegram.words.language import _
from solver.text import N_

CANCEL = N_("Cancel")


async def ask(
    context: BotContext,
    chat: Chat,
    state: GameState,
    asker: int,
    kind: str,
    text: str,
    options: Sequence[str],
    payload: dict[str, Any],
    *,
    may_answer: Sequence[int],
    reply_to: Message | None = None,
    cancel: str | None = CANCEL,
    html: bool = False,
) -> Message:
    """Ask ``text`` in ``chat`` with a button for each option (and Cancel); the answer finds ``payload``.

    ``html``: ``text`` is Telegram HTML (e.g. a ``<code>`` span the user can tap to copy)."""
    token = await context.service.ask(
        state.id, asker, kind, {**payload, "chat": chat.id, "may_answer": sorted(set(may_answer))}
    )
    where = kind_of(chat)
    rows = [
        [InlineKeyboardButton(shortened(label, 60), callback_data=callbacks.answer(token, i, where))]
        for i, label in enumerate(options)
    ]
    if cancel is not None:
        rows.append([InlineKeyboardButton(_(cancel), callback_data=callbacks.answer(token, None, where))])
    markup = InlineKeyboardMarkup(rows)
    name = label(context, chat)
    text = (markup_text.escape(name) if html else name) + text
    mode = ParseMode.HTML if html else None
    if reply_to is not None:
        return await reply_to.reply_text(text, reply_markup=markup, do_quote=True, parse_mode=mode)
    return await context.bot.send_message(chat.id, text, reply_markup=markup, parse_mode=mode)
