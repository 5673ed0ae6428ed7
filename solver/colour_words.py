"""The names people give the four colours and the joker: letters, words in the bot's languages, emoji.

One table, so the notation's grammar reads every language the same way. The square emoji follow the circles:
🟥 red, 🟦 blue, ⬛ black, 🟧 orange, and 🟨 yellow is orange too (as ``Y`` is: the same colour, printed
yellow in some editions). Words are matched whole, in any case; adjectives come in each form a sentence may
give them (German ``rot``/``rote``, Russian ``красный``/``красная``, Hebrew masculine and feminine).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from solver.tiles import Colour

#: The one-letter names: the notation's own, read in every language
LETTERS: dict[str, Colour] = {
    "r": Colour.RED,
    "b": Colour.BLUE,
    "k": Colour.BLACK,
    "o": Colour.ORANGE,
    "y": Colour.ORANGE,
}

#: Each language's own colour letters, besides the notation's: the first letter of a colour's word where no
#: other colour's word (nor the joker's J) starts with it in that language. German S (schwarz) and G (gelb),
#: Dutch Z (zwart) and G (geel), French N (noir); Russian С (синий), Ч (чёрный), О (оранжевый) and
#: Ж (жёлтый), but not К (красный): it looks like the notation's K for black, and a tile read in the wrong
#: colour is worse than a question; Hebrew א (אדום), ש (שחור) and צ (צהוב). Spanish has none: azul and amarillo share A,
#: negro and naranja N. French jaune would be J, the joker's. Hebrew כחול and כתום share כ.
LANGUAGE_LETTERS: dict[str, dict[str, Colour]] = {
    "en": {},
    "de": {"s": Colour.BLACK, "g": Colour.ORANGE},
    "nl": {"z": Colour.BLACK, "g": Colour.ORANGE},
    "es": {},
    "fr": {"n": Colour.BLACK},
    "ru": {"с": Colour.BLUE, "ч": Colour.BLACK, "о": Colour.ORANGE, "ж": Colour.ORANGE},
    "he": {"א": Colour.RED, "ש": Colour.BLACK, "צ": Colour.ORANGE},
}


def letters_for(language: str | None) -> dict[str, Colour]:
    """The colour letters read in ``language``: the notation's and the language's own."""
    return {**LETTERS, **LANGUAGE_LETTERS.get(language or "en", {})}


_WORDS: dict[Colour, tuple[str, ...]] = {
    Colour.RED: (
        "red",  # English
        "rot", "rote", "roter", "rotes",  # German
        "rood", "rode",  # Dutch
        "rojo", "roja",  # Spanish
        "rouge",  # French
        "красный", "красная", "красное",  # Russian
        "אדום", "אדומה",  # Hebrew
        "\U0001f534", "\U0001f7e5",  # 🔴 🟥
    ),
    Colour.BLUE: (
        "blue",
        "blau", "blaue", "blauer", "blaues",
        "blauw", "blauwe",
        "azul",
        "bleu", "bleue",
        "синий", "синяя", "синее", "голубой", "голубая",
        "כחול", "כחולה",
        "\U0001f535", "\U0001f7e6",  # 🔵 🟦
    ),
    Colour.BLACK: (
        "black",
        "schwarz", "schwarze", "schwarzer", "schwarzes",
        "zwart", "zwarte",
        "negro", "negra",
        "noir", "noire",
        "чёрный", "черный", "чёрная", "черная", "чёрное", "черное",
        "שחור", "שחורה",
        "\u26ab", "\u2b1b",  # ⚫ ⬛
    ),
    Colour.ORANGE: (
        "orange",  # English, German, French
        "oranje",
        "naranja",
        "оранжевый", "оранжевая", "оранжевое",
        "כתום", "כתומה",
        "\U0001f7e0", "\U0001f7e7",  # 🟠 🟧
        # yellow: the same colour in editions that print it yellow
        "yellow", "gelb", "gelbe", "gelber", "gelbes", "geel", "gele", "amarillo", "amarilla", "jaune",
        "жёлтый", "желтый", "жёлтая", "желтая", "жёлтое", "желтое", "צהוב", "צהובה",
        "\U0001f7e1", "\U0001f7e8",  # 🟡 🟨
    ),
}  # fmt: skip

#: Every colour word (and emoji), lower case
WORDS: dict[str, Colour] = {word: colour for colour, words in _WORDS.items() for word in words}

#: The joker's names besides ``J``, ``JK`` and ``*``
JOKER_WORDS: tuple[str, ...] = (
    "joker",
    "jolly",
    "comodín",
    "comodin",
    "джокер",
    "ג'וקר",
    "\u05d2\u05f3\u05d5\u05e7\u05e8",
    "גוקר",
)

#: What a table with no sets may be called (``table: none``)
NOTHING_WORDS: tuple[str, ...] = (
    "none", "empty", "nothing",
    "leer", "nichts", "keine",
    "leeg", "niets", "geen",
    "vacío", "vacio", "vacía", "vacia", "nada",
    "vide", "rien",
    "пусто", "пустой", "нет", "ничего",
    "ריק", "ריקה", "אין",
)  # fmt: skip


def alternatives(words: Iterable[str]) -> str:
    """A regular expression alternation of ``words``, longest first (so ``rote`` is not read as ``rot``)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
