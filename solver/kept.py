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

from solver.candidates import Shape
from solver.rules import Rules
from solver.sets import Kind, TileSet
from solver.tiles import JOKER, Colour, Tile


def variants(old: TileSet, rules: Rules, pool: Counter[Tile]) -> list[Shape]:
    """``old`` as it stands (first) and every grown form whose extra tiles the pool can supply."""
    spare = pool.copy()
    spare.subtract(old.tiles)
    if old.kind is Kind.GROUP:
        forms = _grown_group(old, rules, spare)
    else:
        forms = _grown_run(old, rules, spare)
    return [Shape.of(*sets) for sets in forms]


def _can(spare: Counter[Tile], extra: list[Tile]) -> bool:
    missing = sum(max(0, n - spare[t]) for t, n in Counter(extra).items())
    return missing <= spare[JOKER]


def _grown_group(old: TileSet, rules: Rules, spare: Counter[Tile]) -> Iterator[tuple[TileSet, ...]]:
    number = old.stands_for[0].number
    have = {s.colour for s in old.stands_for}
    missing = [c for c in rules.colour_order if c not in have]
    for mask in range(1 << len(missing)):
        add = [c for k, c in enumerate(missing) if mask >> k & 1]
        if _can(spare, [Tile(number, c) for c in add]):
            yield (TileSet.group(number, [c for c in rules.colour_order if c in have or c in add]),)


def _grown_run(old: TileSet, rules: Rules, spare: Counter[Tile]) -> Iterator[tuple[TileSet, ...]]:
    colour = old.colour
    assert colour is not None
    low, high, reach = old.low, old.high, rules.smallest_set - 1
    lows = range(low, max(1, low - reach) - 1, -1)
    highs = range(high, min(rules.numbers, high + reach) + 1)
    for a in lows:
        for b in highs:
            extra = [Tile(n, colour) for n in [*range(a, low), *range(high + 1, b + 1)]]
            if _can(spare, extra):
                yield (_run(colour, a, b),)
    for cut in range(low + rules.smallest_set - 1, high - rules.smallest_set + 2):
        for a in lows:
            for b in highs:
                extra = [Tile(n, colour) for n in [*range(a, low), cut, *range(high + 1, b + 1)]]
                if _can(spare, extra):
                    yield (_run(colour, a, cut), _run(colour, cut, b))


def _run(colour: Colour, low: int, high: int) -> TileSet:
    return TileSet.run(colour, low, (), high - low + 1)
