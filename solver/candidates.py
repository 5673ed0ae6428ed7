"""Every set shape a variant allows, as columns for the model.

A shape is a set written without jokers (what each tile stands for). Jokers are
not enumerated into sets: the model lets a joker stand in for any tile of a
shape. That keeps every legal set, jokers at the ends and two jokers included,
with a tenth of the columns. Runs longer than ``2 * smallest_set - 1`` are
left out because they split into shorter valid runs (the display joins them).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from solver.bounds import check_deadline
from solver.rules import Rules
from solver.sets import TileSet
from solver.tiles import JOKER, Tile


@dataclass(frozen=True, slots=True)
class Shape:
    """A column of the model: one set, or the two halves of a split run.

    A generic shape is laid without jokers (joker columns stand in for its
    tiles); a kept form of an old set carries that set's own jokers, so its
    counts are of the numbered tiles only and ``jokers`` says how many more.
    """

    sets: tuple[TileSet, ...]
    #: the numbered tiles it holds (its jokers are not counted here)
    counts: tuple[tuple[Tile, int], ...]
    #: ``counts`` keyed by ``Tile.id``, for the hot loops
    ids: tuple[tuple[int, int], ...]
    #: ``counts`` keyed by the tile's row in the model (its place in ``Rules.tiles()``)
    rows: tuple[tuple[int, int], ...]
    #: the ``Tile.id`` of every numbered tile in the shape
    id_set: frozenset[int]
    size: int
    #: points for the initial meld: each joker counted as the tile it stands for
    value: int
    #: the face value of its numbered tiles (what leaves a rack, jokers apart)
    face: int
    jokers: int

    @staticmethod
    def of(rules: Rules, *sets: TileSet) -> Shape:
        counter: Counter[Tile] = Counter()
        for s in sets:
            counter.update(t for t in s.tiles if not t.is_joker)
        counts = tuple(counter.items())
        ids = tuple((t.id, n) for t, n in counts)
        row = tile_rows(rules)
        rows = tuple((row[t], n) for t, n in counts)
        id_set = frozenset(i for i, _ in ids)
        size = sum(len(s) for s in sets)
        face = sum(t.number * n for t, n in counts)
        jokers = sum(s.jokers for s in sets)
        return Shape(sets, counts, ids, rows, id_set, size, sum(s.value for s in sets), face, jokers)


_SHAPES: dict[Rules, tuple[Shape, ...]] = {}
_SHAPES_LOCK = threading.Lock()
#: the rule variants whose shapes are kept (the oldest goes first)
_VARIANTS_KEPT = 16


def all_shapes(rules: Rules, deadline: float | None = None) -> tuple[Shape, ...]:
    """Every joker-free set shape under ``rules``: runs up to twice the smallest set, all groups.

    Worked out once per variant; a big variant's thousands of shapes count against
    ``deadline`` (``OutOfTime``), and shapes cut short are not kept.
    """
    found = _SHAPES.get(rules)
    if found is None:
        found = tuple(_shapes(rules, deadline))
        with _SHAPES_LOCK:
            if len(_SHAPES) >= _VARIANTS_KEPT:
                del _SHAPES[next(iter(_SHAPES))]
            _SHAPES[rules] = found
    return found


def _shapes(rules: Rules, deadline: float | None) -> Iterator[Shape]:
    longest_run = 2 * rules.smallest_set - 1
    for colour in rules.colour_order:
        for length in range(rules.smallest_set, min(longest_run, rules.numbers) + 1):
            check_deadline(deadline)
            for start in range(1, rules.numbers - length + 2):
                yield Shape.of(rules, TileSet.run(colour, start, (), length))
    for number in range(1, rules.numbers + 1):
        check_deadline(deadline)
        for size in range(rules.smallest_set, rules.max_group + 1):
            for colours in combinations(rules.colour_order, size):
                yield Shape.of(rules, TileSet.group(number, colours))


def available(rules: Rules, pool: dict[int, int], deadline: float | None = None) -> list[Shape]:
    """The shapes the pool (counts by ``Tile.id``) can make at least once, jokers filling in."""
    jokers = pool.get(JOKER.id, 0)
    have = set(pool)  # a real set: set algebra with dict keys is ten times slower
    if not jokers:
        return [s for s in all_shapes(rules, deadline) if s.id_set <= have]
    return [s for s in all_shapes(rules, deadline) if len(s.id_set - have) <= jokers]


@lru_cache(maxsize=16)
def tile_rows(rules: Rules) -> dict[Tile, int]:
    """Each numbered tile's row in the model: its place in ``Rules.tiles()``."""
    return {t: i for i, t in enumerate(rules.tiles())}
