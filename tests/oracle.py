"""An independent, exhaustive answer for small positions, to check the solver against.

It knows nothing of the model: it tries every subset of the rack and asks,
with a memoised search over ``make_set``, whether the table plus that subset
splits into valid sets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from solver.rules import Rules
from solver.sets import is_valid
from solver.tiles import Tile


def best_value(tiles: Sequence[Tile], rules: Rules) -> int:
    """The most points a valid set of these tiles can be worth (each joker as its tile)."""
    real = [t for t in tiles if not t.is_joker]
    best = -1
    number = real[0].number
    if all(t.number == number for t in real) and is_valid(tiles, rules):
        colours = {t.colour for t in real}
        if len(colours) == len(real) and len(tiles) <= rules.colours:
            best = number * len(tiles)
    colour = real[0].colour
    if all(t.colour == colour for t in real):
        have = {t.number for t in real}
        if len(have) == len(real):
            for start in range(1, rules.numbers - len(tiles) + 2):
                span = set(range(start, start + len(tiles)))
                if have <= span:
                    best = max(best, sum(span))
    return best


def _splits(tiles: tuple[Tile, ...], rules: Rules, need: int) -> bool:
    """Can ``tiles`` be laid as valid sets worth at least ``need`` points in all?"""

    @cache
    def go(rest: tuple[Tile, ...], need: int) -> bool:
        if not rest:
            return need <= 0
        first, others = rest[0], rest[1:]
        for size in range(rules.smallest_set - 1, len(others) + 1):
            for pick in set(combinations(others, size)):
                group = (first, *pick)
                if not is_valid(group, rules):
                    continue
                left = list(others)
                for t in pick:
                    left.remove(t)
                if go(tuple(left), need - best_value(group, rules)):
                    return True
        return False

    return go(tiles, need)


def _key(t: Tile) -> tuple[int, str]:
    return (t.number, str(t))


def most_tiles(rack: Sequence[Tile], table: Sequence[Tile], rules: Rules, *, initial_meld: bool = False) -> int:
    """The most rack tiles that can go down (an opening: new sets of rack tiles only, worth the threshold)."""
    base = () if initial_meld else tuple(table)
    need = rules.initial_meld if initial_meld else -(10**9)
    for size in range(len(rack), 0, -1):
        for pick in {tuple(sorted(c, key=_key)) for c in combinations(rack, size)}:
            tiles = tuple(sorted(base + pick, key=_key))
            if _splits(tiles, rules, need):
                return size
    return 0


def counted(tiles: Sequence[Tile]) -> Counter[Tile]:
    return Counter(tiles)
