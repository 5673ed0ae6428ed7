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
GOAL = _GOAL = -1

#: What a run lacks to let a tile go: the tiles it must gain, and the tile in its way that must leave first (a "cut"),
#: or ``NO_CUT``.
Need = tuple[frozenset[int], int]
#: No tile in the way.
NO_CUT = -1
#: A tile in the way that takes a pair of its own to cut away, but not a tile known in advance.
SOME_CUT = -2
#: One way to pay for something: actions of its own, and the tiles whose costs it waits for (the largest counts).
Option = tuple[int, frozenset[int]]


def _windows(numbers: Iterable[int], colour: int, joker: bool, limits: Limits, jokers: bool) -> list[frozenset[int]]:
    """The tile sets that fill ``numbers`` of ``colour`` (and a joker if ``joker``); the joker may stand in for one,
    if there is one (``jokers``).

    A number off the ends of the deck can only be the joker.
    """
    inside = [code(n, colour) for n in numbers if 1 <= n <= limits.numbers]
    outside = sum(1 for n in numbers if not 1 <= n <= limits.numbers)
    if outside + joker > int(jokers):
        return [frozenset(inside)] if not outside and not joker else []
    if not jokers:
        return [frozenset(inside)]
    if outside or joker:
        return [frozenset([*inside, JOKER_CODE])]
    return [frozenset(inside), *(frozenset([*inside, JOKER_CODE]) - {c} for c in inside)]


class Bound:
    """``bound(shape)``: at least how many actions (the final PUT included) a table still needs; ``INFINITE`` if none.

    A shape is a table's rows as interned ints (see ``RowTable``), in any order.
    """

    def __init__(self, table: RowTable, goal: int, limits: Limits, jokers: bool = True) -> None:
        """``jokers``: whether a joker is on the table (without one, no window is worked out with a joker in it)."""
        self.table, self.goal, self.limits, self.jokers = table, goal, limits, jokers
        #: the goal's twin never moves in a shortest answer (only a real goal has a twin worth the name)
        self.still = goal if goal != JOKER_CODE else None
        self._needs: dict[tuple[int, int], tuple[Need, ...]] = {}
        self._numbers: dict[int, frozenset[int]] = {}
        self._lacking: dict[tuple[int, int], frozenset[int]] = {}
        self._overlaps: dict[tuple[int, int], tuple[tuple[int, frozenset[int]], ...]] = {}
        self._takeable: dict[int, frozenset[int]] = {}
        self._lines: dict[tuple[tuple[int, ...], frozenset[int], int], list[Option]] = {}
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
                self.goal_needs += [(w, cut) for w in _windows(numbers, c, joker, limits, jokers)]

    def about_goal(self, k: int) -> bool:
        """Whether row ``k`` is one the goal could go into (a run of its colour, a group of its number)."""
        if self.goal == JOKER_CODE:
            return True
        return self.table.colour[k] == colour_of(self.goal) or self.table.number[k] == number_of(self.goal)

    def finishes(self, shape: Iterable[int]) -> bool:
        """Whether some row of the table takes the goal now (only then is the bound 1)."""
        return any(self.table.put(k, self.goal) is not None for k in shape)

    def __call__(self, shape: Iterable[int]) -> int:
        rows = list(shape)
        if self.finishes(rows):
            return 1
        if self.goal == JOKER_CODE:
            return 2
        goal_cost, _ = _Costs(self, rows).goal()
        # no row takes the goal yet: one step at least, then the goal's PUT
        return INFINITE if goal_cost >= INFINITE else max(2, 1 + goal_cost)

    def explain(self, shape: Iterable[int]) -> tuple[int, int, dict[int, int]]:
        """The bound, the goal's cost under it, and each tile's depth below the goal (``GOAL`` is the goal's own).

        A table one step on has a bound of at least one more than the least of the goal's cost and the depths of
        the tiles whose options that step changed: any cheaper way to the goal on that table must reach a changed
        tile, and the way from the goal down to it is the same as on this table. So the search can skip such tables
        without working out their bounds (an empty map: nothing is known, the bound 1 at least).
        """
        rows = list(shape)
        if self.finishes(rows) or self.goal == JOKER_CODE:
            return self(rows), 0, {}
        goal_cost, depths = _Costs(self, rows).goal(depths=True)
        return (INFINITE if goal_cost >= INFINITE else max(2, 1 + goal_cost)), goal_cost, depths

    def numbers(self, k: int) -> frozenset[int]:
        found = self._numbers.get(k)
        if found is None:
            found = self._numbers[k] = frozenset(number_of(t) for t in self.table.rows[k] if t != JOKER_CODE)
        return found

    def takeable(self, k: int) -> frozenset[int]:
        found = self._takeable.get(k)
        if found is None:
            found = self._takeable[k] = frozenset(t for t, _ in self.table.takes(k))
        return found

    def line(self, rows: tuple[int, ...], lack: frozenset[int], cut: int) -> list[Option]:
        key = (rows, lack, cut)
        found = self._lines.get(key)
        if found is None:
            found = self._lines[key] = self._line(rows, lack, cut)
        return found

    def _line(self, rows: tuple[int, ...], lack: frozenset[int], cut: int) -> list[Option]:
        """The costs of a run made by joining ``rows`` (one COMBINE each after the first) that must also gain ``lack``
        (a pair each) and lose a tile in its way (``cut``).

        Two runs that share numbers cannot be joined until one of them has let those go (``overlap``): pairs of
        their own for each such two runs. The cut is a pair too, which may be one of those (so with a cut only the
        larger count is taken, and only the cut's tile waited for). The cut waits for its tile: only a TAKE of that
        tile, or a PUT of its second copy, cuts the run in the right place.
        """
        rest = lack.difference(*(self.table.rows[k] for k in rows))
        ways: list[tuple[int, frozenset[int]]] = [(0, frozenset())]
        for x, a in enumerate(rows):
            for b in rows[x + 1 :]:
                shared = self.overlap(a, b)
                if shared:
                    ways = [(n + m, w | v) for n, w in ways for m, v in shared]
        joins = len(rows) - 1
        if cut != NO_CUT:
            waits = rest | {cut} if cut >= 0 else rest
            return [(joins + 2 * (len(rest) + max(1, min(n for n, _ in ways))), waits)]
        return [(joins + 2 * (len(rest) + n), rest | w) for n, w in ways]

    def overlap(self, a: int, b: int) -> tuple[tuple[int, frozenset[int]], ...]:
        """The ways runs ``a`` and ``b`` can let the numbers they share go, so they can be joined (none if they share
        none): pairs, and the tiles those pairs take.

        One of them lets the shared block go: a TAKE from its end for each tile (the run keeping three tiles or
        more, so it may have to grow first), or one pair that splits the block off next to it, a TAKE of the tile
        there or a PUT of that tile's second copy (the part kept needing three tiles; the block two or more).
        """
        key = (a, b) if a < b else (b, a)
        found = self._overlaps.get(key)
        if found is None:
            shared = self.numbers(a) & self.numbers(b)
            rows = self.table.rows
            if not shared:
                found = ()
            elif JOKER_CODE in rows[a] or JOKER_CODE in rows[b]:
                found = ((1, frozenset()),)  # a joker moves the ends about: one pair at least
            else:
                found = (*self._drops(a, shared), *self._drops(b, shared))
            self._overlaps[key] = found
        return found

    def _drops(self, k: int, block: frozenset[int]) -> list[tuple[int, frozenset[int]]]:
        """The ways run ``k`` can let ``block`` (some of its numbers) go: pairs, and the tiles they wait for."""
        numbers = self.numbers(k)
        colour = self.table.colour[k]
        m, kept = len(block), len(numbers) - len(block)
        if min(block) != min(numbers) and max(block) != max(numbers):
            return [(2, frozenset())]  # a block inside the run: it must be split off on both sides
        edge = max(block) + 1 if min(block) == min(numbers) else min(block) - 1
        out = [(m + max(0, m + 3 - len(numbers)), frozenset(code(n, colour) for n in block))]
        if m >= 2:
            out.append((1 + max(0, 3 - kept), frozenset([code(edge, colour)])))
        return out

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
                out.update((frozenset(w - have), cut) for w in _windows(numbers, c, joker, self.limits, self.jokers))
            found = tuple(out)
            self._needs[key] = found
        return found


def _pruned(options: Iterable[Option]) -> tuple[Option, ...]:
    """The options no other option beats (one as cheap that waits for fewer tiles)."""
    by_cost: dict[int, set[frozenset[int]]] = {}
    for cost, deps in options:
        by_cost.setdefault(cost, set()).add(deps)
    kept: list[Option] = []
    for cost in sorted(by_cost):
        for deps in sorted(by_cost[cost], key=len):
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
            if t in bound.takeable(k):
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
            for size in range(len(partners) + 1):
                for joined in combinations(partners, size):
                    out += bound.line((k, *joined), lack, cut)
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
                        out += bound.line(ancestors, window, in_way)
        return out

    def goal(self, depths: bool = False) -> tuple[int, dict[int, int]]:
        """The goal's cost: the least fixed point of the options, worked out cheapest first until the goal is known.

        With ``depths``, also each tile's depth below the goal: the least sum of option costs on a way down from the
        goal to the tile (see ``Bound.explain``).
        """
        graph: dict[int, Sequence[Option]] = {_GOAL: self.goal_options()}
        owners: list[int] = []
        costs: list[int] = []
        waits: list[frozenset[int]] = []
        waiting: dict[int, list[int]] = {}
        todo = [_GOAL]
        heap: list[tuple[int, int]] = []
        while todo:
            owner = todo.pop()
            for cost, deps in graph[owner]:
                if not deps:
                    heap.append((cost, owner))
                    continue
                waits.append(deps)
                owners.append(owner)
                costs.append(cost)
                index = len(waits) - 1
                for d in deps:
                    waiting.setdefault(d, []).append(index)
                    if d not in graph:
                        graph[d] = self.options(d)
                        todo.append(d)
        left = [len(w) for w in waits]
        done: dict[int, int] = {}
        heapq.heapify(heap)
        value = INFINITE
        while heap:
            cost, owner = heapq.heappop(heap)
            if owner == _GOAL:
                value = cost
                break
            if owner in done:
                continue
            done[owner] = cost
            for index in waiting.get(owner, ()):
                left[index] -= 1
                if left[index] == 0:
                    heapq.heappush(heap, (costs[index] + max(done[d] for d in waits[index]), owners[index]))
        return value, (_depths(graph) if depths else {})


def _depths(graph: dict[int, Sequence[Option]]) -> dict[int, int]:
    """Dijkstra down from the goal: each tile's least sum of option costs on a way from the goal to it."""
    depth = {_GOAL: 0}
    heap = [(0, _GOAL)]
    while heap:
        d, owner = heapq.heappop(heap)
        if d > depth.get(owner, INFINITE):
            continue
        for cost, deps in graph.get(owner, ()):
            for dep in deps:
                if d + cost < depth.get(dep, INFINITE):
                    depth[dep] = d + cost
                    heapq.heappush(heap, (d + cost, dep))
    return depth
