"""/help: one phone screen, and a button for each topic (writing tiles, a group game, photos, rules, every
command), so nobody scrolls a wall of text to find how to write a rearrangement."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram import callbacks
from bot.telegram.words import commands, texts
from bot.telegram.words.language import LANGUAGES, _, current
from solver.colour_words import LANGUAGE_LETTERS
from solver.text import N_

#: topic buttons in a row
ROW = 2

_COLOUR_NAMES = {"R": N_("red"), "B": N_("blue"), "K": N_("black"), "O": N_("orange")}


def help_text(*, group: bool) -> str:
    return _(texts.HELP_GROUP if group else texts.HELP)


def help_buttons() -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(_(label), callback_data=callbacks.go(f"topic_{topic}"))
        for topic, label in texts.HELP_TOPICS.items()
    ]
    return InlineKeyboardMarkup([buttons[i : i + ROW] for i in range(0, len(buttons), ROW)])


def topic_text(topic: str, *, group: bool) -> str:
    """A topic's page, in the reader's language (the commands: the menu of this kind of chat)."""
    if topic == "commands":
        menu = commands.GROUP if group else commands.PRIVATE
        return "\n".join([_("All commands"), *(f"/{name} - {_(description)}" for name, description in menu)])
    text = _(texts.TOPICS[topic])
    if topic == "tiles":
        letters = own_letters(current())
        if letters:
            text += "\n" + _("• In {language} these letters work too: {letters}.").format(
                language=LANGUAGES[current()], letters=letters
            )
    return text


def own_letters(code: str) -> str:
    """A language's own colour letters, as the help says them: "S black, G orange"."""
    own = LANGUAGE_LETTERS.get(code, {})
    return ", ".join(f"{letter.upper()} {_(_COLOUR_NAMES[colour.letter])}" for letter, colour in own.items())
