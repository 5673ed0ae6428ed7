"""Sets: runs and groups, their validity, and where each joker stands.

A set is kept together with what each of its tiles stands for, so a joker's
value (for the initial meld and the points objective) and its place in a run
are known wherever the set goes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from solver.errors import RummikubError
from solver.rules import Rules
from solver.text import N_, Text, counted, say
from solver.tiles import JOKER, Colour, Tile


class Kind(Enum):
    RUN = "run"
    GROUP = "group"


class SetError(RummikubError):
    """Tiles that do not make a valid set; the message says why."""


@dataclass(frozen=True, slots=True)
class TileSet:
    """A valid run or group, tiles in display order.

    ``stands_for`` runs beside ``tiles``: the numbered tile each position is
    (a joker's entry says which tile it replaces).
    """

    kind: Kind
    tiles: tuple[Tile, ...]
    stands_for: tuple[Tile, ...]

    def __str__(self) -> str:
        return " ".join(str(t) for t in self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def value(self) -> int:
        """Points of the set, each joker counted as the tile it stands for."""
        return sum(t.number for t in self.stands_for)

    @property
    def joker_value(self) -> int:
        return sum(s.number for t, s in zip(self.tiles, self.stands_for, strict=True) if t.is_joker)

    @property
    def jokers(self) -> int:
        return sum(1 for t in self.tiles if t.is_joker)

    @property
    def colour(self) -> Colour | None:
        """The run's colour (None for a group)."""
        return self.stands_for[0].colour if self.kind is Kind.RUN else None

    @property
    def low(self) -> int:
        return min(t.number for t in self.stands_for)

    @property
    def high(self) -> int:
        return max(t.number for t in self.stands_for)

    def counts(self) -> Counter[Tile]:
        return Counter(self.tiles)

    @staticmethod
    def run(colour: Colour, start: int, jokers_at: Iterable[int] = (), length: int = 3) -> TileSet:
        """A run from ``start``; ``jokers_at`` are offsets (0-based) where a joker lies."""
        at = set(jokers_at)
        stands = tuple(Tile(start + i, colour) for i in range(length))
        tiles = tuple(JOKER if i in at else stands[i] for i in range(length))
        return TileSet(Kind.RUN, tiles, stands)

    @staticmethod
    def group(number: int, colours: Sequence[Colour], jokers_for: Sequence[Colour] = ()) -> TileSet:
        """A group of ``number`` in ``colours``, jokers standing for ``jokers_for``."""
        real = tuple(Tile(number, c) for c in colours)
        stands = real + tuple(Tile(number, c) for c in jokers_for)
        return TileSet(Kind.GROUP, real + (JOKER,) * len(jokers_for), stands)


def make_set(tiles: Sequence[Tile], rules: Rules) -> TileSet:
    """Check ``tiles`` form a valid set and lay them out canonically.

    Where the tiles as given already read as a run (low to high or high to
    low), each joker keeps the place it was given; otherwise jokers fill gaps
    first, then the high end, then the low end.
    """
    n = len(tiles)
    if n < rules.smallest_set:
        raise SetError(N_("a set has at least {least} tiles, this has {count}"), least=rules.smallest_set, count=n)
    real = [t for t in tiles if not t.is_joker]
    jokers = n - len(real)
    if not real:
        raise SetError(N_("a set needs at least one numbered tile besides the jokers"))
    for t in real:
        if rules.copies_of(t) == 0:
            raise SetError(N_("{tile} is not in this game's deck"), tile=t)
    numbers = {t.number for t in real}
    colours = {t.colour for t in real}
    run_error = _run_problem(real, jokers, rules)
    if run_error is None:
        return _lay_run(tiles, real, jokers, rules)
    if len(numbers) == 1:
        group_error = _group_problem(real, jokers, rules)
        if group_error is None:
            return _lay_group(real, jokers, rules)
        raise SetError(group_error)
    if len(colours) == 1:
        raise SetError(run_error)
    raise SetError(
        N_(
            "mixes numbers and colours: a run is one colour with numbers in a row, "
            "a group is one number in different colours"
        )
    )


def is_valid(tiles: Sequence[Tile], rules: Rules) -> bool:
    try:
        make_set(tiles, rules)
    except SetError:
        return False
    return True


def _run_problem(real: list[Tile], jokers: int, rules: Rules) -> Text | None:
    if len({t.colour for t in real}) != 1:
        return say("a run is all one colour")
    numbers = sorted(t.number for t in real)
    for a, b in itertools.pairwise(numbers):
        if a == b:
            return say("{tile} is twice in the run; a run has each number once", tile=Tile(a, real[0].colour))
    total = len(real) + jokers
    if total > rules.numbers:
        return say("a run is at most {most} tiles long", most=rules.numbers)
    gaps = numbers[-1] - numbers[0] + 1 - len(numbers)
    if gaps > jokers:
        if numbers[0] == 1 and numbers[-1] == rules.numbers:
            return say("a run does not wrap around: {most}-1 is not a run", most=rules.numbers)
        colour = real[0].colour
        assert colour is not None
        have = set(numbers)
        missing = " ".join(str(Tile(n, colour)) for n in range(numbers[0], numbers[-1] + 1) if n not in have)
        return counted("a run has no gaps: {tiles} is missing", "a run has no gaps: {tiles} are missing", gaps,
                       tiles=missing)  # fmt: skip
    return None


def _group_problem(real: list[Tile], jokers: int, rules: Rules) -> Text | None:
    seen: set[Colour | None] = set()
    for t in real:
        if t.colour in seen:
            return say("a group has at most one tile of each colour, {tile} is there twice", tile=t)
        seen.add(t.colour)
    if len(real) + jokers > rules.max_group:
        return say("a group has at most {most} tiles, one of each colour", most=rules.max_group)
    return None


def _lay_run(given: Sequence[Tile], real: list[Tile], jokers: int, rules: Rules) -> TileSet:
    colour = real[0].colour
    assert colour is not None
    n = len(given)
    for order in (list(given), list(reversed(given))):
        starts = {t.number - i for i, t in enumerate(order) if not t.is_joker}
        if len(starts) == 1:
            start = starts.pop()
            if start >= 1 and start + n - 1 <= rules.numbers:
                at = [i for i, t in enumerate(order) if t.is_joker]
                return TileSet.run(colour, start, at, n)
    numbers = sorted(t.number for t in real)
    low, high = numbers[0], numbers[-1]
    spare = jokers - (high - low + 1 - len(numbers))
    above = min(spare, rules.numbers - high)
    start = low - (spare - above)
    have = set(numbers)
    at = [i for i in range(n) if start + i not in have]
    return TileSet.run(colour, start, at, n)


def _lay_group(real: list[Tile], jokers: int, rules: Rules) -> TileSet:
    present = {t.colour for t in real}
    ordered = [c for c in rules.colour_order if c in present]
    missing = [c for c in rules.colour_order if c not in present][:jokers]
    return TileSet.group(real[0].number, ordered, missing)


def tiles_of(sets: Iterable[TileSet]) -> Counter[Tile]:
    """All tiles of a table, counted."""
    total: Counter[Tile] = Counter()
    for s in sets:
        total.update(s.tiles)
    return total
