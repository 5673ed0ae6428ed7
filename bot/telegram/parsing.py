"""Reading what users type around the tile notation: command arguments, rule options, rack:/table: lines."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from bot.telegram.words.language import current
from solver.colour_words import letters_for
from solver.notation import parse_table, parse_table_chunks, parse_tiles
from solver.rules import Rules
from solver.rules_text import OptionError, parse_rules
from solver.sets import TileSet
from solver.text import N_
from solver.tiles import Tile

__all__ = [
    "FIX_WORD",
    "MAX_TEXT",
    "OptionError",
    "Position",
    "chunks",
    "command_text",
    "fix_word",
    "parse_position",
    "parse_rules",
    "table",
    "tiles",
]  # fmt: skip


def tiles(text: str, rules: Rules) -> list[Tile]:
    """Tiles as the reader typed them, their language's own colour letters read too (German ``7S``)."""
    return parse_tiles(text, rules, letters_for(current()))


def table(text: str, rules: Rules) -> list[TileSet]:
    """A table as the reader typed it (see ``tiles``)."""
    return parse_table(text, rules, letters_for(current()))


def chunks(text: str, rules: Rules) -> list[list[Tile]]:
    """A play's chunks as the reader typed them (see ``tiles``)."""
    return parse_table_chunks(text, rules, letters_for(current()))


#: ``/table fix …``: replace a shared table even though tiles leave it (a mistake typed earlier).
FIX_WORD = "fix"
_FIX = re.compile(rf"\s*{FIX_WORD}(?:[\s:]+|$)", re.IGNORECASE)


def fix_word(text: str) -> tuple[bool, str]:
    """Whether the text starts with the word ``fix`` (then a space, a new line or a colon), and the rest."""
    m = _FIX.match(text)
    if m is None:
        return False, text
    return True, text[m.end() :].strip()


#: Longest message the bot reads; a full table of 106 tiles written out is well under this.
MAX_TEXT = 1500

#: The words a line may start with, and what they name: a rack (``rack:``, ``hand:``, ``my rack:``) or a
#: table (``table:``, ``board:``). In a group only the rack's and the table's own words are read: "Board:
#: meeting at 5" in a family chat is not for the bot. The rack's and the table's words in every language the
#: bot speaks (the catalogues' words) are labels in every chat: a family's languages are mixed.
LABEL_WORDS: dict[str, tuple[str, str]] = {
    "en": ("rack", "table"),
    "de": ("bänkchen", "tisch"),
    "nl": ("plankje", "tafel"),
    "es": ("atril", "mesa"),
    "fr": ("chevalet", "table"),
    "ru": ("подставка", "стол"),
    "he": ("מעמד", "שולחן"),
}
RACK_WORDS = tuple(dict.fromkeys(rack for rack, _table in LABEL_WORDS.values()))
TABLE_WORDS = tuple(dict.fromkeys(table for _rack, table in LABEL_WORDS.values()))
RACK_LABELS = (*RACK_WORDS, "hand", "mano", "main")
TABLE_LABELS = (*TABLE_WORDS, "board")


@dataclass(frozen=True, slots=True)
class _Labels:
    line: re.Pattern[str]
    # a label in the middle of a line (``rack: 3R 4R table: 6R 7R 8R``: on a phone, Enter may send the message)
    inner: re.Pattern[str]


def _labels(words: tuple[str, ...], mine: str) -> _Labels:
    label = rf"{mine}(?P<kind>{'|'.join(words)})\s*:"
    return _Labels(re.compile(rf"^\s*{label}\s*(?P<rest>.*)$", re.IGNORECASE), re.compile(rf"(?<=\s){label}", re.I))


_PRIVATE = _labels(RACK_LABELS + TABLE_LABELS, r"(?:my\s+)?")
_GROUP = _labels(RACK_WORDS + TABLE_WORDS, "")


def command_text(text: str) -> str:
    """Everything after the command word, new lines kept (they separate sets)."""
    parts = text.split(maxsplit=1)
    if not parts or not parts[0].startswith("/"):
        return text
    return text[len(text) - len(text.lstrip()) + len(parts[0]) :].strip()


@dataclass(frozen=True, slots=True)
class Position:
    """A message with ``rack:`` and/or ``table:`` lines; a table may go on over the following lines."""

    rack: str | None
    table: str | None


def parse_position(text: str, bot_username: str | None = None, *, group: bool = False) -> Position | None:
    """The rack and table of a ``rack:``/``table:`` message, or None when it has no such line.

    In a group people address the bot by name (``@rummi_bot table: …``), so a
    leading mention of ``bot_username`` is not part of the position.
    """
    text = without_mention(text, bot_username)
    if not looks_like_position(text, group=group):
        return None
    labels = _GROUP if group else _PRIVATE
    rack: list[str] | None = None
    table: list[str] | None = None
    current: list[str] | None = None
    for line in _one_label_a_line(text, labels):
        m = labels.line.match(line)
        if m is not None:
            current = []
            if m.group("kind").lower() in RACK_LABELS:
                if rack is not None:
                    raise OptionError(N_("write one rack: line"))
                rack = current
            else:
                if table is not None:
                    raise OptionError(N_("write one table: line (more sets go on the next lines)"))
                table = current
            current.append(m.group("rest"))
        elif (meant := misspelt_keyword(line)) is not None and ":" in line.split()[0]:
            raise OptionError(MISSPELT_LABEL, word=line.split()[0], meant=meant)
        elif current is not None:
            current.append(line)
        elif line.strip():
            raise OptionError(N_("{line}: start each line with rack: or table:"), line=line.strip()[:30])
    if rack is None and table is None:
        return None
    # A rack continued onto more lines is still one rack; table lines are sets.
    return Position(" ".join(rack) if rack is not None else None, "\n".join(table) if table is not None else None)


def _one_label_a_line(text: str, labels: _Labels) -> list[str]:
    """The message's lines, a line that names a rack and a table split before the second label."""
    lines = []
    for line in text.splitlines():
        first = labels.line.match(line)
        if first is not None:
            cuts = [m.start() for m in labels.inner.finditer(line, first.start("rest"))]
            for start, end in zip([0, *cuts], [*cuts, len(line)], strict=True):
                lines.append(line[start:end])
        else:
            lines.append(line)
    return lines


_KEYWORD = re.compile(r"\s*(?P<word>[^\W\d_]+)\s*(?P<colon>:?)")


MISSPELT_LABEL = N_("did you mean {meant}: instead of {word}? Start each line with rack: or table:")


def misspelt_keyword(line: str, *, cutoff: float = 0.8) -> str | None:
    """The keyword a line meant to start with, when it starts with a near miss of ``rack:`` or ``table:``
    (``rack 3R`` without the colon, ``tabel: …``); None when it does not look like one (``cutoff``: how
    near, as ``difflib`` measures it)."""
    m = _KEYWORD.match(line)
    if m is None:
        return None
    word = m.group("word").lower()
    if word in RACK_LABELS + TABLE_LABELS and m.group("colon"):
        return None  # written right
    labels = [*RACK_WORDS, *TABLE_WORDS]
    close = difflib.get_close_matches(word, labels, n=4, cutoff=cutoff)  # "tabel"; not "back"
    close += [w for w in labels if w not in close and _swapped(word, w)]  # "rakc": two letters the wrong way round
    if not close:
        return None
    ours = {*LABEL_WORDS["en"], *LABEL_WORDS.get(current(), ())}  # a tie goes to the reader's language
    best: str = max(close, key=lambda w: (round(difflib.SequenceMatcher(None, word, w).ratio(), 6), w in ours))
    return best


def _swapped(word: str, label: str) -> bool:
    """Whether ``word`` is ``label`` with two neighbouring letters the wrong way round."""
    if len(word) != len(label) or len(word) < 4:
        return False
    wrong = [i for i, (a, b) in enumerate(zip(word, label, strict=True)) if a != b]
    if len(wrong) != 2 or wrong[1] != wrong[0] + 1:
        return False
    first, second = wrong
    return word[first] == label[second] and word[second] == label[first]


def looks_like_position(text: str, bot_username: str | None = None, *, group: bool = False) -> bool:
    """Whether some line starts with ``rack:`` or ``table:`` or another label (after a leading mention of the
    bot)."""
    labels = _GROUP if group else _PRIVATE
    return any(labels.line.match(line) for line in without_mention(text, bot_username).splitlines())


def names_bot(text: str, bot_username: str | None) -> bool:
    """Whether ``text`` starts by naming the bot (``@rummi_bot …``): in a group, a question for it."""
    return bool(bot_username) and without_mention(text, bot_username) != text


def without_mention(text: str, bot_username: str | None) -> str:
    """``text`` without a leading ``@bot_username`` (any case); unchanged when it starts otherwise."""
    name = (bot_username or "").lstrip("@")
    if not name:
        return text
    m = re.match(rf"\s*@{re.escape(name)}(?!\w)", text, re.IGNORECASE)
    return text[m.end() :] if m is not None else text
