"""Did you mean …? The nearest right readings of a message the bot could not read, to offer as buttons.

A mistake is mended only where the right reading is near and plain: a label misspelt (``rakc:``, ``rack``
without its colon), a colour letter of another language or of another alphabet (German ``1S`` in an
English chat, a Cyrillic ``К``: red or black, so both are offered), a colour word or the joker misspelt
(``3 rde``, ``jocker``), a run written high to low. A mended message must read whole, as the command that
came would read it; nothing is guessed where a tile's number is wrong or a set is not one (the hint says
what is wrong, and only the family knows what they meant). Each reading is offered, never taken unasked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator

from bot.telegram import parsing as typed
from solver.colour_words import JOKER_WORDS, LANGUAGE_LETTERS, LETTERS, WORDS
from solver.notation import NotationError
from solver.rules import Rules
from solver.rules_text import OptionError
from solver.table import given_as_sets
from solver.tiles import Colour

#: Most readings offered, and most mistakes mended in one message.
MOST_READINGS = 2
MOST_MENDS = 6

#: Cyrillic letters drawn like Latin ones (a Russian keyboard left on)
LOOKALIKES = str.maketrans("авекмнорстхАВЕКМНОРСТХ", "abekmhopctxABEKMHOPCTX")

#: ``/left none`` and the like: no tiles left
NONE_WORDS = frozenset({"none", "0", "-", "—", "nothing", "empty"})

_TILE = re.compile(r"(?P<n1>[0-9]+)\s*(?P<name1>[^\W\d_]+)|(?P<name2>[^\W\d_]+)\s*(?P<n2>[0-9]+)")
# the word or number after a token the notation could not read (``3 rde``: the 3 alone is the mistake)
_NEXT = re.compile(r"[^\S\n]+(?:[^\W\d_]+|[0-9]+)")
_RUN = re.compile(r"(?P<hi>[0-9]+)(?P<dash>\s*[-\u2013\u2014]\s*)(?P<lo>[0-9]+)(?P<rest>.*)", re.DOTALL)
_ALPHA_WORDS = [w for w in WORDS if w.isalpha()]


def colours_for_letter(letter: str) -> list[Colour]:
    """What one unknown letter may stand for: the notation letter it looks like, another language's letter
    for a colour, the first letter of a colour's word in some language (Cyrillic ``к``: black or red)."""
    key = letter.lower()
    found = []
    latin = key.translate(LOOKALIKES)
    if latin in LETTERS:
        found.append(LETTERS[latin])
    found += [own[key] for own in LANGUAGE_LETTERS.values() if key in own]
    found += [colour for word, colour in WORDS.items() if word.isalpha() and word.startswith(key)]
    return list(dict.fromkeys(found))


def token_readings(token: str, rules: Rules) -> list[str]:
    """Right readings of one token the notation could not read, nearest first (none when nothing is near)."""
    m = _RUN.fullmatch(token)
    if m is not None and int(m.group("hi")) > int(m.group("lo")):  # 6-3R: a run written high to low
        return [f"{m.group('lo')}{m.group('dash')}{m.group('hi')}{m.group('rest')}"]
    m = _TILE.fullmatch(token)
    if m is not None:
        number, name = (m.group("n1"), m.group("name1")) if m.group("n1") else (m.group("n2"), m.group("name2"))
        if not 1 <= int(number) <= rules.numbers:
            return []  # which number was meant, only the family knows
        return [f"{number}{letters}" for letters in _names(name, rules)]
    if token.isalpha() and difflib.get_close_matches(token.lower(), [*JOKER_WORDS, "joker"], n=1, cutoff=0.75):
        return ["J"]
    return []


def _names(name: str, rules: Rules) -> list[str]:
    """Notation letters for a colour name written wrong: a colour word misspelt (``rde``), or letters of
    another language or alphabet (``S``, ``К``, a group's ``RBS``)."""
    if len(name) >= 3:
        close = difflib.get_close_matches(name.lower(), _ALPHA_WORDS, n=2, cutoff=0.75)
        found = list(dict.fromkeys(WORDS[w].letter for w in close if WORDS[w] in rules.colour_order))
        if found:
            return found[:MOST_READINGS]
    options: list[str] = [""]
    for letter in name:
        known = LETTERS.get(letter.lower())
        colours = [known] if known is not None else colours_for_letter(letter)
        colours = [c for c in colours if c in rules.colour_order]
        if not colours:
            return []
        options = [f"{before}{c.letter}" for before in options for c in colours][: MOST_READINGS * 2]
    return [o for o in options if len(set(o)) == len(o)][:MOST_READINGS]  # a group names a colour once


def read_message(text: str, rules: Rules, *, group: bool, bot_username: str | None) -> None:
    """Read ``text`` as the handlers would, without storing anything: raise as they would on a mistake.

    Only messages made of tiles are read: a command that takes none (or is unknown) raises ``OptionError``."""
    words = text.split(maxsplit=1)
    if words and words[0].startswith("/"):
        command = words[0][1:].partition("@")[0].lower()
        args = typed.command_text(text)
        readers: dict[str, Callable[[str], object]] = {
            "rack": lambda t: typed.tiles(t, rules),
            "draw": lambda t: typed.tiles(t, rules),
            "fit": lambda t: typed.tiles(t, rules),
            "left": lambda t: None if t.strip().lower() in NONE_WORDS else typed.tiles(t, rules),
            "play": lambda t: typed.chunks(t, rules),
            "table": lambda t: _table(typed.fix_word(t)[1], rules),
        }
        if command not in readers:
            raise OptionError("no tiles to read")
        readers[command](args)
        return
    position = typed.parse_position(text, bot_username, group=group)
    if position is None:
        if group or not typed.tiles(text, rules):
            raise OptionError("no tiles to read")
        return
    if position.rack is not None:
        typed.tiles(position.rack, rules)
    if position.table is not None:
        _table(typed.fix_word(position.table)[1], rules)


def _table(text: str, rules: Rules) -> None:
    """A table as ``handlers.table.read_table_for`` reads it: sets as typed, else loose tiles (their sets are
    the solver's to find)."""
    if given_as_sets(text):
        typed.table(text, rules)
    else:
        typed.tiles(text, rules)


def readings(text: str, rules: Rules, *, group: bool = False, bot_username: str | None = None) -> list[str]:
    """The nearest right readings of ``text`` (at most ``MOST_READINGS``), each readable whole; none when
    the mistake is not one to mend (or there is none)."""
    start = _labels_mended(text, group=group)
    found: list[str] = []
    for reading in _mend(start, rules, group, bot_username, MOST_MENDS):
        if reading != text and reading not in found:
            found.append(reading)
        if len(found) == MOST_READINGS:
            break
    return found


def _mend(text: str, rules: Rules, group: bool, bot_username: str | None, left: int) -> Iterator[str]:
    try:
        read_message(text, rules, group=group, bot_username=bot_username)
    except NotationError as why:
        at = text.find(why.token)
        if left == 0 or why.set_number is not None or at < 0:
            return
        wrong = why.token
        rights = token_readings(wrong, rules)
        after = _NEXT.match(text, at + len(wrong))
        if not rights and after is not None:  # a number and a word apart: "3 rde", "rde 3"
            wrong = text[at : after.end()]
            rights = token_readings(wrong, rules)
        for right in rights:
            yield from _mend(text[:at] + right + text[at + len(wrong) :], rules, group, bot_username, left - 1)
        return
    except OptionError:
        return
    yield text


def _labels_mended(text: str, *, group: bool) -> str:
    """``text`` with each line that starts with a near miss of a label (``rakc:``, ``rack`` without the colon)
    starting with the label itself."""
    lines = []
    for line in text.split("\n"):
        meant = typed.misspelt_keyword(line, cutoff=0.7)
        m = re.match(r"\s*[^\W\d_]+\s*:?", line)
        rest = line[m.end() :].strip() if m is not None else ""
        if meant is not None and rest and (not group or ":" in line.split()[0]):  # a group reads labelled lines
            line = f"{meant}: {rest}"
        lines.append(line)
    return "\n".join(lines)
