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

#: The one-letter names: the notation's own
LETTERS: dict[str, Colour] = {
    "r": Colour.RED,
    "b": Colour.BLUE,
    "k": Colour.BLACK,
    "o": Colour.ORANGE,
    "y": Colour.ORANGE,
}

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
