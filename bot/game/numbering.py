"""Set numbers: a set keeps its number from turn to turn, in the group and in private, until it is broken up.

A family talks about "set 4" across turns, and the group's picture, a player's private picture and the moves
all say the same number. So numbers are part of the game, not positions in a list: a set that stays, grows,
or keeps the place of a run split in two keeps its number; a set broken up retires it; a new set takes the
next number above every number on the table, in the order the play lays them (as the moves number the sets
they make, ``solver.moves``). The table is kept in the order of its numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def renumber(old: Sequence[int], kept_from: Sequence[int | None]) -> tuple[int, ...]:
    """The numbers of a new table's sets: each set that continues an old set (``kept_from``: its index in the
    old table) keeps that set's number, the first such set of each; every other set takes the next number
    above the old table's, in the new table's order."""
    numbers: list[int | None] = [None] * len(kept_from)
    taken: set[int] = set()
    for j, i in enumerate(kept_from):
        if i is not None and 0 <= i < len(old) and old[i] not in taken:
            numbers[j] = old[i]
            taken.add(old[i])
    fresh = iter(range(max(old, default=0) + 1, max(old, default=0) + len(kept_from) + 1))
    return tuple(n if n is not None else next(fresh) for n in numbers)


def in_order(items: Sequence[T], numbers: Sequence[int]) -> tuple[tuple[T, ...], tuple[int, ...]]:
    """``items`` (a table's sets, or anything beside them) sorted by their numbers, and the numbers sorted."""
    order = sorted(range(len(items)), key=lambda j: numbers[j])
    return tuple(items[j] for j in order), tuple(numbers[j] for j in order)


def order_of(numbers: Sequence[int]) -> list[int]:
    """The positions of ``numbers`` in the order of their values (how ``in_order`` sorts)."""
    return sorted(range(len(numbers)), key=lambda j: numbers[j])
