"""The reader's language: which one a reply is in, and the translation of its words.

Each update is answered in one language (``use``, set before any handler runs, see
``handlers.language``); a message to another chat is written ``speaking`` that chat's. The words are
gettext catalogues (``bot/locales/<code>/LC_MESSAGES/bot.po``, compiled to ``.mo`` when the package is
built), English being the messages themselves. ``_`` and ``n_`` translate a message, ``spoken`` a
``solver.text.Text`` (the engine's words) and everything in it.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from solver.errors import RummikubError
from solver.text import Text

#: the languages the bot speaks, each named in itself (for the /language buttons)
LANGUAGES = {
    "en": "English",
    "de": "Deutsch",
    "nl": "Nederlands",
    "es": "Español",
    "fr": "Français",
    "ru": "Русский",
    "he": "עברית",
}
ENGLISH = "en"
RIGHT_TO_LEFT = frozenset({"he"})
#: U+200F RIGHT-TO-LEFT MARK: a line that starts with a tile ("3R 4R …") still reads right to left
RLM = "\u200f"
DOMAIN = "bot"
LOCALES = Path(__file__).resolve().parent.parent.parent / "locales"
#: older or regional codes Telegram apps send for the languages above
ALIASES = {"iw": "he"}

_current: ContextVar[str] = ContextVar("language", default=ENGLISH)


def supported(code: str | None) -> str:
    """The language to speak to someone whose app says ``code`` (``de-AT`` → ``de``); English if none."""
    if not code:
        return ENGLISH
    base = code.replace("_", "-").split("-")[0].lower()
    base = ALIASES.get(base, base)
    return base if base in LANGUAGES else ENGLISH


@functools.cache
def catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``code`` (English needs none); a missing one is a broken build."""
    if code == ENGLISH:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALES, languages=[code])


def load_all() -> None:
    """Read every catalogue now, at start-up: a build without them fails here, not in a chat."""
    for code in LANGUAGES:
        catalogue(code)


def current() -> str:
    return _current.get()


def _spoken_code(code: str) -> str:
    return code if code in LANGUAGES else ENGLISH


def use(code: str) -> None:
    """Answer the update being handled in ``code`` (from here to the end of its handling)."""
    _current.set(_spoken_code(code))


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """Write in ``code`` inside the block (a message to another chat, in that chat's language)."""
    token = _current.set(_spoken_code(code))
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return catalogue(current()).gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of a message that fits the number ``n``, in the current language."""
    return catalogue(current()).ngettext(singular, plural, n)


def spoken(text: Text | RummikubError | str) -> str:
    """The engine's words (a ``Text``, an error's, or a plain message) in the current language."""
    if isinstance(text, RummikubError):
        text = text.text
    if isinstance(text, str):
        return _(text)
    words = _(text.template) if text.plural is None else n_(text.template, text.plural, text.count)
    if not text.params:
        return words
    values = {name: spoken(value) if isinstance(value, Text) else str(value) for name, value in text.params.items()}
    try:
        return words.format(**values)
    except (KeyError, IndexError, ValueError):  # a catalogue's broken placeholder: the English is still right
        return str(text)


def right_to_left() -> bool:
    return current() in RIGHT_TO_LEFT


def directed(text: str) -> str:
    """``text`` as it should go out: in a right-to-left language each line starts with a right-to-left mark,
    so Telegram lays out a line that begins with tiles or a number right to left too."""
    if not right_to_left() or not text:
        return text
    return "\n".join(RLM + line if line and not line.startswith(RLM) else line for line in text.split("\n"))
