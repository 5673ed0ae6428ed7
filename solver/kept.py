"""The table's own sets, and the ways each can grow while still counting as kept.

This is the paper's trick, widened: besides the generic shapes, each old set
is offered as it stands, grown at its ends, or (for a run) split by a tile
inserted inside it. The model rewards these columns slightly, so among equally
good plays it picks the one that disturbs the table least. Growing an end by a
whole run's worth of tiles needs no column of its own: the model lays those as
a run and the display joins the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from solver.candidates import Shape
from solver.rules import Rules
from solver.sets import Kind, TileSet
from solver.tiles import JOKER, Colour, Tile


def variants(old: TileSet, rules: Rules, pool: dict[int, int]) -> list[Shape]:
    """``old`` as it stands (first) and every grown form whose extra tiles the pool can supply.

    ``pool`` counts (by ``Tile.id``) every tile that could lie on the new table, the
    old set's own tiles included.
    """
    spare = dict(pool)
    for t in old.tiles:
        spare[t.id] -= 1
    jokers = spare.get(JOKER.id, 0)
    return [
        shape
        for shape, extra in _forms(old.kind, old.stands_for, rules)
        if sum(max(0, n - spare.get(i, 0)) for i, n in extra) <= jokers
    ]


def warm_forms(rules: Rules) -> None:
    """Work out the grown forms of every set the rules allow (329 in the standard game, about 0.1 s).

    A table's sets are mostly new to a solver process, and working out their forms on first sight
    was about a fifth of a first solve.
    """
    for colour in rules.colour_order:
        for low in range(1, rules.numbers + 1):
            for high in range(low + rules.smallest_set - 1, rules.numbers + 1):
                _forms(Kind.RUN, TileSet.run(colour, low, (), high - low + 1).stands_for, rules)
    for number in range(1, rules.numbers + 1):
        for size in range(rules.smallest_set, rules.max_group + 1):
            for colours in combinations(rules.colour_order, size):
                _forms(Kind.GROUP, TileSet.group(number, colours).stands_for, rules)


Form = tuple[Shape, tuple[tuple[int, int], ...]]


@lru_cache(maxsize=4096)
def _forms(kind: Kind, stands_for: tuple[Tile, ...], rules: Rules) -> tuple[Form, ...]:
    """Every grown form of a set (by the tiles it stands for: where its jokers lie does not matter), with
    the extra tiles each needs; cached, as tables repeat."""
    grown = _grown_group(stands_for, rules) if kind is Kind.GROUP else _grown_run(stands_for, rules)
    return tuple((Shape.of(rules, *sets), tuple((t.id, n) for t, n in Counter(extra).items())) for sets, extra in grown)


def _grown_group(stands_for: tuple[Tile, ...], rules: Rules) -> Iterator[tuple[tuple[TileSet, ...], list[Tile]]]:
    number = stands_for[0].number
    have = {s.colour for s in stands_for}
    missing = [c for c in rules.colour_order if c not in have]
    for mask in range(1 << len(missing)):
        add = [c for k, c in enumerate(missing) if mask >> k & 1]
        group = TileSet.group(number, [c for c in rules.colour_order if c in have or c in add])
        yield (group,), [Tile(number, c) for c in add]


def _grown_run(stands_for: tuple[Tile, ...], rules: Rules) -> Iterator[tuple[tuple[TileSet, ...], list[Tile]]]:
    colour = stands_for[0].colour
    assert colour is not None
    low, high = min(t.number for t in stands_for), max(t.number for t in stands_for)
    reach = rules.smallest_set - 1
    lows = range(low, max(1, low - reach) - 1, -1)
    highs = range(high, min(rules.numbers, high + reach) + 1)
    for a in lows:
        for b in highs:
            extra = [Tile(n, colour) for n in [*range(a, low), *range(high + 1, b + 1)]]
            yield (_run(colour, a, b),), extra
    for cut in range(low + rules.smallest_set - 1, high - rules.smallest_set + 2):
        for a in lows:
            for b in highs:
                extra = [Tile(n, colour) for n in [*range(a, low), cut, *range(high + 1, b + 1)]]
                yield (_run(colour, a, cut), _run(colour, cut, b)), extra


def _run(colour: Colour, low: int, high: int) -> TileSet:
    return TileSet.run(colour, low, (), high - low + 1)
