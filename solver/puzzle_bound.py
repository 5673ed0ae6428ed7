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

#: What a run lacks to let a tile go: the tiles it must gain, the tile in its way that must leave first (a "cut") or
#: ``NO_CUT``, and the numbers the window spans (the tile's own among them).
Need = tuple[frozenset[int], int, tuple[int, int]]
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
        self._ends: dict[int, tuple[int, int]] = {}
        #: (run, tile, the runs of its colour) → the runs that might join its line (see ``_Costs._partners``)
        self.partners: dict[tuple[int, int, tuple[int, ...]], tuple[int, ...]] = {}
        self._lines: dict[tuple[tuple[int, ...], frozenset[int], int, tuple[int, int] | None], list[Option]] = {}
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

    def ends(self, k: int) -> tuple[int, int]:
        """Run ``k``'s lowest and highest numbers (its jokers aside)."""
        found = self._ends.get(k)
        if found is None:
            numbers = self.numbers(k)
            found = self._ends[k] = (min(numbers), max(numbers))
        return found

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

    def line(self, rows: tuple[int, ...], lack: frozenset[int], cut: int, span: tuple[int, int] | None) -> list[Option]:
        key = (rows, lack, cut, span)
        found = self._lines.get(key)
        if found is None:
            found = self._lines[key] = self._line(rows, lack, cut, span)
        return found

    def _line(
        self, rows: tuple[int, ...], lack: frozenset[int], cut: int, span: tuple[int, int] | None
    ) -> list[Option]:
        """The costs of a run made by joining ``rows`` (one COMBINE each after the first) that must also gain ``lack``
        (a pair each) and lose a tile in its way (``cut``), for a window over the numbers ``span``.

        The run is one stretch of numbers: a row lying apart from the window brings the gap between them along
        (each of those tiles must arrive too, unless another of the rows has it). Without ``span`` (or with a joker
        on the table, which could stand in) gaps are not counted.

        Two runs that share numbers cannot be joined until one of them has let those go (``overlap``): pairs of
        their own for each such two runs. The cut is a pair too, which may be one of those (so with a cut only the
        larger count is taken, and only the cut's tile waited for). The cut waits for its tile: only a TAKE of that
        tile, or a PUT of its second copy, cuts the run in the right place.
        """
        need = set(lack)
        if span is not None and not self.jokers:
            low, high = span
            for k in rows:
                numbers = self.numbers(k)
                colour = self.table.colour[k]
                if min(numbers) > high + 1:
                    need.update(code(m, colour) for m in range(high + 1, min(numbers)))
                elif max(numbers) < low - 1:
                    need.update(code(m, colour) for m in range(max(numbers) + 1, low))
        rest = frozenset(need).difference(*(self.table.rows[k] for k in rows))
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
            found = self._lacking[key] = frozenset().union(*(lack for lack, _, _ in self.needs(k, t)))
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
                span = (max(1, min(*numbers, n)), min(self.limits.numbers, max(*numbers, n)))
                out.update(
                    (frozenset(w - have), cut, span) for w in _windows(numbers, c, joker, self.limits, self.jokers)
                )
            found = tuple(out)
            self._needs[key] = found
        return found


#: Past this many runs that could join a line, their subsets are not all tried (and gaps are not counted).
_MOST_JOINED = 6


def _ancestors(
    bound: Bound, runs: Iterable[int], lack: frozenset[int], span: tuple[int, int]
) -> tuple[list[tuple[int, ...]], bool]:
    """The sets of ``runs`` worth trying to join into a line for a window over ``span`` lacking ``lack``, and whether
    their gaps may be counted.

    Runs holding a lacking tile, and the runs lying between them and the window (which may fill the gap); any
    other run only adds a COMBINE, a gap and overlaps. With too many such runs, only those holding a lacking tile,
    without counting gaps (fewer tiles needed: still a lower bound).
    """
    table = bound.table
    runs = list(runs)
    helping = [j for j in runs if not lack.isdisjoint(table.rows[j])]
    gaps = not bound.jokers
    tried = helping
    if gaps and helping:
        low = min(span[0], *(min(bound.numbers(j)) for j in helping))
        high = max(span[1], *(max(bound.numbers(j)) for j in helping))
        bridges = [
            j for j in runs if j not in helping and min(bound.numbers(j)) <= high and max(bound.numbers(j)) >= low
        ]
        tried = helping + bridges
        if len(tried) > _MOST_JOINED:
            tried, gaps = helping, False
    return [joined for size in range(len(tried) + 1) for joined in combinations(tried, size)], gaps


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
                # only the runs that may join the line (see ``_ancestors``) can help; the key names just those
                partners = self._partners(k, t, self.runs[colour])
            key = (k, t, partners)
            found = bound.row_options.get(key)
            if found is None:
                found = bound.row_options[key] = _pruned(self._row_options(k, t, partners))
            out += found
        return out

    def _partners(self, k: int, t: int, runs: tuple[int, ...]) -> tuple[int, ...]:
        """The runs that might join run ``k``'s line to let ``t`` go: those holding a tile some window lacks, and
        (gaps being counted without a joker) those lying between them and the tile."""
        bound, table = self.bound, self.bound.table
        key = (k, t, runs)
        found = bound.partners.get(key)
        if found is not None:
            return found
        lacking = bound.lacking(k, t)
        others = list(runs)
        others.remove(k)
        helping = [j for j in others if not lacking.isdisjoint(table.rows[j])]
        if bound.jokers or not helping:
            found = tuple(helping)
        else:
            n = number_of(t)
            low = min(n - 3, *(bound.ends(j)[0] for j in helping))
            high = max(n + 3, *(bound.ends(j)[1] for j in helping))
            found = tuple(j for j in others if j in helping or (bound.ends(j)[0] <= high and bound.ends(j)[1] >= low))
        bound.partners[key] = found
        return found

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
        others = [j for j in runs if j != k]
        out: list[Option] = []
        for lack, cut, span in bound.needs(k, t):
            sets, gaps = _ancestors(bound, others, lack, span)
            for joined in sets:
                out += bound.line((k, *joined), lack, cut, span if gaps else None)
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
        n = number_of(goal)
        for window, cut in bound.goal_needs:
            if cut is None and twin is None:
                continue
            numbers = [number_of(w) for w in window if w != JOKER_CODE] + ([n] if cut is None else [])
            span = (min(numbers), max(numbers))
            if cut is None:
                # the twin's window: the twin's run is in the line of the row that takes the goal
                assert twin is not None
                sets, gaps = _ancestors(bound, [k for k in runs if k != twin], window, span)
                for joined in sets:
                    out += bound.line((twin, *joined), window, NO_CUT, span if gaps else None)
                continue
            sets, gaps = _ancestors(bound, runs, window, span)
            # the line starts somewhere: with no run holding a tile of the window, any one run
            tried = [joined for joined in sets if joined] + [(k,) for k in runs]
            for ancestors in tried:
                if twin not in ancestors:
                    out += bound.line(ancestors, window, NO_CUT, span if gaps else None)
                    continue
                # an end of a run takes the goal only once the twin has been cut away from it, and the piece
                # left with the twin is a run of three or more: it may have to gain tiles on its other side
                kept = self._twin_kept(twin, cut, runs)
                if kept is not None:
                    more, waits = kept
                    out += [
                        (cost + more, deps | waits)
                        for cost, deps in bound.line(ancestors, window, cut, span if gaps else None)
                    ]
        return out

    def _twin_kept(self, twin: int, cut: int, runs: tuple[int, ...]) -> tuple[int, frozenset[int]] | None:
        """What the twin's piece must gain when the run is cut at ``cut`` (beside the twin): pairs, and the tiles they
        wait for; 1 when a COMBINE could bring them instead; None if it never can (a tile not on the table).

        The piece holds the twin and, at best (a PUT of ``cut``'s second copy splits the run just past it), ``cut``
        too: so it needs at least the twin's neighbour on the other side.
        """
        bound, table = self.bound, self.bound.table
        if bound.jokers or cut == SOME_CUT:
            return 0, frozenset()
        goal = bound.goal
        n, c = number_of(goal), colour_of(goal)
        side = -1 if number_of(cut) > n else 1  # the twin keeps the tiles on the other side of it
        numbers = (n + side,)
        if not all(1 <= m <= bound.limits.numbers for m in numbers):
            return None
        missing = frozenset(code(m, c) for m in numbers) - frozenset(table.rows[twin])
        if any(t not in self.where for t in missing):
            return None
        if any(not missing.isdisjoint(table.rows[k]) for k in runs if k != twin):
            return 1, frozenset()
        return 2 * len(missing), missing

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
