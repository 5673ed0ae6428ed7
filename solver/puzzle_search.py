"""The one-tile puzzle's search: breadth first over table states, then the tie-breaks.

Breadth first finds the fewest actions. It searches tables without their row
ids (ids only name rows; the same table under other ids needs the same
actions), and every table remembers all its parents on shortest paths, so
the tie-breaks can then pick one path exactly, ids and all:

1. fewest actions;
2. fewest TAKEs and PUTs of the joker (never move it when it can be done without);
3. when the joker must move, as early as possible: as few TAKE-and-PUT pairs
   of other tiles before its TAKE as any answer allows (COMBINEs may come
   before it), then the same for its next move, if any;
4. action by action, the smallest: a COMBINE before anything else (lower row
   ids first), then a move of the joker, then other TAKEs and PUTs (lower
   row id, then the tile colour by colour, low to high).

A TAKE and the PUT that must follow it count as two actions but are one step
of the search (a COMBINE is a step of one action), so no state ever holds a
tile in hand. Rows are interned as small ints with their TAKE, PUT and
COMBINE results cached, since most rows of a state are its parent's.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter

from solver.errors import RummikubError
from solver.puzzle_rows import JOKER_CODE, Limits, Row, colour_of, combine, is_group, is_run, number_of, put, take
from solver.text import N_

Rows = tuple[tuple[int, Row], ...]
#: (rows by id, the next new id, the tile in hand or -1)
State = tuple[Rows, int, int]

_NOTHING = -1


class PuzzleLimitError(RummikubError):
    """The search gave up before proving an answer (too many states, or out of time)."""


class ActionKind(Enum):
    TAKE = "TAKE"
    PUT = "PUT"
    COMBINE = "COMBINE"


@dataclass(frozen=True, slots=True)
class Action:
    """``TAKE tile row``, ``PUT tile row`` or ``COMBINE row other``; ``tile`` is a tile code (-1 for COMBINE)."""

    kind: ActionKind
    tile: int
    row: int
    other: int = 0

    def rank(self) -> tuple[int, int, int, int]:
        """Smaller is preferred where two equally good action lists first differ."""
        if self.kind is ActionKind.COMBINE:
            return (0, self.row, self.other, 0)
        if self.tile == JOKER_CODE:
            return (1, self.row, 0, 0)
        return (2, self.row, colour_of(self.tile), number_of(self.tile))


@dataclass(frozen=True, slots=True)
class Found:
    """A best action list and the rows it leaves (by id)."""

    actions: tuple[Action, ...]
    rows: Rows


def start_state(rows: dict[int, Row]) -> State:
    ordered = tuple(sorted((i, tuple(sorted(r))) for i, r in rows.items()))
    return ordered, max(rows, default=0) + 1, _NOTHING


#: An action while searching: (kind: 0 COMBINE, 1 TAKE, 2 PUT; tile code or -1; row id; other row id or 0).
Step = tuple[int, int, int, int]
#: A state while searching: rows as (id, interned row), the next new id, and -1 (no tile in hand).
Node = tuple[tuple[tuple[int, int], ...], int, int]
#: One step of the search: a COMBINE, or a TAKE with the PUT that must follow it.
Move = tuple[Step, ...]

_COMBINE, _TAKE, _PUT = 0, 1, 2
_KINDS = (ActionKind.COMBINE, ActionKind.TAKE, ActionKind.PUT)


def _action(step: Step) -> Action:
    kind, tile, row, other = step
    return Action(_KINDS[kind], tile, row, other)


def _moves_joker(step: Step) -> int:
    return int(step[0] != _COMBINE and step[1] == JOKER_CODE)


def _rank(step: Step) -> tuple[int, int, int, int]:
    return _action(step).rank()


class _Rows:
    """Every row the search meets, interned as a small int, with what TAKE, PUT and COMBINE do to it cached.

    Most rows of a state are the same as in its parent, so each row's moves
    are worked out once per search instead of once per state.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rows: list[Row] = []
        self.index: dict[Row, int] = {}
        self.colour: list[int] = []  # a run's colour, or -1
        self.group_number: list[int] = []  # a group's number, or -1
        self.takes: list[tuple[tuple[int, tuple[int, ...]], ...] | None] = []
        self.puts: dict[tuple[int, int], tuple[int, ...] | None] = {}
        self.joins: dict[tuple[int, int], int | None] = {}

    def intern(self, row: Row) -> int:
        k = self.index.get(row)
        if k is None:
            k = self.index[row] = len(self.rows)
            self.rows.append(row)
            self.colour.append(colour_of(row[0]) if row and is_run(row, self.limits) else -1)
            self.group_number.append(number_of(row[0]) if row and is_group(row, self.limits) else -1)
            self.takes.append(None)
        return k

    def take(self, k: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        found = self.takes[k]
        if found is None:
            row = self.rows[k]
            options = ((t, take(row, t, self.limits)) for t in dict.fromkeys(row))
            found = tuple((t, tuple(self.intern(r) for r in res)) for t, res in options if res is not None)
            self.takes[k] = found
        return found

    def put(self, k: int, t: int) -> tuple[int, ...] | None:
        key = (k, t)
        if key not in self.puts:
            res = put(self.rows[k], t, self.limits)
            self.puts[key] = None if res is None else tuple(self.intern(r) for r in res)
        return self.puts[key]

    def join(self, a: int, b: int) -> int | None:
        key = (a, b)
        if key not in self.joins:
            res = combine(self.rows[a], self.rows[b], self.limits)
            self.joins[key] = None if res is None else self.intern(res)
        return self.joins[key]

    def node(self, state: State) -> Node:
        rows, next_id, held = state
        return tuple((i, self.intern(r)) for i, r in rows), next_id, held

    def state(self, rows: tuple[tuple[int, int], ...]) -> Rows:
        return tuple((i, self.rows[k]) for i, k in rows)


def _replace(
    rows: tuple[tuple[int, int], ...], i: int, result: tuple[int, ...], next_id: int
) -> tuple[tuple[tuple[int, int], ...], int]:
    """Row ``i`` becomes ``result[0]``; a split's higher half gets the next new id (the largest, so it goes last)."""
    changed = (*rows[:i], (rows[i][0], result[0]), *rows[i + 1 :])
    if len(result) == 1:
        return changed, next_id
    return (*changed, (next_id, result[1])), next_id + 1


def _successors(node: Node, table: _Rows, pairs: bool = True) -> Iterator[tuple[Move, Node]]:
    """COMBINEs (one action) and, unless ``pairs`` is false, TAKE-then-PUT pairs (two actions, one search move)."""
    rows, next_id, _ = node
    runs: dict[int, list[int]] = {}
    groups: dict[int, list[int]] = {}
    for i, (_, k) in enumerate(rows):
        colour = table.colour[k]
        if colour >= 0:
            runs.setdefault(colour, []).append(i)
        if table.group_number[k] >= 0:
            groups.setdefault(table.group_number[k], []).append(i)
    for same in runs.values():
        for x, i in enumerate(same):
            for j in same[x + 1 :]:
                joined = table.join(rows[i][1], rows[j][1])
                if joined is not None:
                    new_rows = (*rows[:i], (rows[i][0], joined), *rows[i + 1 : j], *rows[j + 1 :])
                    yield ((_COMBINE, -1, rows[i][0], rows[j][0]),), (new_rows, next_id, _NOTHING)
    for i, (rid, k) in enumerate(rows if pairs else ()):
        for t, result in table.take(k):
            held, next_held = _replace(rows, i, result, next_id)
            places: Iterable[int]
            if t == JOKER_CODE:
                places = range(len(held))
            else:
                # Only runs of the tile's colour and groups of its number can take it, besides the row it left.
                places = sorted({i, len(held) - 1, *runs.get(colour_of(t), ()), *groups.get(number_of(t), ())})
            for j in places:
                rj, kj = held[j]
                landed = table.put(kj, t)
                if landed is not None:
                    new_rows, new_next = _replace(held, j, landed, next_held)
                    yield ((_TAKE, t, rid, 0), (_PUT, t, rj, 0)), (new_rows, new_next, _NOTHING)


def _finishes(node: Node, goal: int, table: _Rows) -> Iterator[tuple[Step, tuple[tuple[int, int], ...]]]:
    """The PUTs of the goal tile possible from ``node``, with the rows they leave."""
    rows, next_id, _ = node
    for i, (rid, k) in enumerate(rows):
        result = table.put(k, goal)
        if result is not None:
            yield (_PUT, goal, rid, 0), _replace(rows, i, result, next_id)[0]


#: A table without its row ids: its interned rows, sorted. Two tables that differ only in ids need the same
#: number of actions (and joker moves) to finish, so the search meets each one once.
Shape = tuple[int, ...]
#: How a step of the search moves: a COMBINE, a TAKE-and-PUT of a numbered tile, or one of the joker.
_BY_COMBINE, _BY_PAIR, _BY_JOKER = 0, 1, 2
_second = itemgetter(1)
#: The positions of the joker's moves: for each, how many TAKE-and-PUT pairs of numbered tiles come before it.
JokerAt = tuple[int, ...]


def _shape(node: Node) -> Shape:
    return tuple(sorted(map(_second, node[0])))


def _by(move: Move) -> int:
    if len(move) == 1:
        return _BY_COMBINE
    return _BY_JOKER if move[0][1] == JOKER_CODE else _BY_PAIR


def _can_finish(node: Node, goal: int, table: _Rows) -> bool:
    return next(_finishes(node, goal, table), None) is not None


def search(
    state: State,
    goal: int,
    limits: Limits,
    max_actions: int = 40,
    max_states: int = 400_000,
    time_limit: float | None = None,
) -> Found | None:
    """The best action list that puts ``goal`` on the table, or None if there is none within ``max_actions``.

    Raises ``PuzzleLimitError`` past ``max_states`` tables or ``time_limit`` seconds.

    Breadth first by number of actions over tables without their row ids (a
    COMBINE leads one layer on, a TAKE-and-PUT two layers on): ids only name
    rows, and counting them made one table dozens of states on long chains.
    The ids come back when ``_best`` walks the answer out from the start.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    table = _Rows(limits)
    start = table.node(state)
    first = _shape(start)
    seen: dict[Shape, Node] = {first: start}  # one table with ids for each shape met
    depth_of: dict[Shape, int] = {first: 0}
    parents: dict[Shape, set[tuple[Shape, int]]] = {}
    layers: dict[int, list[Shape]] = {0: [first]}
    for depth in range(max_actions):
        # a table first met two actions on (a TAKE and PUT) and then one action on (a COMBINE) sits in both layers
        layer = [s for s in layers.get(depth, []) if depth_of[s] == depth]
        finals = [s for s in layer if _can_finish(seen[s], goal, table)]
        if finals:
            return _best(table, start, _Paths(depth_of, parents, seen, finals, goal, table))
        if depth == max_actions - 1 or not (layer or layers.get(depth + 1)):
            return None
        # Once the next layer can finish, moves two actions long lead past the answer: skip them.
        pairs = not any(_can_finish(seen[s], goal, table) for s in layers.get(depth + 1, []))
        for n, s in enumerate(layer):
            if deadline is not None and n % 256 == 0 and time.perf_counter() > deadline:
                raise PuzzleLimitError(
                    N_("gave up after {seconds} s ({tables} tables, {depth} actions deep)"),
                    seconds=f"{time_limit:g}",
                    tables=len(depth_of),
                    depth=depth,
                )
            for move, child in _successors(seen[s], table, pairs):
                shape = _shape(child)
                child_depth = depth + len(move)
                known = depth_of.get(shape)
                if known is None or child_depth < known:
                    depth_of[shape] = child_depth
                    seen[shape] = child
                    layers.setdefault(child_depth, []).append(shape)
                    parents[shape] = {(s, _by(move))}
                elif known == child_depth:
                    parents[shape].add((s, _by(move)))
        if len(depth_of) > max_states:
            raise PuzzleLimitError(
                N_("gave up after {tables} tables ({depth} actions deep)"), tables=len(depth_of), depth=depth + 2
            )
    return None


def _joker_moves(move: Move) -> int:
    return sum(_moves_joker(step) for step in move)


class _Paths:
    """The shortest paths found, and on them what the tie-breaks need: the fewest joker moves left from each
    table, and the earliest the joker's moves can then come."""

    def __init__(
        self,
        depth_of: dict[Shape, int],
        parents: dict[Shape, set[tuple[Shape, int]]],
        seen: dict[Shape, Node],
        finals: list[Shape],
        goal: int,
        table: _Rows,
    ) -> None:
        self.depth_of, self.goal = depth_of, goal
        self.last = depth_of[finals[0]]
        #: the fewest joker moves from a table to the end, for the tables on shortest paths
        self.jokers: dict[Shape, int] = {}
        #: the joker's move at the end, when the goal is the joker (it counts among the joker's moves)
        self.final_joker: dict[Shape, bool] = {}
        for s in finals:
            self.jokers[s] = min(_moves_joker(a) for a, _ in _finishes(seen[s], goal, table))
            self.final_joker[s] = self.jokers[s] > 0
        todo: dict[int, list[Shape]] = {self.last: list(finals)}
        for depth in range(self.last, 0, -1):
            for child in todo.get(depth, []):
                for parent, by in parents[child]:
                    cost = self.jokers[child] + (2 if by == _BY_JOKER else 0)
                    known = self.jokers.get(parent)
                    if known is None:
                        todo.setdefault(depth_of[parent], []).append(parent)
                    if known is None or cost < known:
                        self.jokers[parent] = cost
        #: steps from each table that stay on a shortest path with the fewest joker moves
        self.onward: dict[Shape, list[tuple[Shape, int]]] = {}
        for child, cost in self.jokers.items():
            for parent, by in parents.get(child, ()):
                if self.jokers.get(parent) == cost + (2 if by == _BY_JOKER else 0):
                    self.onward.setdefault(parent, []).append((child, by))
        self._joker_at: dict[tuple[Shape, int], JokerAt] = {}

    def joker_at(self, s: Shape, pairs: int) -> JokerAt:
        """The earliest positions the joker's remaining moves can take from ``s``, ``pairs`` pairs having been made.

        Iterative (children before parents, by depth) so long answers do not recurse deeply.
        """
        key = (s, pairs)
        if key in self._joker_at:
            return self._joker_at[key]
        stack = [key]
        while stack:
            here, made = stack[-1]
            if self.depth_of[here] == self.last:
                self._joker_at[(here, made)] = (made,) if self.final_joker[here] else ()
                stack.pop()
                continue
            needed = [
                (child, made + (by == _BY_PAIR))
                for child, by in self.onward[here]
                if (child, made + (by == _BY_PAIR)) not in self._joker_at
            ]
            if needed:
                stack.extend(needed)
                continue
            self._joker_at[(here, made)] = min(self.after(child, by, made) for child, by in self.onward[here])
            stack.pop()
        return self._joker_at[key]

    def after(self, child: Shape, by: int, pairs: int) -> JokerAt:
        """The joker's earliest positions when a step of kind ``by`` leads to ``child``."""
        if by == _BY_JOKER:
            return (pairs, *self.joker_at(child, pairs))
        return self.joker_at(child, pairs + (by == _BY_PAIR))


def _best(table: _Rows, start: Node, paths: _Paths) -> Found:
    """Walk out the one shortest path the tie-breaks prefer, ids and all, from the start.

    A table's shortest paths do not depend on its ids, so at each table the
    steps kept are those whose table (without ids) is on a shortest path with
    the fewest joker moves and the earliest joker; of those, the smallest.
    """
    node, pairs = start, 0
    steps: list[Step] = []
    here = _shape(node)
    while paths.depth_of[here] < paths.last:
        depth, jokers, wanted = paths.depth_of[here], paths.jokers[here], paths.joker_at(here, pairs)
        options: list[tuple[Move, Node]] = []
        for move, child in _successors(node, table):
            shape = _shape(child)
            by = _by(move)
            if (
                paths.jokers.get(shape) == jokers - _joker_moves(move)
                and paths.depth_of.get(shape) == depth + len(move)
                and paths.after(shape, by, pairs) == wanted
            ):
                options.append((move, child))
        move, node = min(options, key=lambda mc: [_rank(step) for step in mc[0]])
        pairs += _by(move) == _BY_PAIR
        steps.extend(move)
        here = _shape(node)
    step, rows = min(
        ((a, r) for a, r in _finishes(node, paths.goal, table) if _moves_joker(a) == paths.jokers[here]),
        key=lambda ar: _rank(ar[0]),
    )
    steps.append(step)
    return Found(tuple(_action(a) for a in steps), table.state(rows))
