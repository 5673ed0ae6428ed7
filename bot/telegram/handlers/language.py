"""The language the bot speaks: chosen for each update before any handler runs, and changed with /language.

A chat that chose a language with /language gets it; else, in a group, the language the speaker chose in our
private chat; else their Telegram app's (``language_code``); else English. The choice is kept in the
database, so every bot process speaks it.
"""

from __future__ import annotations

import logging

from telegram import BotCommandScopeChat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError

from bot.telegram import callbacks
from bot.telegram.context import BotContext
from bot.telegram.errors import guarded
from bot.telegram.games import is_group, speaker
from bot.telegram.parsing import command_text
from bot.telegram.runtime.deps import deps
from bot.telegram.sending import say
from bot.telegram.words import commands, texts
from bot.telegram.words.language import LANGUAGES, _, supported, use
from solver.errors import RummikubError
from solver.text import N_

log = logging.getLogger(__name__)

#: buttons in a row of the /language keyboard
ROW = 2


async def speak_their_language(update: object, context: BotContext) -> None:
    """Before every handler (group -1): answer this update in the language of its chat or speaker."""
    if isinstance(update, Update):
        use(await language_of(update, context))


async def language_of(update: Update, context: BotContext) -> str:
    chat, user = update.effective_chat, update.effective_user
    ids = [i for i in (chat.id if chat is not None else None, user.id if user is not None else None) if i]
    chosen = await deps(context).service.languages(*ids) if ids else {}
    for i in ids:  # the chat's choice first (a group's), then the speaker's own
        if i in chosen:
            return chosen[i]
    return supported(user.language_code if user is not None else None)


def _by_name(text: str) -> str | None:
    """The language a word names: its code (``de``) or its name in itself or in English (``Deutsch``)."""
    word = text.strip().lower()
    for code, name in LANGUAGES.items():
        if word in (code, name.lower()):
            return code
    return {"german": "de", "dutch": "nl", "spanish": "es", "french": "fr", "russian": "ru", "hebrew": "he"}.get(word)


@guarded
async def language(update: Update, context: BotContext) -> None:
    """/language: the buttons to choose from; /language de (or Deutsch) chooses at once."""
    assert update.message is not None and update.message.text is not None
    asked = command_text(update.message.text)
    if asked:
        code = _by_name(asked)
        if code is None:
            raise RummikubError(N_("I don't speak {language}; I speak {known}."), language=asked,
                                known=", ".join(LANGUAGES.values()))  # fmt: skip
        await _choose(update, context, code)
        return
    names = [InlineKeyboardButton(name, callback_data=callbacks.language(code)) for code, name in LANGUAGES.items()]
    rows = [names[i : i + ROW] for i in range(0, len(names), ROW)]
    chat, _user = speaker(update)
    here = _("Which language shall I speak in this group?") if is_group(chat) else _("Which language shall I speak?")
    await say(update, context, here, InlineKeyboardMarkup(rows))


@guarded
async def language_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    code = callbacks.parse_language(query.data, LANGUAGES)
    if code is None:
        raise RummikubError(texts.STALE_BUTTON)
    await query.answer()
    await _choose(update, context, code)
    if isinstance(query.message, Message):
        try:
            await query.message.edit_reply_markup(reply_markup=None)
        except TelegramError as why:  # too old to edit: the choice stands all the same
            log.debug("could not remove the language buttons: %s", why)


async def _choose(update: Update, context: BotContext, code: str) -> None:
    """Keep the chat's language, speak it from this answer on, and show the command menu in it here."""
    chat, _user = speaker(update)
    await deps(context).service.choose_language(chat.id, code)
    use(code)
    menu = commands.GROUP if is_group(chat) else commands.PRIVATE
    try:
        await context.bot.set_my_commands(commands.menu(menu, code), scope=BotCommandScopeChat(chat.id))
    except TelegramError as why:  # the menu is a convenience; the choice is made
        log.info("could not set the command menu of chat %s: %s", chat.id, why)
    done = (
        _("From now on I speak {language} in this group.") if is_group(chat) else _("From now on I speak {language}.")
    )
    await say(update, context, done.format(language=LANGUAGES[code]))
