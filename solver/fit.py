"""`/fit 3R`: the one-tile puzzle on a game's table ("how do I get this one tile on, in the fewest actions?").

The game's sets become the puzzle's rows, numbered like the table (set 1 is
the first set); the puzzle's move rules apply unchanged, with the game's
colours, numbers and group size. Sets made by a split get the next free
numbers, as in the puzzle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.puzzle_rows import JOKER_CODE, Limits, Row, code, colour_of, layout, number_of
from solver.puzzle_search import Action, ActionKind, search, start_state
from solver.rules import Rules
from solver.sets import TileSet, make_set
from solver.text import Text, counted, say
from solver.tiles import JOKER, Tile

MAX_ACTIONS = 20
MAX_STATES = 200_000
#: A chat command should answer in seconds; big tables give up with ``PuzzleLimitError`` instead.
TIME_LIMIT = 3.0


@dataclass(frozen=True, slots=True)
class FitAction:
    """One puzzle action on the game's table: ``set`` (and ``other`` for COMBINE) are set numbers."""

    kind: ActionKind
    tile: Tile | None
    set: int
    other: int | None = None

    def __str__(self) -> str:
        if self.kind is ActionKind.COMBINE:
            return f"COMBINE {self.set} {self.other}"
        return f"{self.kind.value} {self.tile} {self.set}"

    def text(self) -> Text:
        """The action in the game's words, as a template and its values."""
        if self.kind is ActionKind.COMBINE:
            return say("Join set {other} onto set {set}", other=self.other, set=self.set)
        if self.kind is ActionKind.TAKE:
            return say("Take {tile} from set {set}", tile=self.tile, set=self.set)
        return say("Put {tile} in set {set}", tile=self.tile, set=self.set)

    def describe(self) -> str:
        """The action in the game's words (English)."""
        return str(self.text())


@dataclass(frozen=True, slots=True)
class Fit:
    """The fewest actions that put ``tile`` on the table, and the sets they leave (by number)."""

    tile: Tile
    actions: tuple[FitAction, ...]
    sets: tuple[tuple[int, TileSet], ...]

    def numbered(self) -> list[Text]:
        """Numbered actions in the game's words, as templates and their values."""
        return [say("{number}. {action}", number=i, action=a.text()) for i, a in enumerate(self.actions, start=1)]

    def lines(self) -> list[str]:
        """Numbered actions in the game's words (English)."""
        return [str(line) for line in self.numbered()]

    def texts(self) -> list[Text]:
        """A whole reply, line by line: how many actions, the actions, and the sets they leave."""
        head = counted("{tile} fits in {n} action:", "{tile} fits in {n} actions:", len(self.actions), tile=self.tile)
        table = [say("  set {number}: {tiles}", number=n, tiles=str(s)) for n, s in self.sets]
        return [head, *self.numbered(), say("Table after:"), *table]

    def describe(self) -> str:
        """A whole reply (English): how many actions, the actions, and the sets they leave."""
        return "\n".join(str(line) for line in self.texts())


def limits_of(rules: Rules) -> Limits:
    return Limits(numbers=rules.numbers, colours=rules.colours, smallest=rules.smallest_set)


def encode(t: Tile, rules: Rules) -> int:
    if t.colour is None:
        return JOKER_CODE
    return code(t.number, rules.colour_rank(t.colour))


def decode(c: int, rules: Rules) -> Tile:
    if c == JOKER_CODE:
        return JOKER
    return Tile(number_of(c), rules.colour_order[colour_of(c)])


def fit(
    table: Sequence[TileSet],
    tile: Tile,
    rules: Rules,
    *,
    max_actions: int = MAX_ACTIONS,
    max_states: int = MAX_STATES,
    time_limit: float | None = TIME_LIMIT,
) -> Fit | None:
    """How to put ``tile`` onto ``table`` in the fewest puzzle actions, or None if it cannot be done.

    Raises ``PuzzleLimitError`` when the table is too big to search to the end in time.
    """
    limits = limits_of(rules)
    rows: dict[int, Row] = {i: tuple(sorted(encode(t, rules) for t in s.tiles)) for i, s in enumerate(table, 1)}
    found = search(start_state(rows), encode(tile, rules), limits, max_actions, max_states, time_limit)
    if found is None:
        return None
    sets = tuple((rid, make_set([decode(c, rules) for c in layout(row, limits)], rules)) for rid, row in found.rows)
    return Fit(tile, tuple(_action(a, rules) for a in found.actions), sets)


def _action(a: Action, rules: Rules) -> FitAction:
    if a.kind is ActionKind.COMBINE:
        return FitAction(a.kind, None, a.row, a.other)
    return FitAction(a.kind, decode(a.tile, rules), a.row)
