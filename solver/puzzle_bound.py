"""A lower bound on the actions a one-tile puzzle still needs, so its search can skip tables that cannot finish in time.

The search (``puzzle_search``) keeps a table only when the actions spent
reaching it plus this bound fit in the length it is trying, so the bound
must never be more than the true number. It is worked out on a relaxed
puzzle, from facts that hold in every shortest answer:

- A tile of the goal's kind (the goal's twin) never moves: wherever the
  twin could be put, the goal could have been put instead, and sooner.
- A tile can leave a group of three only after the group gained a fourth.
- A tile ``t`` can leave a run only when the run (grown by then) holds a
  *window* of tiles around it: three above it, three below it, three on
  each side, or its two neighbours and the joker. The goal can go into a
  run only when the run holds three tiles above it, three below it, two
  on each side of its twin, or its neighbours and the joker.
- A tile a row lacks arrives either by a TAKE and PUT (two actions, after
  its own row lets it go) or with a run joined by a COMBINE (one action).
  A tile in the way (the twin, or the neighbour of a tile that should leave
  from an end) takes a pair of its own to cut away.

So what a tile costs depends on what other tiles cost; the costs are the
least fixed point of those rules, found by Knuth's generalisation of
Dijkstra's algorithm and stopped as soon as the goal's cost is known. Tiles
that several windows need are counted once (a maximum, not a sum), which
keeps the bound low enough to be safe and still long on chains of pairs.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from itertools import combinations

from solver.puzzle_rows import JOKER_CODE, Limits, RowTable, code, colour_of, number_of

#: No way at all (larger than any number of actions searched).
INFINITE = 1 << 20
#: The goal's own cost in the fixed point: a key no tile code takes.
_GOAL = -1

#: What a run lacks to let a tile go: the tiles it must gain, and the tile in its way that must leave first (a "cut"),
#: or ``NO_CUT``.
Need = tuple[frozenset[int], int]
#: No tile in the way.
NO_CUT = -1
#: A tile in the way that takes a pair of its own to cut away, but not a tile known in advance.
SOME_CUT = -2
#: One way to pay for something: actions of its own, and the tiles whose costs it waits for (the largest counts).
Option = tuple[int, frozenset[int]]


def _windows(numbers: Iterable[int], colour: int, joker: bool, limits: Limits) -> list[frozenset[int]]:
    """The tile sets that fill ``numbers`` of ``colour`` (and a joker if ``joker``); the joker may stand in for one.

    A number off the ends of the deck can only be the joker.
    """
    inside = [code(n, colour) for n in numbers if 1 <= n <= limits.numbers]
    outside = sum(1 for n in numbers if not 1 <= n <= limits.numbers)
    if outside + joker > 1:
        return []
    if outside or joker:
        return [frozenset([*inside, JOKER_CODE])]
    return [frozenset(inside), *(frozenset([*inside, JOKER_CODE]) - {c} for c in inside)]


class Bound:
    """``bound(shape)``: at least how many actions (the final PUT included) a table still needs; ``INFINITE`` if none.

    A shape is a table's rows as interned ints (see ``RowTable``), in any order.
    """

    def __init__(self, table: RowTable, goal: int, limits: Limits) -> None:
        self.table, self.goal, self.limits = table, goal, limits
        #: the goal's twin never moves in a shortest answer (only a real goal has a twin worth the name)
        self.still = goal if goal != JOKER_CODE else None
        self._needs: dict[tuple[int, int], tuple[Need, ...]] = {}
        self._numbers: dict[int, frozenset[int]] = {}
        self._lacking: dict[tuple[int, int], frozenset[int]] = {}
        #: (row, tile, the runs of the row's colour) → the ways the tile can leave that row; (-1, -1, ...) for the goal
        self.row_options: dict[tuple[int, int, tuple[int, ...]], tuple[Option, ...]] = {}
        #: the goal's windows, each with the tile that must be cut away from the twin when the twin's run is in the
        #: line of the row that takes the goal (None: the twin's run must be in that line)
        self.goal_needs: list[tuple[frozenset[int], int | None]] = []
        if goal != JOKER_CODE:
            n, c = number_of(goal), colour_of(goal)
            for numbers, joker, cut in (
                ((n + 1, n + 2, n + 3), False, code(n + 1, c)),
                ((n - 3, n - 2, n - 1), False, code(n - 1, c)),
                ((n - 1, n + 1), True, SOME_CUT),
                ((n - 2, n - 1, n + 1, n + 2), False, None),
            ):
                self.goal_needs += [(w, cut) for w in _windows(numbers, c, joker, limits)]

    def finishes(self, shape: Iterable[int]) -> bool:
        """Whether some row of the table takes the goal now (only then is the bound 1)."""
        return any(self.table.put(k, self.goal) is not None for k in shape)

    def __call__(self, shape: Iterable[int]) -> int:
        rows = list(shape)
        if self.finishes(rows):
            return 1
        if self.goal == JOKER_CODE:
            return 2
        goal_cost = _Costs(self, rows).goal()
        # no row takes the goal yet: one step at least, then the goal's PUT
        return INFINITE if goal_cost >= INFINITE else max(2, 1 + goal_cost)

    def numbers(self, k: int) -> frozenset[int]:
        found = self._numbers.get(k)
        if found is None:
            found = self._numbers[k] = frozenset(number_of(t) for t in self.table.rows[k] if t != JOKER_CODE)
        return found

    def line(self, rows: tuple[int, ...], lack: frozenset[int], cut: int) -> Option:
        """The cost of a run made by joining ``rows`` (one COMBINE each after the first) that must also gain ``lack``
        (a pair each) and lose a tile in its way (``cut``).

        Runs that share a number cannot be joined until one of the two copies has left: a pair, which may be the
        same pair as the cut (so only one is counted). The cut waits for its tile: only a TAKE of that tile, or a
        PUT of its second copy, cuts the run in the right place.
        """
        rest = lack.difference(*(self.table.rows[k] for k in rows))
        numbers = [self.numbers(k) for k in rows]
        shared = sum(map(len, numbers)) > len(frozenset().union(*numbers))
        loses = int(cut != NO_CUT or shared)
        waits = rest | {cut} if cut >= 0 else rest
        return len(rows) - 1 + 2 * (len(rest) + loses), waits

    def lacking(self, k: int, t: int) -> frozenset[int]:
        """Every tile some window of ``t`` in run ``k`` lacks."""
        key = (k, t)
        found = self._lacking.get(key)
        if found is None:
            found = self._lacking[key] = frozenset().union(*(lack for lack, _ in self.needs(k, t)))
        return found

    def needs(self, k: int, t: int) -> tuple[Need, ...]:
        """What run ``k`` lacks to let ``t`` go: for each window of ``t``, the tiles not in the run, and a cut."""
        key = (k, t)
        found = self._needs.get(key)
        if found is None:
            row = self.table.rows[k]
            have = set(row)
            n, c = number_of(t), colour_of(t)
            below, above = code(n - 1, c), code(n + 1, c)
            out: set[Need] = set()
            for numbers, joker, cut in (
                ((n + 1, n + 2, n + 3), False, below if below in have else NO_CUT),
                ((n - 3, n - 2, n - 1), False, above if above in have else NO_CUT),
                ((n - 3, n - 2, n - 1, n + 1, n + 2, n + 3), False, NO_CUT),
                ((n - 1, n + 1), True, NO_CUT),
            ):
                out.update((frozenset(w - have), cut) for w in _windows(numbers, c, joker, self.limits))
            found = tuple(out)
            self._needs[key] = found
        return found


def _pruned(options: Iterable[Option]) -> tuple[Option, ...]:
    """The options no other option beats (one as cheap that waits for fewer tiles)."""
    kept: list[Option] = []
    for cost, deps in sorted(set(options), key=lambda o: (o[0], len(o[1]))):
        if not any(c <= cost and d <= deps for c, d in kept):
            kept.append((cost, deps))
    return tuple(kept)


class _Costs:
    """The relaxed costs on one table: each tile's cost to become free to take, and the goal's cost to fit.

    The options depend on a row's contents and on the runs of its colour on the table, so they are kept by those
    (in the ``Bound``) and shared by the many tables that differ elsewhere.
    """

    def __init__(self, bound: Bound, rows: list[int]) -> None:
        self.bound = bound
        table = bound.table
        self.where: dict[int, list[int]] = {}  # tile → the rows (contents) that hold it
        runs: dict[int, list[int]] = {}
        for k in rows:
            for t in dict.fromkeys(table.rows[k]):
                self.where.setdefault(t, []).append(k)
            if table.colour[k] >= 0:
                runs.setdefault(table.colour[k], []).append(k)
        #: colour → the contents of its runs, sorted (a key for the caches as well)
        self.runs = {colour: tuple(sorted(ks)) for colour, ks in runs.items()}
        self.rows = rows

    def options(self, t: int) -> list[Option]:
        """The ways tile ``t`` can become free to take, from each row that holds it."""
        bound, table = self.bound, self.bound.table
        if t == bound.still:
            return []
        out: list[Option] = []
        for k in dict.fromkeys(self.where.get(t, ())):
            if any(u == t for u, _ in table.takes(k)):
                return [(0, frozenset())]
            colour = table.colour[k]
            partners: tuple[int, ...] = ()
            if colour >= 0 and t != JOKER_CODE:
                # only the runs holding a tile that some window lacks can help; the key names just those
                lacking = bound.lacking(k, t)
                partners = tuple(j for j in self.runs[colour] if not lacking.isdisjoint(table.rows[j]))
            key = (k, t, partners)
            found = bound.row_options.get(key)
            if found is None:
                found = bound.row_options[key] = _pruned(self._row_options(k, t, partners))
            out += found
        return out

    def _row_options(self, k: int, t: int, runs: tuple[int, ...]) -> list[Option]:
        bound, table = self.bound, self.bound.table
        row = table.rows[k]
        if table.number[k] >= 0:
            # a group of three: it must gain a fourth tile first
            colours = {colour_of(u) for u in row if u != JOKER_CODE}
            gains = [code(table.number[k], c) for c in range(bound.limits.colours) if c not in colours]
            if JOKER_CODE not in row:
                gains.append(JOKER_CODE)
            return [(2, frozenset([g])) for g in gains]
        if t == JOKER_CODE:
            return [(1, frozenset())]  # the joker's windows are not worked out: one action at least
        others = list(runs)
        if k in others:
            others.remove(k)
        out: list[Option] = []
        for lack, cut in bound.needs(k, t):
            partners = [j for j in others if not lack.isdisjoint(table.rows[j])]
            out += [
                bound.line((k, *joined), lack, cut)
                for size in range(len(partners) + 1)
                for joined in combinations(partners, size)
            ]
        return out

    def goal_options(self) -> tuple[Option, ...]:
        """The ways the goal can come to fit (the table takes it nowhere yet)."""
        bound, table = self.bound, self.bound.table
        goal = bound.goal
        n, c = number_of(goal), colour_of(goal)
        groups = tuple(sorted(k for k in self.rows if table.number[k] == n))
        runs = self.runs.get(c, ())
        key = (-1, -1, (*groups, -1, *runs))
        found = bound.row_options.get(key)
        if found is None:
            found = bound.row_options[key] = _pruned(self._goal_options(groups, runs))
        return found

    def _goal_options(self, groups: tuple[int, ...], runs: tuple[int, ...]) -> list[Option]:
        bound, table = self.bound, self.bound.table
        goal = bound.goal
        # a full group (a joker and three colours): one tile must leave first
        out: list[Option] = [(2, frozenset()) for k in groups if goal not in table.rows[k]]
        if not runs:
            return out
        twin = next((k for k in runs if goal in table.rows[k]), None)
        others = list(runs)
        if twin is not None:
            others.remove(twin)
        plain = others[0] if others else twin
        for window, cut in bound.goal_needs:
            if cut is None and twin is None:
                continue
            # the runs whose lines could end in the row that takes the goal: those holding tiles of the window
            helping = [k for k in others if not window.isdisjoint(table.rows[k])]
            if cut is not None and twin is not None and not window.isdisjoint(table.rows[twin]):
                helping.append(twin)
            for size in range(len(helping) + 1):
                for extra in combinations(helping, size):
                    if cut is None:
                        assert twin is not None
                        ancestors: tuple[int, ...] = (twin, *extra)
                    else:
                        ancestors = extra or ((plain,) if plain is not None else ())
                    if ancestors:
                        # an end of a run takes the goal only once the twin has been cut away from it
                        in_way = cut if cut is not None and twin in ancestors else NO_CUT
                        out.append(bound.line(ancestors, window, in_way))
        return out

    def goal(self) -> int:
        """The goal's cost: the least fixed point of the options, worked out cheapest first until the goal is known."""
        owners: list[int] = []
        costs: list[int] = []
        waits: list[frozenset[int]] = []
        waiting: dict[int, list[int]] = {}
        built: set[int] = set()
        todo: list[tuple[int, Sequence[Option]]] = [(_GOAL, self.goal_options())]
        heap: list[tuple[int, int]] = []
        while todo:
            owner, options = todo.pop()
            for cost, deps in options:
                if not deps:
                    heap.append((cost, owner))
                    continue
                index = len(owners)
                owners.append(owner)
                costs.append(cost)
                waits.append(deps)
                for d in deps:
                    waiting.setdefault(d, []).append(index)
                    if d not in built:
                        built.add(d)
                        todo.append((d, self.options(d)))
        left = [len(w) for w in waits]
        done: dict[int, int] = {}
        heapq.heapify(heap)
        while heap:
            value, owner = heapq.heappop(heap)
            if owner == _GOAL:
                return value
            if owner in done:
                continue
            done[owner] = value
            for index in waiting.get(owner, ()):
                left[index] -= 1
                if left[index] == 0:
                    heapq.heappush(heap, (costs[index] + max(done[d] for d in waits[index]), owners[index]))
        return INFINITE
