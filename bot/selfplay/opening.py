"""How often a hand can open on the first turn: the points of the best meld of a rack, counted fast.

A published figure says 34.9% of 14-tile hands without a joker can make the initial meld on the first turn;
the simulator's deals must give the same within their error. ``meld_points`` finds the most points a
joker-free rack lays in sets of its own (exact: a search over the rack's runs and groups, lowest tile first;
a run longer than ``2 * smallest_set - 1`` is two shorter ones of the same points, so no longer run is
tried), far faster than the solver, which the tests hold it against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.selfplay.deal import deal, deal_seed
from bot.selfplay.measure import wilson
from solver.rules import Rules
from solver.solve import solve
from solver.tiles import Tile


def candidate_sets(rack: Counter[Tile], rules: Rules) -> list[tuple[Tile, ...]]:
    """The runs (``smallest_set`` to ``2 * smallest_set - 1`` long) and groups the rack's tiles can make."""
    found: list[tuple[Tile, ...]] = []
    longest = 2 * rules.smallest_set - 1
    for colour in rules.colour_order:
        for low in range(1, rules.numbers + 1):
            run: list[Tile] = []
            for number in range(low, min(rules.numbers, low + longest - 1) + 1):
                t = Tile(number, colour)
                if not rack[t]:
                    break
                run.append(t)
                if len(run) >= rules.smallest_set:
                    found.append(tuple(run))
    for number in range(1, rules.numbers + 1):
        present = [Tile(number, c) for c in rules.colour_order if rack[Tile(number, c)]]
        found.extend(_subsets(present, rules.smallest_set))
    return found


def _subsets(tiles: Sequence[Tile], least: int) -> list[tuple[Tile, ...]]:
    out: list[tuple[Tile, ...]] = []
    n = len(tiles)
    for mask in range(1 << n):
        chosen = tuple(tiles[k] for k in range(n) if mask >> k & 1)
        if len(chosen) >= least:
            out.append(chosen)
    return out


def meld_points(rack: Sequence[Tile], rules: Rules, enough: int | None = None) -> int:
    """The most points the rack (no joker) lays in sets of its own tiles; ``enough``: stop searching once a
    meld reaches it (the answer is then at least ``enough``, not the most)."""
    count = Counter(rack)
    if any(t.is_joker for t in count):
        raise ValueError("meld_points counts joker-free racks (the solver counts the others)")
    sets = candidate_sets(count, rules)
    by_tile: dict[Tile, list[tuple[tuple[Tile, ...], int]]] = {}
    for s in sets:
        lowest = min(s, key=rules.tile_key)
        by_tile.setdefault(lowest, []).append((s, sum(t.number for t in s)))
    order = sorted(count, key=rules.tile_key)
    best = 0
    target = enough if enough is not None else 1 << 30

    def search(at: int, left: Counter[Tile], points: int, rest: int) -> None:
        nonlocal best
        if points > best:
            best = points
        if best >= target or points + rest <= best:
            return
        while at < len(order) and not left[order[at]]:
            at += 1
        if at == len(order):
            return
        t = order[at]
        for s, value in by_tile.get(t, ()):
            if all(left[u] for u in s):
                for u in s:
                    left[u] -= 1
                search(at, left, points + value, rest - value)
                for u in s:
                    left[u] += 1
                if best >= target:
                    return
        # no set of the rest starts with this copy of t: it stays on the rack
        left[t] -= 1
        search(at, left, points, rest - t.number)
        left[t] += 1

    search(0, count, 0, sum(t.number for t in rack))
    return best


def can_open(rack: Sequence[Tile], rules: Rules) -> bool:
    """Whether the rack makes the initial meld: the fast count for a joker-free rack, the solver otherwise."""
    if any(t.is_joker for t in rack):
        return solve(rack, (), rules, initial_meld=True).has_play
    return meld_points(rack, rules, rules.initial_meld) >= rules.initial_meld


@dataclass(frozen=True, slots=True)
class OpeningRate:
    """Of ``hands`` joker-free racks as the simulator deals them, ``can`` could open on the first turn."""

    hands: int
    can: int

    @property
    def rate(self) -> float:
        return self.can / self.hands if self.hands else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.can, self.hands)


def joker_free_hands(rules: Rules, hands: int, seed: int) -> list[tuple[Tile, ...]]:
    """The first rack of the simulator's deals (two seats each) that holds no joker, until there are ``hands``."""
    found: list[tuple[Tile, ...]] = []
    number = 0
    while len(found) < hands:
        dealt = deal(rules, 2, deal_seed(seed, number))
        number += 1
        found.extend(r for r in dealt.racks if not any(t.is_joker for t in r))
    return found[:hands]


def opening_rate(rules: Rules, hands: int, seed: int) -> OpeningRate:
    """How many of ``hands`` joker-free dealt racks can open on the first turn."""
    racks = joker_free_hands(rules, hands, seed)
    return OpeningRate(len(racks), sum(can_open(r, rules) for r in racks))
