"""An independent answer for small positions, by exhaustive search, to check the solver against.

It uses none of the solver's code (no set checks, no model, no layout): only the
``Tile`` and ``Rules`` values and the table's sets as given. It lists every
set the rules allow, laid out (a run's jokers at their numbers), tries every
part of the rack, and searches every way to lay the table plus that part in
sets, crediting a new set (or the two halves of a run split by an inserted
tile) to an old set it keeps. The rules it follows, written from the issue:

- points are what the rack's tiles count on the table: each number tile its
  number, each joker from the rack the number it stands for; jokers are alike,
  so as many jokers as the rack gave count, at the highest numbers the jokers
  stand for outside the old sets kept with their own jokers (the opening's
  threshold counts each joker as the number it stands for);
- an old set is kept when it only grew: a run's every tile is in its place
  (a joker standing for the same number), in one run or in the two halves of
  a split that share the inserted number; a group's colours are all there
  with at least its jokers. A new set keeps at most one old set;
- the best play is the most tiles, then the most sets kept, then the most
  points; or (most points) the most points, then sets kept, then tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from solver.rules import Rules
from solver.tiles import JOKER, Colour, Tile


@dataclass(frozen=True)
class Laid:
    """A set as it lies: a run (``colour``, ``low``-``high``, jokers at ``jokers_at``) or a group of ``number``."""

    tiles: tuple[Tile, ...]
    colour: Colour | None = None
    low: int = 0
    high: int = 0
    jokers_at: frozenset[int] = frozenset()
    number: int = 0

    @property
    def is_run(self) -> bool:
        return self.colour is not None

    def value(self) -> int:
        """Points for the opening, each joker as the number it stands for."""
        if self.is_run:
            return sum(range(self.low, self.high + 1))
        return self.number * len(self.tiles)

    def joker_numbers(self) -> list[int]:
        """The numbers its jokers stand for."""
        if self.is_run:
            return sorted(self.jokers_at)
        return [self.number] * sum(1 for t in self.tiles if t.is_joker)

    def holds(self, n: int) -> Tile:
        """A run's tile at number ``n``."""
        assert self.colour is not None
        return JOKER if n in self.jokers_at else Tile(n, self.colour)


def laid_from(tiles: Sequence[Tile], stands_for: Sequence[Tile], run: bool) -> Laid:
    """An old or new set as the caller lays it (tiles and what each stands for)."""
    if run:
        numbers = [s.number for s in stands_for]
        jokers = frozenset(s.number for t, s in zip(tiles, stands_for, strict=True) if t.is_joker)
        return Laid(_sorted(tiles), stands_for[0].colour, min(numbers), max(numbers), jokers)
    return Laid(_sorted(tiles), number=stands_for[0].number)


def _sorted(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=_key))


def _key(t: Tile) -> tuple[int, int, str]:
    return (t.is_joker, t.number, str(t))


@cache
def every_set(rules: Rules) -> tuple[Laid, ...]:
    """Every set the rules allow, laid out: runs with up to ``jokers`` jokers anywhere, groups likewise."""
    out: list[Laid] = []
    colours = [Colour.RED, Colour.BLUE, Colour.BLACK, Colour.ORANGE][: rules.colours]
    for colour in colours:
        for low in range(1, rules.numbers + 1):
            for high in range(low + rules.smallest_set - 1, rules.numbers + 1):
                span = range(low, high + 1)
                for j in range(min(rules.jokers, len(span) - 1) + 1):
                    for at in combinations(span, j):
                        tiles = [JOKER if n in at else Tile(n, colour) for n in span]
                        out.append(Laid(_sorted(tiles), colour, low, high, frozenset(at)))
    for number in range(1, rules.numbers + 1):
        for size in range(1, rules.colours + 1):
            for real in combinations(colours, size):
                for j in range(rules.jokers + 1):
                    if rules.smallest_set <= size + j <= rules.colours:
                        out.append(Laid(_sorted([Tile(number, c) for c in real] + [JOKER] * j), number=number))
    return tuple(out)


def keeps(old: Laid, new: Sequence[Laid]) -> bool:
    """Whether the new set (one, or the two halves of a split run) holds the old set as it only grew."""
    if not old.is_run:
        if len(new) != 1 or new[0].is_run or new[0].number != old.number:
            return False
        return not Counter(old.tiles) - Counter(new[0].tiles)
    if any(not n.is_run or n.colour != old.colour for n in new):
        return False
    if len(new) == 1:
        (one,) = new
        return (
            one.low <= old.low
            and old.high <= one.high
            and all(one.holds(n) == old.holds(n) for n in range(old.low, old.high + 1))
        )
    lower, upper = new
    if lower.high != upper.low or lower.low > old.low or upper.high < old.high:
        return False
    cut = lower.high
    for n in range(old.low, old.high + 1):
        if n < cut and lower.holds(n) != old.holds(n):
            return False
        if n > cut and upper.holds(n) != old.holds(n):
            return False
        if n == cut and old.holds(n) not in (lower.holds(n), upper.holds(n)):
            return False
    return True


def most_kept(old: Sequence[Laid], new: Sequence[Laid]) -> int:
    """The most old sets a laid-out table keeps, each new set keeping at most one (a split's halves one together)."""
    units: list[tuple[frozenset[int], tuple[Laid, ...]]] = [(frozenset([k]), (n,)) for k, n in enumerate(new)]
    for a, lower in enumerate(new):
        for b, upper in enumerate(new):
            if a != b and lower.is_run and upper.is_run and lower.colour == upper.colour and lower.high == upper.low:
                units.append((frozenset([a, b]), (lower, upper)))
    options = [[used for used, sets in units if keeps(o, sets)] for o in old]
    # old sets compete only when their options share a new set: search each such cluster on its own
    cluster = list(range(len(old)))

    def root(i: int) -> int:
        while cluster[i] != i:
            i = cluster[i]
        return i

    for i in range(len(old)):
        for j in range(i):
            if any(a & b for a in options[i] for b in options[j]):
                cluster[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i in range(len(old)):
        members.setdefault(root(i), []).append(i)
    return sum(_most_matched([options[i] for i in group]) for group in members.values())


def _most_matched(options: list[list[frozenset[int]]]) -> int:
    """The most of these old sets that can each take one of their options, no two sharing a new set."""

    @cache
    def go(i: int, used: frozenset[int]) -> int:
        if i == len(options):
            return 0
        best = go(i + 1, used)
        for mine in options[i]:
            if not mine & used:
                best = max(best, 1 + go(i + 1, used | mine))
        return best

    return go(0, frozenset())


def _sub_racks(rack: Sequence[Tile]) -> Iterator[tuple[Tile, ...]]:
    counts = sorted(Counter(rack).items(), key=lambda e: _key(e[0]))

    def go(k: int) -> Iterator[tuple[Tile, ...]]:
        if k == len(counts):
            yield ()
            return
        t, n = counts[k]
        for rest in go(k + 1):
            for m in range(n + 1):
                yield (t,) * m + rest

    return go(0)


@dataclass(frozen=True)
class Best:
    """The oracle's answer: the best play's figures."""

    tiles: int
    points: int
    kept: int


class _Search:
    """Lays multisets of tiles in sets, memoised; the sets are every set of the rules, filtered once."""

    def __init__(
        self, rules: Rules, old: Sequence[Laid], everything: Counter[Tile], *, points_first: bool = False
    ) -> None:
        self.old = list(old)
        self.points_first = points_first
        self.sets = [s for s in every_set(rules) if not Counter(s.tiles) - everything]
        self.by_first: dict[Tile, list[Laid]] = {}
        for s in self.sets:
            for t in set(s.tiles):
                self.by_first.setdefault(t, []).append(s)

    def best_laid(self, tiles: tuple[Tile, ...], jokers: int) -> tuple[int, int] | None:
        """The best way to lay ``tiles`` in sets, as (old sets kept, the points of the ``jokers`` highest jokers):
        the most kept, then the most points; or (``points_first``) the most points, then the most kept. None: no
        way."""
        found = self._ways(tiles, frozenset())
        if not found:
            return None
        scored = [(kept, sum(stand[:jokers])) for stand, kept in found.items()]
        return max(scored, key=lambda e: (e[1], e[0]) if self.points_first else e)

    @cache  # noqa: B019 (one search object per position; the cache goes with it)
    def _ways(self, rest: tuple[Tile, ...], matched: frozenset[int]) -> dict[tuple[int, ...], int]:
        """Every way to lay ``rest``, by what its jokers stand for (highest first), each with the most old sets
        kept (the points depend only on the jokers' numbers, so that is all a way needs to keep)."""
        if not rest:
            return {(): 0}
        out: dict[tuple[int, ...], int] = {}

        def add(laid: Sequence[Laid], home: Laid | None, more: dict[tuple[int, ...], int]) -> None:
            mine = Counter(n for s in laid for n in s.joker_numbers())
            if home is not None:  # an old set kept with its own jokers: those stay the table's
                mine -= Counter(home.joker_numbers())
            credit = home is not None
            for stand, kept in more.items():
                key = tuple(sorted([*stand, *mine.elements()], reverse=True))
                if out.get(key, -1) < kept + credit:
                    out[key] = kept + credit

        for s, left in self._first_sets(rest):
            credits = [None, *(i for i, o in enumerate(self.old) if i not in matched and keeps(o, (s,)))]
            for i in credits:
                add((s,), None if i is None else self.old[i], self._ways(left, matched if i is None else matched | {i}))
            if s.is_run:  # s with a second run as the halves of a split
                for other in self.sets:
                    if other.colour != s.colour or not other.is_run or not (other.low == s.high or other.high == s.low):
                        continue
                    after = _take(left, other.tiles)
                    if after is None:
                        continue
                    pair = (s, other) if s.high == other.low else (other, s)
                    for i, o in enumerate(self.old):
                        if i not in matched and keeps(o, pair):
                            add(pair, o, self._ways(after, matched | {i}))
        return out

    def _first_sets(self, rest: tuple[Tile, ...]) -> Iterator[tuple[Laid, tuple[Tile, ...]]]:
        """The sets holding ``rest``'s first tile that ``rest`` can make, and what each leaves."""
        for s in self.by_first.get(rest[0], []):
            left = _take(rest, s.tiles)
            if left is not None:
                yield s, left

    @cache  # noqa: B019
    def most_value(self, rest: tuple[Tile, ...]) -> int | None:
        """The most points (jokers as their tiles) a way to lay ``rest`` in sets is worth (None: no way)."""
        if not rest:
            return 0
        best: int | None = None
        for s, left in self._first_sets(rest):
            more = self.most_value(left)
            if more is not None and (best is None or more + s.value() > best):
                best = more + s.value()
        return best


def _take(rest: tuple[Tile, ...], tiles: tuple[Tile, ...]) -> tuple[Tile, ...] | None:
    """``rest`` without ``tiles`` (both sorted), or None if ``rest`` lacks one."""
    left = list(rest)
    for t in tiles:
        try:
            left.remove(t)
        except ValueError:
            return None
    return tuple(left)


def best_play(
    rack: Sequence[Tile],
    table: Sequence[Laid],
    rules: Rules,
    *,
    points_first: bool = False,
    initial_meld: bool = False,
) -> Best:
    """The best play by exhaustive search: most tiles (or points), then most sets kept, then most points (or tiles)."""
    on_table = [t for s in table for t in s.tiles]
    search = _Search(rules, table, Counter(on_table) + Counter(rack), points_first=points_first)
    best: tuple[int, int, int] | None = None
    answer = Best(0, 0, len(table))
    for part in _sub_racks(rack):
        if initial_meld:
            worth = search.most_value(_sorted(part)) if part else 0
            if worth is None or (part and worth < rules.initial_meld):
                continue
            kept, points = len(table), worth
        else:
            jokers = sum(1 for t in part if t.is_joker)
            laid_out = search.best_laid(_sorted([*on_table, *part]), jokers)
            if laid_out is None:
                continue
            faces = sum(t.number for t in part if not t.is_joker)
            kept, points = laid_out[0], faces + laid_out[1]
        key = (points, kept, len(part)) if points_first else (len(part), kept, points)
        if best is None or key > best:
            best, answer = key, Best(len(part), points, kept)
    return answer


def laid(s: Any) -> Laid:
    """A ``TileSet`` (or anything with ``kind``, ``tiles`` and ``stands_for``) as the oracle lays it."""
    return laid_from(s.tiles, s.stands_for, s.kind.value == "run")


def kept_count(old: Sequence[Any], new: Sequence[Any]) -> int:
    """The most old sets a new table keeps (see ``keeps``)."""
    return most_kept([laid(s) for s in old], [laid(s) for s in new])
