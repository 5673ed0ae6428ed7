"""The one-tile puzzle's rows: which rows are valid, and what a TAKE, PUT or COMBINE does to them.

The search touches rows millions of times, so a tile is a small int and a row
is a sorted tuple of them; the answers are cached. A joker is never fixed to a
value: a row is just its tiles, and it is valid when *some* place for each
joker makes it a run or a group.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

#: The joker's code; larger than any numbered tile so it sorts last in a row.
JOKER_CODE = 1 << 12
_NUMBER_BITS = 7

Row = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Limits:
    """The deck the rows are checked against: numbers 1..numbers, colours 0..colours-1."""

    numbers: int = 13
    colours: int = 4
    smallest: int = 3


def code(number: int, colour: int) -> int:
    """A numbered tile as an int: colour in the high bits, so codes sort colour by colour, low to high."""
    return (colour << _NUMBER_BITS) | number


def number_of(c: int) -> int:
    return c & ((1 << _NUMBER_BITS) - 1)


def colour_of(c: int) -> int:
    return c >> _NUMBER_BITS


def _split_jokers(row: Row) -> tuple[Row, int]:
    jokers = row.count(JOKER_CODE)
    return row[: len(row) - jokers], jokers


@lru_cache(maxsize=1 << 16)
def is_run(row: Row, limits: Limits) -> bool:
    """One colour, numbers in a row, jokers filling the gaps or the ends."""
    reals, jokers = _split_jokers(row)
    if len(row) < limits.smallest or not reals or len(row) > limits.numbers:
        return False
    colour = colour_of(reals[0])
    if any(colour_of(t) != colour for t in reals):
        return False
    numbers = [number_of(t) for t in reals]  # sorted: same colour, codes ascend with numbers
    if any(a == b for a, b in pairwise(numbers)):
        return False
    return numbers[-1] - numbers[0] + 1 - len(numbers) <= jokers


@lru_cache(maxsize=1 << 16)
def is_group(row: Row, limits: Limits) -> bool:
    """One number, each colour at most once."""
    reals, _ = _split_jokers(row)
    if len(row) < limits.smallest or not reals or len(row) > limits.colours:
        return False
    number = number_of(reals[0])
    colours = [colour_of(t) for t in reals]
    return all(number_of(t) == number for t in reals) and len(set(colours)) == len(colours)


def is_valid(row: Row, limits: Limits) -> bool:
    return is_run(row, limits) or is_group(row, limits)


def _with(row: Row, t: int) -> Row:
    return tuple(sorted((*row, t)))


def _without(row: Row, t: int) -> Row:
    i = row.index(t)
    return row[:i] + row[i + 1 :]


def _halves(low: Row, high: Row, jokers: int, limits: Limits) -> tuple[Row, Row] | None:
    """Two runs from ``low`` and ``high`` sharing ``jokers``; jokers go high first (they lie at the right end)."""
    for up in range(jokers, -1, -1):
        a = low + (JOKER_CODE,) * (jokers - up)
        b = high + (JOKER_CODE,) * up
        if is_run(a, limits) and is_run(b, limits):
            return a, b
    return None


@lru_cache(maxsize=1 << 16)
def put(row: Row, t: int, limits: Limits) -> tuple[Row, ...] | None:
    """The row(s) after putting ``t`` in ``row``: one row, or a run split in two at ``t``'s twin, or None.

    A split happens only when the tile cannot simply join: adding 5R to
    3R 4R J 6R 7R makes one run (the joker moves to an end).
    """
    joined = _with(row, t)
    if is_valid(joined, limits):
        return (joined,)
    if t == JOKER_CODE or t not in row or not is_run(row, limits):
        return None
    reals, jokers = _split_jokers(row)
    n = number_of(t)
    low = tuple(x for x in reals if number_of(x) <= n)
    high = (t, *(x for x in reals if number_of(x) > n))
    return _halves(low, high, jokers, limits)


@lru_cache(maxsize=1 << 16)
def take(row: Row, t: int, limits: Limits) -> tuple[Row, ...] | None:
    """The row(s) left after taking ``t`` from ``row``: one row, a run split in two where ``t`` was, or None."""
    rest = _without(row, t)
    if is_valid(rest, limits):
        return (rest,)
    if not is_run(row, limits):
        return None
    reals, jokers = _split_jokers(rest)
    if t != JOKER_CODE:
        n = number_of(t)
        return _halves(
            tuple(x for x in reals if number_of(x) < n), tuple(x for x in reals if number_of(x) > n), jokers, limits
        )
    for cut in range(1, len(reals)):  # the joker filled a gap: the run falls apart there
        if number_of(reals[cut]) - number_of(reals[cut - 1]) > 1:
            halves = _halves(reals[:cut], reals[cut:], jokers, limits)
            if halves is not None:
                return halves
    return None


@lru_cache(maxsize=1 << 16)
def combine(a: Row, b: Row, limits: Limits) -> Row | None:
    """Two runs joined into one valid run, or None."""
    if not (is_run(a, limits) and is_run(b, limits)):
        return None
    joined = tuple(sorted(a + b))
    return joined if is_run(joined, limits) else None


def layout(row: Row, limits: Limits) -> Row:
    """Display order: a run low to high with each joker in a gap it fills or else at the right end;
    a group in colour order with jokers last."""
    reals, jokers = _split_jokers(row)
    if not is_run(row, limits) or (is_group(row, limits) and len(reals) > 1):
        return row  # codes sort colour by colour, so a group is already in colour order, jokers last
    out: list[int] = []
    previous = reals[0] if reals else JOKER_CODE
    for x in reals:
        if out:
            gap = number_of(x) - number_of(previous) - 1
            out.extend([JOKER_CODE] * gap)
            jokers -= gap
        out.append(x)
        previous = x
    return (*out, *(JOKER_CODE,) * jokers)


_UNKNOWN: tuple[int, ...] = (-1,)

#: A TAKE from a row and a PUT into another, as the search makes it once for each row it goes into: the move, the
#: change to a table's signature and the rows it adds (see ``puzzle_search._moves``).
PairStep = tuple[tuple[int, int, int, int], int, tuple[int, ...]]
#: A row's ``takes``, ``regroups`` and ``accepts`` (see ``RowTable``), each with what it adds to a table's
#: signature: ``((tile, rows left, change, pairs), ...)``, ``((tile, which row, rows made, change), ...)`` and
#: ``{tile: (rows made, change)}``; ``pairs`` starts empty and keeps the search's ``PairStep`` of that TAKE by the
#: row the PUT goes into (most tables share most rows, so the same pair comes up again and again).
RowSteps = tuple[
    tuple[tuple[int, tuple[int, ...], int, dict[int, PairStep]], ...],
    tuple[tuple[int, int, tuple[int, ...], int], ...],
    dict[int, tuple[tuple[int, ...], int]],
]

#: The bits of a row's sign: two different tables of a search share a signature about once in 2**129 / (tables
#: met)**2 searches (a million tables: once in 10**26 searches).
_SIGN_BITS = 128


class RowTable:
    """Every row a search meets, interned as a small int, with what TAKE, PUT and COMBINE do to it cached.

    Most rows of a table are the same as in the table it came from, so each
    row's moves are worked out once per search instead of once per table.

    Each row also gets a *sign*, a random 128-bit number, and a table's
    *signature* is the sum of its rows' signs: a step changes it by what
    its rows' signs change, known before the table it leaves is built, so
    the search looks a table up by its signature and builds only the tables
    it has not met (most steps reach a table met before). Sums, not XOR:
    two rows alike must not cancel.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rows: list[Row] = []
        self.index: dict[Row, int] = {}
        self.colour: list[int] = []  # a run's colour, or -1
        self.number: list[int] = []  # a group's number, or -1
        self._takes: list[tuple[tuple[int, tuple[int, ...]], ...] | None] = []
        self._puts: dict[tuple[int, int], tuple[int, ...] | None] = {}
        #: the run two runs join into (None: they do not), for each pair of rows ``join`` was asked about
        self.joins: dict[tuple[int, int], int | None] = {}
        self._accepts: dict[int, dict[int, tuple[int, ...]]] = {}
        self._regroups: dict[int, tuple[tuple[int, int, tuple[int, ...]], ...]] = {}
        #: by row: its takes, regroups and accepts, once ``steps`` was asked for them (None before)
        self.steps_of: list[RowSteps | None] = []
        #: by row: its sign (see above), drawn from the same seed in every search, so a search always goes alike
        self.signs: list[int] = []
        self._random = random.Random(0)

    def intern(self, row: Row) -> int:
        k = self.index.get(row)
        if k is None:
            k = self.index[row] = len(self.rows)
            self.rows.append(row)
            self.colour.append(colour_of(row[0]) if row and is_run(row, self.limits) else -1)
            self.number.append(number_of(row[0]) if row and is_group(row, self.limits) else -1)
            self._takes.append(None)
            self.steps_of.append(None)
            self.signs.append(self._random.getrandbits(_SIGN_BITS))
        return k

    def signature(self, rows: Iterable[int]) -> int:
        """The signature of a table of these rows (see above)."""
        signs = self.signs
        return sum(signs[k] for k in rows)

    def steps(self, k: int) -> RowSteps:
        """What the search's steps read of row ``k``, in one: ``takes``, ``regroups`` and ``accepts``, each with
        the change to a table's signature (see ``RowSteps``)."""
        found = self.steps_of[k]
        if found is None:
            takes, regroups, accepts = self.takes(k), self.regroups(k), self.accepts(k)
            sign, signature = self.signs[k], self.signature
            found = self.steps_of[k] = (
                tuple((t, result, signature(result) - sign, {}) for t, result in takes),
                tuple((t, r, made, signature(made) - sign) for t, r, made in regroups),
                {t: (made, signature(made) - sign) for t, made in accepts.items()},
            )
        return found

    def takes(self, k: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Each tile that can be taken from row ``k``, with the row or two rows left."""
        found = self._takes[k]
        if found is None:
            row = self.rows[k]
            options = ((t, take(row, t, self.limits)) for t in dict.fromkeys(row))
            found = tuple((t, tuple(self.intern(r) for r in res)) for t, res in options if res is not None)
            self._takes[k] = found
        return found

    def put(self, k: int, t: int) -> tuple[int, ...] | None:
        key = (k, t)
        found = self._puts.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            res = put(self.rows[k], t, self.limits)
            found = self._puts[key] = None if res is None else tuple(self.intern(r) for r in res)
        return found

    def accepts(self, k: int) -> dict[int, tuple[int, ...]]:
        """Each tile that can be put in row ``k``, with the row or two rows it makes."""
        found = self._accepts.get(k)
        if found is None:
            limits, candidates = self.limits, [JOKER_CODE]
            if self.colour[k] >= 0:
                candidates += [code(n, self.colour[k]) for n in range(1, limits.numbers + 1)]
            if self.number[k] >= 0:
                candidates += [code(self.number[k], c) for c in range(limits.colours)]
            options = ((t, self.put(k, t)) for t in dict.fromkeys(candidates))
            found = self._accepts[k] = {t: res for t, res in options if res is not None}
        return found

    def regroups(self, k: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """Each tile taken from row ``k`` and put into the row, or one of the two halves, that the TAKE left:
        ``(tile, which of those rows, the rows it all makes)``. A tile put back where it was is left out (it
        makes row ``k`` again)."""
        found = self._regroups.get(k)
        if found is None:
            options = []
            for t, result in self.takes(k):
                for r, kr in enumerate(result):
                    landed = self.put(kr, t)
                    if landed is not None and landed != (k,):
                        options.append((t, r, (*result[:r], *result[r + 1 :], *landed)))
            found = self._regroups[k] = tuple(options)
        return found

    def join(self, a: int, b: int) -> int | None:
        key = (a, b)
        if key not in self.joins:
            res = combine(self.rows[a], self.rows[b], self.limits)
            self.joins[key] = None if res is None else self.intern(res)
        return self.joins[key]
