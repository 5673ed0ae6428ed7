"""The table's own sets, and the forms each can take while still counting as kept.

A set is kept when it only grew: the new table holds every tile it held,
jokers included, in one set, or in the two halves of a run split by an
inserted tile. In a run each old tile keeps its place (a joker still stands
for the same number); a group's joker may stand for any colour the group
lacks. So a kept form carries the old set's own jokers (a joker swapped for a
real tile, or the reverse, is a change), and the model rewards one kept form
per old set. The answer's ``kept_sets`` counts the old sets laid as one of
these forms: one definition for both.

Tiles added at a run's end are bounded by ``smallest_set - 1``: a longer
growth is a kept form plus a new run, which the display joins.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator
from itertools import combinations
from math import comb

from solver.bounds import MAX_CACHED_FORMS, MAX_FORMS, TooBigError, check_deadline
from solver.candidates import Shape
from solver.rules import Rules
from solver.sets import Kind, TileSet
from solver.text import N_
from solver.tiles import JOKER, Colour, Tile

#: a form: its column, and the tiles it needs besides the old set's own (by ``Tile.id``)
Form = tuple[Shape, tuple[tuple[int, int], ...]]


def variants(old: TileSet, rules: Rules, pool: dict[int, int], deadline: float | None = None) -> list[Shape]:
    """``old`` as it stands (first) and every grown form whose extra tiles the pool can supply.

    ``pool`` counts (by ``Tile.id``) every tile that could lie on the new table, the
    old set's own tiles included; a joker of the pool may stand in for an extra tile.
    Raises ``OutOfTime`` when working out new forms runs past ``deadline`` (``time.perf_counter``).
    """
    spare = dict(pool)
    for t in old.tiles:
        spare[t.id] -= 1
    jokers = spare.get(JOKER.id, 0)
    return [
        shape
        for shape, extra in _forms(old, rules, deadline)
        if sum(max(0, n - spare.get(i, 0)) for i, n in extra) <= jokers
    ]


def warm_forms(rules: Rules) -> None:
    """Work out the grown forms of every joker-free set the rules allow (329 in the standard game).

    A table's sets are mostly new to a solver process, and working out their forms on first sight
    was about a fifth of a first solve.
    """
    for colour in rules.colour_order:
        for low in range(1, rules.numbers + 1):
            for high in range(low + rules.smallest_set - 1, rules.numbers + 1):
                _forms(TileSet.run(colour, low, (), high - low + 1), rules)
    for number in range(1, rules.numbers + 1):
        for size in range(rules.smallest_set, rules.max_group + 1):
            for colours in combinations(rules.colour_order, size):
                _forms(TileSet.group(number, colours), rules)


#: a candidate while enumerating: the sets (the old set's jokers laid in them) and the extra numbered tiles
_Laid = tuple[tuple[TileSet, ...], list[Tile]]


class _FormsCache:
    """The forms worked out so far, by set and rules; the least recently used go first once more than ``limit``
    forms in all are held (a long run of a big variant has thousands, a standard set a few dozen)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.forms = 0
        self._entries: OrderedDict[tuple[TileSet, Rules], tuple[Form, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[TileSet, Rules]) -> tuple[Form, ...] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: tuple[TileSet, Rules], forms: tuple[Form, ...]) -> None:
        with self._lock:
            if key in self._entries or len(forms) > self.limit:
                return
            self._entries[key] = forms
            self.forms += len(forms)
            while self.forms > self.limit:
                _, dropped = self._entries.popitem(last=False)
                self.forms -= len(dropped)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.forms = 0


FORMS = _FormsCache(MAX_CACHED_FORMS)


def _forms(old: TileSet, rules: Rules, deadline: float | None = None) -> tuple[Form, ...]:
    """Every form that keeps ``old``, the set as it lies first; one per column."""
    found = FORMS.get((old, rules))
    if found is not None:
        return found
    laid = _grown_group(old, rules) if old.kind is Kind.GROUP else _grown_run(old, rules)
    seen: set[tuple[tuple[tuple[int, int], ...], int]] = set()
    out: list[Form] = []
    for k, (sets, extra) in enumerate(laid):
        if k % 64 == 63:
            check_deadline(deadline)
        shape = Shape.of(rules, *sets)
        key = (tuple(sorted(shape.ids)), len(sets))
        if key not in seen:  # a group's joker may stand for either missing colour: one column does
            seen.add(key)
            out.append((shape, tuple((t.id, n) for t, n in Counter(extra).items())))
    forms = tuple(out)
    FORMS.put((old, rules), forms)
    return forms


def form_count(old: TileSet, rules: Rules) -> int:
    """How many forms ``_grown_group`` or ``_grown_run`` lays out for ``old``, counted without laying them."""
    if old.kind is Kind.GROUP:
        have = len({t.colour for t in old.tiles if not t.is_joker})
        missing = rules.colours - have
        return 1 + sum(
            comb(missing, size - have) * comb(size - have, old.jokers) for size in range(len(old), rules.max_group + 1)
        )
    smallest = rules.smallest_set
    lows, highs = _ends(old, rules, _reach(rules))
    total = len(lows) * len(highs)
    lows, highs = _ends(old, rules, _split_reach(rules))
    for cut in range(old.low + 1, old.high):
        total += sum(1 for a in lows if cut - a + 1 >= smallest) * sum(1 for b in highs if b - cut + 1 >= smallest)
    return total


def _reach(rules: Rules) -> int:
    """How far a kept run may grow at an end: ``smallest_set`` tiles more can be a set of their own instead
    (which keeps the run as it was, so the most sets kept never needs the longer form)."""
    return rules.smallest_set - 1


def _split_reach(rules: Rules) -> int:
    """How far a split run's half may grow at its outer end. A half may be as short as the inserted tile and
    one old tile, and then needs ``smallest_set - 2`` tiles of growth itself before ``smallest_set`` more can
    stand apart: growth up to ``2 * smallest_set - 3`` has no shorter form that keeps as many sets."""
    return max(_reach(rules), 2 * rules.smallest_set - 3)


def _ends(old: TileSet, rules: Rules, reach: int) -> tuple[range, range]:
    """The lowest numbers a grown run may start at, and the highest it may end at."""
    lows = range(old.low, max(1, old.low - reach) - 1, -1)
    highs = range(old.high, min(rules.numbers, old.high + reach) + 1)
    return lows, highs


def check_size(table: Iterable[TileSet], rules: Rules) -> None:
    """Refuse a table whose sets grow in more ways than the solver works through (``bounds.MAX_FORMS``)."""
    total = sum(form_count(old, rules) for old in table)
    if total > MAX_FORMS:
        raise TooBigError(
            N_(
                "this table's sets can grow in {total} ways and the solver works through at most {most}: "
                "long runs with smallest_set={smallest} grow in many ways; "
                "lay fewer long runs, or play with a smaller smallest set"
            ),
            total=f"{total:,}",
            most=f"{MAX_FORMS:,}",
            smallest=rules.smallest_set,
        )


def _grown_group(old: TileSet, rules: Rules) -> Iterator[_Laid]:
    """The group with more colours: its jokers still in it, each standing for some colour it lacks."""
    yield (old,), []
    number = old.stands_for[0].number
    have = {t.colour for t in old.tiles if not t.is_joker}
    jokers = old.jokers
    missing = [c for c in rules.colour_order if c not in have]
    for size in range(len(old), rules.max_group + 1):
        for more in combinations(missing, size - len(have)):
            for stand in combinations(more, jokers):
                real = [c for c in rules.colour_order if c in have or (c in more and c not in stand)]
                yield (TileSet.group(number, real, stand),), [Tile(number, c) for c in more if c not in stand]


def _grown_run(old: TileSet, rules: Rules) -> Iterator[_Laid]:
    """The run grown at its ends, or split by a tile inserted inside it, every old tile (a joker too) in its place.

    The split's halves share the inserted number; the old tile of that number goes in the lower half.
    """
    colour = old.colour
    assert colour is not None
    low, high = old.low, old.high
    smallest = rules.smallest_set
    jokers = [s.number for t, s in zip(old.tiles, old.stands_for, strict=True) if t.is_joker]
    lows, highs = _ends(old, rules, _reach(rules))
    for a in lows:
        for b in highs:
            yield (_run(colour, a, b, jokers),), _extra(colour, a, b, low, high)
    lows, highs = _ends(old, rules, _split_reach(rules))
    for cut in range(low + 1, high):
        for a in lows:
            for b in highs:
                if cut - a + 1 >= smallest and b - cut + 1 >= smallest:
                    halves = (_run(colour, a, cut, jokers), _run(colour, cut, b, [n for n in jokers if n != cut]))
                    yield halves, [*_extra(colour, a, b, low, high), Tile(cut, colour)]


def _extra(colour: Colour, a: int, b: int, low: int, high: int) -> list[Tile]:
    return [Tile(n, colour) for n in [*range(a, low), *range(high + 1, b + 1)]]


def _run(colour: Colour, low: int, high: int, jokers_at: Iterable[int] = ()) -> TileSet:
    """The run ``low``-``high``, a joker at each number of ``jokers_at`` that lies in it."""
    return TileSet.run(colour, low, [n - low for n in jokers_at if low <= n <= high], high - low + 1)


__all__ = ["FORMS", "Form", "check_size", "form_count", "variants", "warm_forms"]
