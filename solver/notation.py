"""The tile notation people type, and the canonical way we write tiles back.

See ``ARCHITECTURE.md`` (Tile notation). Every mistake is reported in plain words: the piece that is wrong as it
was typed (and the set it is in), and what would be right. Where it stands (``NotationError.position``) is kept for
a caller that wants to correct it, never said. Colour letters may be a language's own besides the notation's
(``solver.colour_words.letters_for``): German ``7S`` is black.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.colour_words import JOKER_WORDS, LETTERS, NOTHING_WORDS, WORDS, alternatives
from solver.errors import RummikubError
from solver.rules import Rules
from solver.sets import SetError, TileSet, make_set
from solver.text import N_, Text, say
from solver.tiles import JOKER, Colour, Tile
from solver.whole import shown, whole

#: Between sets of a table; brackets too, so ``(3R 4R 5R) (7B 7K 7O)`` is two sets
SET_SEPARATORS = "|;\n/()[]{}"

_WORD = rf"(?:{alternatives(WORDS)})\ufe0f?"
_END = r"(?![^\W_])"  # no letter or digit (of any script) follows
_NO_LETTER = r"(?![^\W\d_])"  # a digit may follow a tile: 3R4R5R and 3🟥4🟥 are tiles run together
_DASH = r"\s*[-\u2013\u2014]\s*"
#: The colour letters read when a caller names none: the notation's own
Letters = dict[str, Colour]


@lru_cache(maxsize=16)
def _token(letters: str) -> re.Pattern[str]:
    """The token pattern for one set of colour letters (``letters``: them all, in one string)."""
    letter = f"[{re.escape(letters)}]"
    colour = rf"(?:{_WORD}|{letter})"
    return re.compile(
        "|".join(
            [
                rf"(?P<run_ncnc>(?P<rn5>[0-9]+)\s*(?P<rc3>{colour}){_DASH}(?P<rn6>[0-9]+)\s*(?P<rc4>{colour})){_END}",
                rf"(?P<run_cncn>(?P<rc5>{colour})\s*(?P<rn7>[0-9]+){_DASH}(?P<rc6>{colour})\s*(?P<rn8>[0-9]+)){_END}",
                rf"(?P<run_nc>(?P<rn1>[0-9]+){_DASH}(?P<rn2>[0-9]+)\s*(?P<rc>{_WORD}|{letter})){_END}",
                rf"(?P<run_cn>(?P<rc2>{_WORD}\s*|{letter})(?P<rn3>[0-9]+){_DASH}(?P<rn4>[0-9]+)){_END}",
                rf"(?P<group_nc>(?P<gn1>[0-9]+)\s*(?P<gc1>{letter}{{2,}})){_END}",
                rf"(?P<group_cn>(?P<gc2>{letter}{{2,}})(?P<gn2>[0-9]+)){_END}",
                rf"(?P<tile_nc>(?P<tn1>[0-9]+)(?:\s*(?P<tw1>{_WORD})|(?P<tl1>{letter})){_NO_LETTER})",
                rf"(?P<tile_cn>(?:(?P<tw2>{_WORD})\s*|(?P<tl2>{letter}))(?P<tn2>[0-9]+)){_END}",
                rf"(?P<joker>\U0001f0cf\ufe0f?|(?:{alternatives(JOKER_WORDS)}|jk|j|\*){_END})",
                rf"(?P<nothing>(?:{alternatives(NOTHING_WORDS)}){_END})",
            ]
        ),
        re.IGNORECASE,
    )


def _letters_key(letters: Letters) -> str:
    return "".join(sorted(letters))


_JUNK = re.compile(r"[^\s,|;/()\[\]{}]+")
# Spaces and commas between tiles; a full stop too (a sentence's end), though not one inside a token
# (any space but a new line, which separates sets: a phone's no-break space too)
_SKIP = re.compile(r"(?:[^\S\n]|,|\.(?![0-9]))+")
# The invisible marks a right-to-left keyboard puts around numbers and words: read as spaces (one character
# for one, so a mistake's position stays right)
_INVISIBLE = re.compile(r"[\u200b-\u200f\u2066-\u2069\ufeff]")


class NotationError(RummikubError):
    """A token or set that cannot be read, with where it stands and a hint."""

    def __init__(self, token: str, position: int, hint: Text, set_number: int | None = None) -> None:
        self.token = token
        #: where the token starts in the text (for a caller correcting it; never said)
        self.position = position
        #: what is wrong and what would be right (``str(hint)`` is the English)
        self.hint = hint
        #: the set (1 for the first) the token is in, when the mistake is in a set as a whole
        self.set_number = set_number
        if set_number is None:
            text = say("{token}: {hint}", token=shown(token), hint=hint)
        else:
            text = say("{token} (set {set}): {hint}", token=shown(token), set=set_number, hint=hint)
        super().__init__(text)

    def __reduce__(self) -> tuple[type[NotationError], tuple[str, int, Text, int | None]]:
        # so the error crosses a process pool intact
        return (type(self), (self.token, self.position, self.hint, self.set_number))


@dataclass(frozen=True, slots=True)
class Token:
    """A tile as read, with the text it came from (for error messages)."""

    tile: Tile
    text: str
    position: int


EXAMPLE = N_("write tiles like 3R, R3, red 3 or J; runs like 3-6R; groups like 7RBK")


def scan(text: str, rules: Rules, letters: Letters | None = None) -> list[list[Token]]:
    """Read ``text`` into chunks of tokens, one chunk per set separator; ``letters``: the colour letters read
    (``solver.colour_words.letters_for`` a language; by default the notation's own)."""
    letters = letters if letters is not None else LETTERS
    token = _token(_letters_key(letters))
    chunks: list[list[Token]] = [[]]
    text = _INVISIBLE.sub(" ", text)
    i = 0
    while i < len(text):
        skip = _SKIP.match(text, i)
        if skip:
            i = skip.end()
            continue
        if text[i] in SET_SEPARATORS:
            chunks.append([])
            i += 1
            continue
        m = token.match(text, i)
        if m is None:
            junk = _JUNK.match(text, i)
            bad = junk.group(0) if junk else text[i]
            raise NotationError(bad, i, _hint_for(bad, rules, letters))
        chunks[-1].extend(_expand(m, rules, letters))
        i = m.end()
    return [c for c in chunks if c]


def parse_tiles(text: str, rules: Rules, letters: Letters | None = None) -> list[Tile]:
    """A loose list of tiles (a rack, tiles drawn): set separators are ignored."""
    return [tok.tile for chunk in scan(text, rules, letters) for tok in chunk]


def parse_set(text: str, rules: Rules, letters: Letters | None = None) -> TileSet:
    """One set, checked and laid out canonically."""
    sets = parse_table(text, rules, letters)
    if len(sets) != 1:
        raise NotationError(text.strip(), 0, say("expected one set, found {count}", count=len(sets)))
    return sets[0]


def parse_table(text: str, rules: Rules, letters: Letters | None = None) -> list[TileSet]:
    """A table written as sets separated by ``|``, ``;``, ``/``, new lines or brackets."""
    sets = []
    for number, chunk in enumerate(scan(text, rules, letters), start=1):
        try:
            sets.append(make_set([tok.tile for tok in chunk], rules))
        except SetError as why:
            span = text[chunk[0].position : chunk[-1].position + len(chunk[-1].text)]
            raise NotationError(span, chunk[0].position, why.text, set_number=number) from None
    return sets


def parse_table_chunks(text: str, rules: Rules, letters: Letters | None = None) -> list[list[Tile]]:
    """The table's chunks as raw tile lists, not yet checked as sets."""
    return [[tok.tile for tok in chunk] for chunk in scan(text, rules, letters)]


def format_tile(t: Tile) -> str:
    return str(t)


def format_tiles(tiles: Iterable[Tile], rules: Rules) -> str:
    """Tiles colour by colour, low to high, jokers last (how a rack is shown)."""
    return " ".join(str(t) for t in sorted(tiles, key=rules.tile_key))


def format_set(s: TileSet) -> str:
    return str(s)


def format_table(sets: Sequence[TileSet]) -> str:
    return " | ".join(str(s) for s in sets)


def _colour(name: str, token: str, position: int, rules: Rules, letters: Letters) -> Colour:
    key = name.strip().rstrip("\ufe0f").lower()
    colour = letters[key] if key in letters else WORDS[key]
    if colour not in rules.colour_order:
        raise NotationError(
            token, position, say("this game's colours are {colours}", colours=_colours_hint(rules, letters))
        )
    return colour


def _number(digits: str, token: str, position: int, rules: Rules) -> int:
    n = whole(digits) or 0  # the pattern reads ASCII digits only; a number of thousands of digits is just too big
    if not 1 <= n <= rules.numbers:
        raise NotationError(token, position, say("a tile's number goes from 1 to {most}", most=rules.numbers))
    return n


def _expand(m: re.Match[str], rules: Rules, letters: Letters) -> list[Token]:
    text, pos = m.group(0), m.start()
    kind = m.lastgroup
    if kind == "joker":
        return [Token(JOKER, text, pos)]
    if kind == "nothing":  # table: none
        return []
    if kind in ("run_ncnc", "run_cncn"):
        ncnc = kind == "run_ncnc"
        first, last = (m.group("rc3"), m.group("rc4")) if ncnc else (m.group("rc5"), m.group("rc6"))
        colour = _colour(first, text, pos, rules, letters)
        if _colour(last, text, pos, rules, letters) is not colour:
            raise NotationError(text, pos, say("a run is one colour, like 3R-6R"))
        lo_s, hi_s = (m.group("rn5"), m.group("rn6")) if ncnc else (m.group("rn7"), m.group("rn8"))
        return _run(lo_s, hi_s, colour, text, pos, rules)
    if kind in ("tile_nc", "tile_cn"):
        digits = m.group("tn1") or m.group("tn2")
        name = m.group("tw1") or m.group("tl1") or m.group("tw2") or m.group("tl2")
        t = Tile(_number(digits, text, pos, rules), _colour(name, text, pos, rules, letters))
        return [Token(t, text, pos)]
    if kind in ("run_nc", "run_cn"):
        lo_s, hi_s = (m.group("rn1"), m.group("rn2")) if kind == "run_nc" else (m.group("rn3"), m.group("rn4"))
        colour = _colour(m.group("rc") or m.group("rc2"), text, pos, rules, letters)
        return _run(lo_s, hi_s, colour, text, pos, rules)
    digits = m.group("gn1") or m.group("gn2")
    named = (m.group("gc1") or m.group("gc2")).lower()
    n = _number(digits, text, pos, rules)
    colours = [_colour(letter, text, pos, rules, letters) for letter in named]
    if len(set(colours)) != len(colours):
        raise NotationError(text, pos, say("a group names each colour once, like 7RBK"))
    return [Token(Tile(n, c), text, pos) for c in colours]


def _run(lo_s: str, hi_s: str, colour: Colour, text: str, pos: int, rules: Rules) -> list[Token]:
    lo, hi = _number(lo_s, text, pos, rules), _number(hi_s, text, pos, rules)
    if lo == hi:
        raise NotationError(
            text, pos, say("a run needs two different numbers, like {like}", like=f"{lo}-{lo + 2}{colour.letter}")
        )
    if lo > hi:
        raise NotationError(text, pos, say("write a run low to high, like {like}", like=f"{hi}-{lo}{colour.letter}"))
    return [Token(Tile(n, colour), text, pos) for n in range(lo, hi + 1)]


def _hint_for(bad: str, rules: Rules, letters: Letters) -> Text:
    m = re.fullmatch(r"([0-9]+)([^\W\d_]*)|([^\W\d_]+)([0-9]+)", bad)
    if m and not ((m.group(2) or "") + (m.group(3) or "")).isalpha() and (m.group(2) or m.group(3)):
        m = None  # a number written in another script is no number
    if m:
        digits = m.group(1) or m.group(4)
        named = (m.group(2) if m.group(1) else m.group(3)) or ""
        if not 1 <= (whole(digits) or 0) <= rules.numbers:
            return say("a tile's number goes from 1 to {most}", most=rules.numbers)
        if not named:
            return say("a tile needs a colour: {colours}", colours=_colours_hint(rules, letters))
        return say("{letters} is no colour; the colours are {colours}", letters=named,
                   colours=_colours_hint(rules, letters))  # fmt: skip
    if bad.isalpha():
        return say("a tile needs a number too: {example}", example=say(EXAMPLE))
    return say("this is no tile: {example}", example=say(EXAMPLE))


#: the colours' names in the hint "R red, B blue, K black, O orange"
_COLOUR_HINTS = {
    Colour.RED: N_("{letter} red"),
    Colour.BLUE: N_("{letter} blue"),
    Colour.BLACK: N_("{letter} black"),
    Colour.ORANGE: N_("{letter} orange"),
}


def _colours_hint(rules: Rules, letters: Letters | None = None) -> Text:
    """ "R red, B blue, K black, O orange": the game's colours, letter and name (a language's own letter where
    it has one: German "S black")."""
    own = {c: k.upper() for k, c in (letters or {}).items() if k not in LETTERS}
    names = [say(_COLOUR_HINTS[c], letter=own.get(c, c.letter)) for c in rules.colour_order]
    listed = names[0]
    for name in names[1:]:
        listed = say("{first}, {next}", first=listed, next=name)
    return listed
