"""The language the bot speaks: chosen for each update before any handler runs, and changed with /language.

A chat that chose a language with /language gets it. A private chat that chose none gets its user's Telegram
app's (``language_code``), else English. A group that chose none gets the first language heard there (the
speaker's own choice in our private chat, else their app's), so it does not flip message by message; when a
member's differs, the group is asked once which to speak. Both are kept in the database, so every bot process
speaks them.
"""

from __future__ import annotations

import logging

from telegram import BotCommandScopeChat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError

from bot.telegram import callbacks
from bot.telegram.chats import is_group
from bot.telegram.context import BotContext
from bot.telegram.errors import for_me, guarded
from bot.telegram.parsing import command_text
from bot.telegram.sending import say
from bot.telegram.words import commands, texts
from bot.telegram.words.language import ENGLISH, LANGUAGES, _, supported, use
from solver.errors import RummikubError
from solver.text import N_

log = logging.getLogger(__name__)

#: buttons in a row of the /language keyboard
ROW = 2


async def speak_their_language(update: object, context: BotContext) -> None:
    """Before every handler (group -1): answer this update in the language of its chat or speaker; a group
    whose members' languages differ is asked once which to speak."""
    if not isinstance(update, Update):
        return
    code, differs = await language_of(update, context)
    use(code)
    if differs is not None:
        await _ask_group(update, context, code, differs)


async def language_of(update: Update, context: BotContext) -> tuple[str, str | None]:
    """The language to answer ``update`` in and, once in a group, the speaker's when it differs from the
    group's (the group is to be asked which to speak)."""
    chat, user = update.effective_chat, update.effective_user
    ids = [i for i in (chat.id if chat is not None else None, user.id if user is not None else None) if i]
    chosen = await context.service.languages(*ids) if ids else {}
    if chat is not None and chat.id in chosen:
        return chosen[chat.id], None
    own = chosen.get(user.id) if user is not None else None
    if own is None and user is not None and user.language_code:
        own = supported(user.language_code)
    if chat is None or not is_group(chat):
        return own or ENGLISH, None
    # a group that chose none: the first language heard there, so it does not flip message by message
    heard = own if _for_us(update, context) else None
    first, ask = await context.service.group_language(chat.id, heard)
    return first or own or ENGLISH, heard if ask else None


def _for_us(update: Update, context: BotContext) -> bool:
    """Whether the update is for this bot (a group's chatter says nothing of the language to speak)."""
    if update.callback_query is not None:
        return True
    message = update.message
    return message is not None and message.text is not None and for_me(message.text, message.chat, context.bot.username)


async def _ask_group(update: Update, context: BotContext, spoken: str, heard: str) -> None:
    """Ask the group once which language to speak: its members' apps (or choices) differ."""
    chat = context.where
    names = ", ".join(LANGUAGES[code] for code in (spoken, heard))
    text = _("You write to me in different languages here ({languages}). Which shall I speak in this group?")
    await context.bot.send_message(chat.id, text.format(languages=names), reply_markup=_choices())


def _choices() -> InlineKeyboardMarkup:
    names = [InlineKeyboardButton(name, callback_data=callbacks.language(code)) for code, name in LANGUAGES.items()]
    return InlineKeyboardMarkup([names[i : i + ROW] for i in range(0, len(names), ROW)])


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
    chat = context.where
    here = _("Which language shall I speak in this group?") if is_group(chat) else _("Which language shall I speak?")
    await say(update, context, here, _choices())


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
    chat = context.where
    await context.service.choose_language(chat.id, code)
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
