"""A lower bound on the actions a one-tile puzzle still needs, so its search can skip tables that cannot finish in time.

The search (``puzzle_search``) keeps a table only when the actions spent
reaching it plus this bound fit in the length it is trying, so the bound
must never be more than the true number (``tests/test_puzzle.py`` checks
that on every table within reach of many small puzzles). It is worked out
on a relaxed puzzle, from facts that hold in every shortest answer:

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
  from an end) takes a pair of its own to cut away, and so do the shared
  numbers of two runs to be joined.
- A tile taken away like that must go somewhere: back into a half of its
  row if its TAKE split the row, or into another row that takes it, which
  may first have to be made to (putting it back where it was is no step of
  a shortest answer).

So what a tile costs (the actions before it can be taken) depends on what
other tiles cost; the costs are the least fixed point of those rules, found
by Knuth's generalisation of Dijkstra's algorithm and stopped as soon as the
goal's cost is known (or, for the search, once it is known to be more than
the search can use).

How one way of paying counts (``_value``): it needs some actions of its own
(the pairs that bring the tiles a row lacks, the COMBINEs, the cuts; no two
counted as one unless they may be one), and it waits for some nodes (a tile
free to take; a tile leaving one row and finding a place), each followed by
a pair of its own. The actions one node waits for may well include another's
(the tile that let it go may be one this row gained), so they are never
added up: the node taken ``i``-th from the last came after its own cost and
was followed by ``i`` pairs at least, whatever the order, and the cost is the
largest of those (the order taken cheapest first) and of the own count. A
chain of pairs (each tile waiting for the one before) still counts every
pair.

That max is what keeps the fixed point sound, and what makes it weak on chains
of pairs through groups (each tile of the goal's run waiting for its group to
gain a fourth tile first): on the bench's adversarial cases it says 13-14 at
the start where 24-27 actions are needed. So on tables without a joker a
second bound (``counted``) adds up what it can prove are different pairs (each
PUTs another tile, or into another row), from facts about the goal's run
alone; the bound is the larger of the two.
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
#: One way to pay for something: a count of actions it needs, and the nodes it waits for, each followed by a pair
#: of actions of its own (see ``_value``); or, with the count ``_LATEST``, just the latest of the nodes it waits for.
#: A node is a tile code (the tile becomes free to take), ``GOAL``, or one of a row's tiles (``give_node``).
Option = tuple[int, frozenset[int]]
#: The count of an option that is just the latest of its nodes.
_LATEST = -1
#: The nodes of a fixed point, each with its options.
Graph = dict[int, Sequence[Option]]

#: The pairs one way of joining runs that share numbers takes: each pair whose tile is known, as (the tile it moves,
#: the node it waits for), and how many pairs more, whose tiles are not known (they move tiles of those runs).
_Way = tuple[tuple[tuple[int, int], ...], int]


#: The kinds of a row's tile's nodes: it is taken from the row and put somewhere (the latest of the two others);
#: it can be taken from the row; it has somewhere to go, once taken from the row.
_GIVE, _LEAVE, _PLACE = 0, 1, 2


def give_node(k: int, t: int, kind: int = _GIVE) -> int:
    """The key of "tile ``t`` leaves row ``k`` for another" in the fixed point, or of one of the two halves of that
    (``kind``); negative, apart from tile codes and ``GOAL``."""
    return -3 - (k << 15 | kind << 13 | t)


def _given(node: int) -> tuple[int, int]:
    value = -3 - node
    return value >> 15, value & ((1 << 13) - 1)


def _kind(node: int) -> int:
    return ((-3 - node) >> 13) & 3


def _is_given(node: int) -> bool:
    return node <= -3


def row_nodes(k: int, t: int) -> tuple[int, int, int]:
    """The nodes of tile ``t`` of row ``k``, whose options change when the row does."""
    return give_node(k, t, _GIVE), give_node(k, t, _LEAVE), give_node(k, t, _PLACE)


def placed_tile(node: int) -> int | None:
    """The tile of a node that asks where the tile, taken from its row, can go (whose options change with the runs
    of its colour and the groups of its number), else None."""
    return _given(node)[1] if _is_given(node) and _kind(node) != _LEAVE else None


_NOTHING: Option = (0, frozenset())
_FREE: tuple[Option, ...] = (_NOTHING,)


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


#: The goal's windows for ``Bound.counted``, as numbers from the goal's: three above it, three below it, two on
#: each side of its twin (which the goal's PUT splits off).
_WINDOWS = ((1, 3), (-3, -1), (-2, 2))
#: With a joker on the table, the run before the goal's PUT may also span the goal's number (the joker standing
#: for it, the run's tiles on both sides of it or on one).
_JOKER_WINDOWS = ((-1, 1), (0, 2), (-2, 0))


class _Seen:
    """What ``Bound.counted`` reads of a table, in one pass over its rows: the runs of the goal's colour (their
    lowest and highest numbers) and the numbers they hold; how many copies of each number of that colour they hold,
    and what bringing each copy that lies outside them costs (a pair, and one more into its group if the group
    cannot let it go now), cheapest first; whether the joker lies in such a run; whether a group of the goal's
    number lacks its twin."""

    def __init__(self, bound: Bound, rows: Sequence[int]) -> None:
        table, goal = bound.table, bound.goal
        colour, n = colour_of(goal), number_of(goal)
        self.runs: list[tuple[int, int]] = []
        self.held: set[int] = set()
        self.in_runs: dict[int, int] = {}
        self.spare: dict[int, list[int]] = {}
        self.placed = self.open_group = False
        for k in rows:
            row = table.rows[k]
            if table.colour[k] == colour:
                self.runs.append(bound.ends(k))
                self.held |= bound.numbers(k)
                self.placed = self.placed or JOKER_CODE in row
                for t in row:
                    if t != JOKER_CODE:
                        self.in_runs[number_of(t)] = self.in_runs.get(number_of(t), 0) + 1
                continue
            if table.number[k] == n and goal not in row:
                self.open_group = True
            for t in row:
                if t != JOKER_CODE and colour_of(t) == colour:
                    self.spare.setdefault(number_of(t), []).append(2 if t in bound.takeable(k) else 4)
        for copies in self.spare.values():
            copies.sort()


def _with_joker(costs: Sequence[int], placed: bool) -> int:
    """What bringing a stretch of numbers costs (``costs``, number by number; 0: held) when the joker may stand for
    some: each number it stands for costs a pair instead, one of them nothing if the joker lies in a run of the
    colour now (``placed``); no two of them side by side (see ``Bound.counted``).

    The joker is best put where bringing the tile costs most: the most it saves, over numbers no two side by side,
    is worked out number by number (the heaviest set of a path's nodes no two of them neighbours)."""
    total = saved = before = 0  # the most saved up to this number, and up to the one before it
    open_ = False  # some number is not held
    for cost in costs:
        total += cost
        if cost:
            open_ = True
            saved, before = max(saved, before + cost - 2), saved
        else:
            saved, before = saved, saved
    if open_ and placed:
        saved += 2
    return total - saved


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
        self._overlaps: dict[tuple[int, int], tuple[_Way, ...]] = {}
        self._takeable: dict[int, frozenset[int]] = {}
        self._ends: dict[int, tuple[int, int]] = {}
        #: (run, tile, the runs of its colour) → the runs that might join its line (see ``_Costs._partners``)
        self.partners: dict[tuple[int, int, tuple[int, ...]], tuple[int, ...]] = {}
        self._lines: dict[tuple[tuple[int, ...], frozenset[int], int, tuple[int, int] | None], list[Option]] = {}
        #: (row, tile, the runs of the row's colour) → the ways the tile can leave that row; (-1, -1, ...) for the goal
        self.row_options: dict[tuple[int, int, tuple[int, ...]], tuple[Option, ...]] = {}
        #: (row, tile, the other runs of its colour, the other groups of its number) → the ways it finds a place
        self.place_options: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], tuple[Option, ...]] = {}
        self._fits: dict[int, tuple[frozenset[int], ...]] = {}
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

    def fits(self, t: int) -> tuple[frozenset[int], ...]:
        """The windows of a run that could take ``t``: three tiles above it, three below it, two on each side of its
        second copy, or its neighbours and the joker."""
        found = self._fits.get(t)
        if found is None:
            n, c = number_of(t), colour_of(t)
            out: list[frozenset[int]] = []
            for numbers, joker in (
                ((n + 1, n + 2, n + 3), False),
                ((n - 3, n - 2, n - 1), False),
                ((n - 1, n + 1), True),
                ((n - 2, n - 1, n + 1, n + 2), False),
            ):
                out += _windows(numbers, c, joker, self.limits, self.jokers)
            found = self._fits[t] = tuple(dict.fromkeys(out))
        return found

    def about_goal(self, k: int) -> bool:
        """Whether row ``k`` is one the goal could go into (a run of its colour, a group of its number)."""
        if self.goal == JOKER_CODE:
            return True
        return self.table.colour[k] == colour_of(self.goal) or self.table.number[k] == number_of(self.goal)

    def finishes(self, shape: Iterable[int]) -> bool:
        """Whether some row of the table takes the goal now (only then is the bound 1)."""
        return any(self.table.put(k, self.goal) is not None for k in shape)

    def __call__(self, shape: Iterable[int]) -> int:
        return self.evaluate(shape)[0]

    def evaluate(self, shape: Iterable[int], most: int = INFINITE) -> tuple[int, bool, int, Graph | None]:
        """The bound; whether it is exact; the goal's cost under it; and the fixed point's nodes with their options
        (None: the bound is known without them), from which ``depths`` works out what the bound says about the
        tables one step on.

        The bound is the larger of the fixed point's and ``counted``. Only a bound up to ``most`` is worked out
        exactly: past that, it may be given as ``most + 1`` (see ``_Costs.goal``), or as the count alone when that
        is already more than ``most`` (then there are no nodes), not exact.
        """
        rows = list(shape)
        if self.finishes(rows):
            return 1, True, 0, None
        if self.goal == JOKER_CODE:
            return 2, True, 0, None
        counted = self.counted(rows)
        if counted > most:  # past what the search can use on the count alone: no fixed point needed
            return counted, counted >= INFINITE, counted - 1, None
        # no row takes the goal yet: one step at least, then the goal's PUT
        goal_cost, exact, graph = _Costs(self, rows).goal(most - 1)
        if goal_cost >= INFINITE:
            return INFINITE, exact, goal_cost, graph
        return max(2, 1 + goal_cost, counted), exact, goal_cost, graph

    def counted(self, rows: Sequence[int]) -> int:
        """A second lower bound, on tables that do not take the goal yet, that adds up what the fixed point may only
        take the most of: the pairs that bring the goal's run its tiles, and the pairs that let those tiles go (see
        also ``_beside_twin``). 0: nothing said.

        The goal goes into a run of its colour (a group of its number that could take it would take it now; one
        holding its twin never can, as the twin never moves). That run descends from a run of the colour on the
        table now, by PUTs, TAKEs, splits and COMBINEs, each run on the way overlapping or touching the next, so
        every number between that run and the goal's window was, at some time, a tile of a run of the colour. A
        number no run of the colour holds now needs a PUT of such a tile into such a run (a pair: two actions; one
        per number). If every row holding that tile is a group that cannot let it go now, the group must first
        gain a tile: another pair, whose PUT goes into that group (a row of that number: one per number, and apart
        from the PUTs into runs). Numbers some run of the colour holds now are counted as nothing (a COMBINE may
        bring them).

        With a joker on the table, the joker may stand for such a number instead, whenever a run of the colour
        spans it (the number's tile then never lies in such a run). It stands for one number at a time, and it is
        stuck in a gap (tiles on both sides) until a tile leaves its run: to stand for another number it is put
        into a run of the colour again (a PUT of the joker), or its run loses a tile, by a TAKE or by the PUT of a
        second copy that splits it (never the PUT that first brings a number, nor the first PUT into a group). So
        each number the joker stands for takes a pair apart from the PUTs that bring the other numbers, but one if
        the joker lies in such a run now: every number costs a pair, one of them nothing then, and the groups
        that must first gain a tile are not counted. The run before the goal's PUT may hold the joker too, and
        then spans three numbers beside or around the goal's (the joker standing for the goal's number when the
        run's tiles lie on both sides of it). A group of the goal's number without its twin (four tiles, the
        joker one of them) may take the goal after one pair.
        """
        if self.goal == JOKER_CODE:
            return 0
        seen = _Seen(self, rows)
        if not seen.runs:
            return 0
        n, numbers = number_of(self.goal), self.limits.numbers
        # what bringing each number costs; the goal's own only its twin can be, and the twin never moves
        costs = [0 if m in seen.held else min(seen.spare.get(m, (INFINITE,))) for m in range(numbers + 1)]
        if n not in seen.held:
            costs[n] = INFINITE
        windows = (*_WINDOWS, *_JOKER_WINDOWS) if self.jokers else _WINDOWS
        best = INFINITE
        for below, above in windows:
            window = (n + below, n + above)
            if window[0] < 1 or window[1] > numbers:
                continue
            spans = {(min(low, window[0]), max(high, window[1])) for low, high in seen.runs}
            if self.jokers:
                between = min(_with_joker(costs[low : high + 1], seen.placed) for low, high in spans)
            else:
                between = min(sum(costs[low : high + 1]) for low, high in spans)
            beside = self._beside_twin(seen, window) if not window[0] <= n <= window[1] else 0
            best = min(best, max(between, beside))
        if seen.open_group:
            best = min(best, 2)  # a group that may take the goal once the joker or a tile has left it
        return INFINITE if best >= INFINITE else 1 + best

    def _beside_twin(self, seen: _Seen, window: tuple[int, int]) -> int:
        """When the goal's twin lies in a run of its colour, what that run and the goal's (another run, as it holds
        ``window`` and not the twin) need at the end: tiles of the colour, each copy no run of the colour holds
        now brought by a pair of its own (and a pair into its group first if that group cannot let it go now);
        0 if the twin lies in no run. The twin never moves, so its row stays a run of three or more around it.

        With a joker on the table, the joker may be one of those tiles at the end (one at most): then that copy
        costs nothing, and the joker a pair of its own unless it lies in a run of the colour now."""
        n = number_of(self.goal)
        in_runs, spare = seen.in_runs, seen.spare
        if not in_runs.get(n):
            return 0
        best = INFINITE
        for low in (n - 2, n - 1, n):
            if low < 1 or low + 2 > self.limits.numbers:
                continue
            need = [*range(window[0], window[1] + 1), *range(low, low + 3)]
            costs: list[int] = []  # what each copy needed costs
            for m in set(need):
                extra = need.count(m) - in_runs.get(m, 0)
                if extra > 0:
                    copies = spare.get(m, ())
                    costs += copies[:extra]
                    costs += [INFINITE] * (extra - len(copies))
            total = sum(costs) if INFINITE not in costs else INFINITE
            if self.jokers and costs:
                costs.sort()
                rest = costs[:-1]
                if INFINITE not in rest:
                    total = min(total, sum(rest) + (0 if seen.placed else 2))
            best = min(best, total)
        return best

    @staticmethod
    def depths(graph: Graph | None) -> dict[int, int]:
        """Each node's depth below the goal (``GOAL`` is the goal's own; an empty map: nothing is known).

        A table one step on has a bound of at least one more than the least of the goal's cost and the depths of
        the nodes whose options that step changed: any cheaper way to the goal on that table must reach a changed
        node, and the way from the goal down to it is the same as on this table. So the search can skip such tables
        without working out their bounds.
        """
        return {} if graph is None else _depths(graph)

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

        Two runs that share numbers cannot be joined until one of them has let those go (``overlap``). The cut
        takes a pair too, after its tile can go: a TAKE of that tile (``give_node``: from this very row), or for
        the goal also a PUT of its second copy.

        Every pair counted is one that moves a tile of its own (see ``_pairs``), so no action is counted twice, and
        each waits for the tile it moves (see ``_value``).
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
        ways: list[_Way] = [((), 0)]
        for x, a in enumerate(rows):
            for b in rows[x + 1 :]:
                shared = self.overlap(a, b)
                if shared:
                    ways = [(known + more, unknown + other) for known, unknown in ways for more, other in shared]
        joins = len(rows) - 1
        return [_pairs(joins, rest, known, unknown, cut) for known, unknown in dict.fromkeys(ways)]

    def overlap(self, a: int, b: int) -> tuple[_Way, ...]:
        """The ways runs ``a`` and ``b`` can let the numbers they share go, so they can be joined (none if they share
        none), each as the pairs it takes (see ``_Way``).

        One of them lets the shared block go: a TAKE from its end for each tile, or one pair that splits the block
        off next to it, a TAKE of the tile there or a PUT of that tile's second copy (the block two or more); a
        block inside the run must be split off on both sides.
        """
        key = (a, b) if a < b else (b, a)
        found = self._overlaps.get(key)
        if found is None:
            shared = self.numbers(a) & self.numbers(b)
            rows = self.table.rows
            if not shared:
                found = ()
            elif JOKER_CODE in rows[a] or JOKER_CODE in rows[b]:
                found = (((), 1),)  # a joker moves the ends about: one pair at least
            else:
                found = (*self._drops(a, shared), *self._drops(b, shared))
            self._overlaps[key] = found
        return found

    def _drops(self, k: int, block: frozenset[int]) -> list[_Way]:
        """The ways run ``k`` can let ``block`` (some of its numbers) go."""
        numbers = self.numbers(k)
        colour = self.table.colour[k]
        if min(block) != min(numbers) and max(block) != max(numbers):
            return [((), 2)]  # a block inside the run: it must be split off on both sides
        edge = code(max(block) + 1 if min(block) == min(numbers) else min(block) - 1, colour)
        out: list[_Way] = [(tuple((code(n, colour), give_node(k, code(n, colour))) for n in sorted(block)), 0)]
        if len(block) >= 2:
            out.append((((edge, edge),), 0))
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


def _pairs(joins: int, rest: frozenset[int], known: tuple[tuple[int, int], ...], unknown: int, cut: int) -> Option:
    """The option of a line: ``joins`` COMBINEs; a pair for each tile of ``rest`` (tiles none of its rows holds); the
    pairs that let shared numbers go (``known`` and ``unknown``, see ``_Way``); and the cut's pair (``cut`` a node,
    ``SOME_CUT`` or ``NO_CUT``).

    No two of those are counted as one unless they may be one: a pair moves one tile, and pairs for different tiles
    are different pairs. The tiles of ``rest`` are on none of the rows, every other pair moves a tile one of the
    rows holds: so the pairs for ``rest`` are apart from the others. Among the others, the same tile counts once,
    a cut whose tile is among them is one of them, and the pairs whose tiles are not known may be any of them.
    """
    waits: dict[int, int] = {}  # tile → the node its pair waits for
    for tile, node in known:
        waits.setdefault(tile, node)
    if cut >= 0 or _is_given(cut):
        tile = _given(cut)[1] if _is_given(cut) else cut
        if tile not in rest:  # a cut whose tile the line gains is that tile's pair
            waits[tile] = cut
    elif cut == SOME_CUT:
        unknown += 1
    pairs = len(rest) + max(len(waits), unknown)
    return joins + 2 * pairs, rest | frozenset(waits.values())


class _Costs:
    """The relaxed costs on one table: each tile's cost to become free to take, and the goal's cost to fit.

    The options depend on a row's contents and on the runs of its colour on the table, so they are kept by those
    (in the ``Bound``) and shared by the many tables that differ elsewhere.
    """

    def __init__(self, bound: Bound, rows: list[int]) -> None:
        self.bound = bound
        table = bound.table
        where: dict[int, list[int]] = {}  # tile → the rows (contents) that hold it, each as often as it lies there
        runs: dict[int, list[int]] = {}
        groups: dict[int, list[int]] = {}
        colour, number = table.colour, table.number
        for k in sorted(rows):
            for t in table.rows[k]:  # no row holds a tile twice
                found = where.get(t)
                if found is None:
                    where[t] = [k]
                else:
                    found.append(k)
            if colour[k] >= 0:
                runs.setdefault(colour[k], []).append(k)
            elif number[k] >= 0:
                groups.setdefault(number[k], []).append(k)
        self.where = where
        #: colour → the contents of its runs, sorted (a key for the caches as well); number → its groups alike
        self.runs = {c: tuple(ks) for c, ks in runs.items()}
        self.groups = {n: tuple(ks) for n, ks in groups.items()}
        self.rows = rows

    def options(self, t: int) -> Sequence[Option]:
        """The ways tile ``t`` can become free to take, from each row that holds it; for a row's own tile (a key made
        by ``give_node``), the ways from that row alone, or to somewhere to put it."""
        bound = self.bound
        if _is_given(t):
            k, u = _given(t)
            kind = _kind(t)
            if kind == _LEAVE:
                return self._from_row(k, u)
            if kind == _PLACE:
                return self._place(k, u)
            # the latest of the two; when one of them is free at once, just the other
            place = self._place(k, u)
            if place is _FREE:
                return self._from_row(k, u)
            leave = self._from_row(k, u)
            if leave is _FREE:
                return place
            return ((_LATEST, frozenset([give_node(k, u, _LEAVE), give_node(k, u, _PLACE)])),)
        if t == bound.still:
            return []
        out: list[Option] = []
        for k in dict.fromkeys(self.where.get(t, ())):
            found = self._from_row(k, t)
            if found and not found[0][0] and not found[0][1]:
                return found
            out += found
        return out

    def _from_row(self, k: int, t: int) -> Sequence[Option]:
        bound, table = self.bound, self.bound.table
        if t in bound.takeable(k):
            return _FREE
        colour = table.colour[k]
        partners: tuple[int, ...] = ()
        if colour >= 0 and t != JOKER_CODE:
            # only the runs that may join the line (see ``_ancestors``) can help; the key names just those
            partners = self._partners(k, t, self.runs[colour])
        key = (k, t, partners)
        found = bound.row_options.get(key)
        if found is None:
            found = bound.row_options[key] = _pruned(self._row_options(k, t, partners))
        return found

    def _place(self, k: int, t: int) -> Sequence[Option]:
        """The ways ``t``, once taken from row ``k``, can find a row to go to: at once if a TAKE of it splits the row
        (it may go back into a half), or if another row takes it now; else the costs of making one take it.

        Putting it back where it was is no step of a shortest answer (the table would be as before). The runs are
        relaxed: a window of ``t`` in a line is enough (the run may hold more beyond it, or ``t``'s second copy).
        """
        bound = self.bound
        n, c = number_of(t), colour_of(t)
        runs = list(self.runs.get(c, ()))
        groups = list(self.groups.get(n, ()))
        for same in (runs, groups):
            if k in same:
                same.remove(k)
        key = (k, t, tuple(runs), tuple(groups))
        found = bound.place_options.get(key)
        if found is None:
            found = _pruned(self._place_options(k, t, runs, groups))
            bound.place_options[key] = found = _FREE if found == _FREE else found
        return found

    def _place_options(self, k: int, t: int, runs: list[int], groups: list[int]) -> list[Option]:
        bound, table = self.bound, self.bound.table
        if any(u == t and len(rest) == 2 for u, rest in table.takes(k)):
            return [_NOTHING]
        if any(table.put(j, t) is not None for j in (*runs, *groups)):
            return [_NOTHING]
        # a full group of its number (a joker standing in for its colour): one of its tiles must leave first
        out: list[Option] = [(2, frozenset()) for j in groups if t not in table.rows[j]]
        n = number_of(t)
        for window in bound.fits(t):
            numbers = [number_of(w) for w in window if w != JOKER_CODE]
            span = (min(*numbers, n), max(*numbers, n))
            sets, gaps = _ancestors(bound, runs, window, span)
            # the line starts somewhere: with no run holding a tile of the window, any one run
            for joined in [joined for joined in sets if joined] + [(j,) for j in runs]:
                out += bound.line(joined, window, NO_CUT, span if gaps else None)
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
            # the tile in the way must leave this very row, a TAKE of it from here, and go somewhere
            in_way = give_node(k, cut) if cut >= 0 else cut
            for joined in sets:
                out += bound.line((k, *joined), lack, in_way, span if gaps else None)
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
                # left with the twin is a run of three or more: it may have to gain a tile on its other side
                kept = self._twin_kept(twin, cut, runs)
                if kept is None:
                    continue
                more, waits = kept
                for cost, deps in bound.line(ancestors, window, cut, span if gaps else None):
                    # the neighbour's pair is one of the line's only if the line gains that tile (a gap)
                    out.append((cost, deps) if waits <= deps else (cost + more, deps | waits))
        return out

    def _twin_kept(self, twin: int, cut: int, runs: tuple[int, ...]) -> Option | None:
        """What the twin's piece must gain when the run is cut beside the twin, on the side of ``cut``, so the goal
        can go on that side: actions, and the tile they wait for (none: nothing can be said); None if it never can.

        Either the twin keeps ``cut`` and more (the run is split further on, by a TAKE or by a PUT of a second copy),
        and then the goal's piece needs ``cut``'s second copy: it must be on the table. Or the twin's piece holds
        the twin and, at best (a PUT of ``cut``'s second copy splits the run just past it), ``cut`` too: so it needs
        the twin's neighbour on the other side, by a pair (waiting for that tile) or a COMBINE.
        """
        bound, table = self.bound, self.bound.table
        if bound.jokers or cut == SOME_CUT:
            return _NOTHING
        if len(self.where.get(cut, ())) >= 2:
            return _NOTHING  # the cut's second copy is on the table: the twin may keep the cut
        goal = bound.goal
        n, c = number_of(goal), colour_of(goal)
        other = n - 1 if number_of(cut) > n else n + 1  # the twin keeps the tiles on the other side of it
        if not 1 <= other <= bound.limits.numbers:
            return None
        neighbour = code(other, c)
        if neighbour in table.rows[twin]:
            return _NOTHING
        if neighbour not in self.where:
            return None
        if any(neighbour in table.rows[k] for k in runs if k != twin):
            return _NOTHING  # a COMBINE could bring it, which may be one of the line's own
        return 2, frozenset([neighbour])  # a pair that puts it there: none of the line's, which all put other tiles

    def goal(self, most: int = INFINITE) -> tuple[int, bool, Graph]:
        """The goal's cost: the least fixed point of the options, worked out cheapest first until the goal is known;
        whether it is exact; and the nodes met, with their options.

        Only a cost up to ``most`` is worked out exactly; past it, the cost is given as ``most + 1``, not exact. So
        only the nodes that could count are met: a node waited for costs at least two less than what waits for it
        (as much, for a ``_LATEST`` option), and an option costs at least its own count. Each node gets the most
        it may cost and still count (``budget``), the largest over the ways down to it; the nodes are met largest
        budget first, so a node's budget is known when it is met; options over budget, and nodes below none, are
        left out. A way to the goal within ``most`` uses none of them (each node on it costs no more than its
        budget), so when the goal's cost comes out within ``most`` it is exact.
        """
        graph: Graph = {}
        options = self.options
        owners: list[int] = []
        costs: list[int] = []
        waits: list[frozenset[int]] = []
        waiting: dict[int, list[int]] = {}
        heap: list[tuple[int, int]] = []
        budget = {_GOAL: most}
        to_meet = [(-most, _GOAL)]
        left_out = False
        push, pop = heapq.heappush, heapq.heappop
        while to_meet:
            negative, owner = pop(to_meet)
            if owner in graph or budget[owner] != -negative:
                continue
            most_here = -negative
            found_options = graph[owner] = self.goal_options() if owner == _GOAL else options(owner)
            for cost, deps in found_options:
                if cost > most_here:
                    left_out = True
                    continue
                if not deps:
                    heap.append((cost, owner))
                    continue
                index = len(waits)
                waits.append(deps)
                owners.append(owner)
                costs.append(cost)
                below = most_here if cost == _LATEST else most_here - 2
                if below < 0:
                    left_out = True
                for d in deps:
                    found = waiting.get(d)
                    if found is None:
                        waiting[d] = [index]
                    else:
                        found.append(index)
                    if below >= 0 and below > budget.get(d, -1):
                        budget[d] = below
                        push(to_meet, (-below, d))
        left = [len(w) for w in waits]
        done: dict[int, int] = {}
        heapq.heapify(heap)
        while heap:
            cost, owner = pop(heap)
            if cost > most:
                return most + 1, False, graph
            if owner in done:
                continue
            if owner == _GOAL:
                return cost, True, graph
            done[owner] = cost
            for index in waiting.get(owner, ()):
                left[index] -= 1
                if left[index] == 0:
                    deps, own = waits[index], costs[index]
                    if len(deps) == 1:  # what it waits for is this one
                        push(heap, (cost if own == _LATEST else max(own, cost + 2), owners[index]))
                    else:
                        push(heap, (_value(own, [done[d] for d in deps]), owners[index]))
        return (most + 1, False, graph) if left_out else (INFINITE, True, graph)


def _value(own: int, waits: list[int]) -> int:
    """What an option costs: ``own`` actions, and each node waited for followed by a pair of its own.

    The nodes may be taken in any order, and what one waits for may include the pairs of those taken before it;
    but the one taken ``i``-th from the last comes after its own cost and is followed by ``i`` pairs at least. The
    order that costs least takes them cheapest first, so that is the bound.
    """
    if own == _LATEST:
        return max(waits)
    waits.sort()
    r = len(waits)
    return max(own, *(c + 2 * (r - i) for i, c in enumerate(waits)))


#: At least this much more than what it waits for is each option's cost (see ``_value``).
_STEP = 2


def _depths(graph: Graph) -> dict[int, int]:
    """Dijkstra down from the goal: each node's depth, ``_STEP`` for each wait on a way from the goal to it (an
    option costs at least that much more than each node it waits for; a ``_LATEST`` one, as much)."""
    depth = {_GOAL: 0}
    heap = [(0, _GOAL)]
    while heap:
        d, owner = heapq.heappop(heap)
        if d > depth.get(owner, INFINITE):
            continue
        for own, deps in graph.get(owner, ()):
            step = 0 if own == _LATEST else _STEP
            for dep in deps:
                if d + step < depth.get(dep, INFINITE):
                    depth[dep] = d + step
                    heapq.heappush(heap, (d + step, dep))
    return depth
