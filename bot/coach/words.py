"""The coach's shared words: a table set as a person names it ("the blue run (set 3)"), a grouping of rack tiles
("your 7s", "your blue tiles"), lists ("A, B and C"), tile lists and percentages.

Each colour has whole phrases of its own (not a colour word put into a phrase), so a language can agree the
adjective with its noun. Set numbers are the game's (``GameState.numbers``), as the moves say them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from solver.rules import Rules
from solver.sets import Kind, TileSet
from solver.text import N_, Text, counted, say
from solver.tiles import Colour, Tile

#: "the blue run (set 3)", by the run's colour
RUN_WORDS: dict[Colour, str] = {
    Colour.RED: N_("the red run (set {set})"),
    Colour.BLUE: N_("the blue run (set {set})"),
    Colour.BLACK: N_("the black run (set {set})"),
    Colour.ORANGE: N_("the orange run (set {set})"),
}
GROUP_WORDS = N_("the group of {number}s (set {set})")

#: "your blue tiles": rack tiles that go into runs of that colour
COLOUR_TILES: dict[Colour, str] = {
    Colour.RED: N_("your red tiles"),
    Colour.BLUE: N_("your blue tiles"),
    Colour.BLACK: N_("your black tiles"),
    Colour.ORANGE: N_("your orange tiles"),
}
NUMBER_TILES = N_("your {number}s")

#: "red: 1R 2R 2R", a line of the unseen tiles by colour
COLOUR_LINE: dict[Colour, str] = {
    Colour.RED: N_("red: {tiles}"),
    Colour.BLUE: N_("blue: {tiles}"),
    Colour.BLACK: N_("black: {tiles}"),
    Colour.ORANGE: N_("orange: {tiles}"),
}


def set_words(s: TileSet, number: int) -> Text:
    """A table set by its kind and its number: "the blue run (set 3)", "the group of 7s (set 5)"."""
    if s.kind is Kind.RUN:
        colour = s.colour
        assert colour is not None, "a run has a colour"
        return say(RUN_WORDS[colour], set=number)
    return say(GROUP_WORDS, number=s.stands_for[0].number, set=number)


def number_tiles(number: int) -> Text:
    return say(NUMBER_TILES, number=number)


def colour_tiles(colour: Colour) -> Text:
    return say(COLOUR_TILES[colour])


def jokers_words(on_rack: int) -> Text:
    """The rack's joker(s), as many as the player holds (which the player knows): no count is given away."""
    return counted("your joker", "your jokers", max(1, on_rack))


def listed(parts: Sequence[Text]) -> Text:
    """ "A", "A and B", "A, B and C" (the moves' own templates)."""
    assert parts, "a list of nothing"
    out = parts[0]
    for part in parts[1:-1]:
        out = say("{first}, {next}", first=out, next=part)
    return out if len(parts) == 1 else say("{first} and {last}", first=out, last=parts[-1])


def either(parts: Sequence[Text | str]) -> Text | str:
    """ "A", "A or B", "A, B or C"."""
    assert parts, "a list of nothing"
    out = parts[0]
    for part in parts[1:-1]:
        out = say("{first}, {next}", first=out, next=part)
    return out if len(parts) == 1 else say("{first} or {last}", first=out, last=parts[-1])


def tiles_words(tiles: Iterable[Tile], rules: Rules) -> str:
    """Tiles in the notation, in the rules' order: "7R 7B 8B J" (the same in every language)."""
    return " ".join(str(t) for t in sorted(tiles, key=rules.tile_key))


def percent(p: Fraction) -> str:
    """A chance as a whole percentage, rounded half up, never rounded to a certainty it is not: "<1", ">99"."""
    if p <= 0:
        return "0"
    if p >= 1:
        return "100"
    whole = int(p * 100 + Fraction(1, 2))
    if whole < 1:
        return "<1"
    if whole > 99:
        return ">99"
    return str(whole)
