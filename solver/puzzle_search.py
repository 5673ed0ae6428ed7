"""The one-tile puzzle's search: breadth first over table states, then the tie-breaks.

Breadth first finds the fewest actions; every state remembers all its parents
on shortest paths, so the tie-breaks can then pick one path exactly:

1. fewest actions;
2. fewest TAKEs and PUTs of the joker (never move it when it can be done without);
3. action by action, the smallest: a COMBINE before anything else (lower row
   ids first), then a move of the joker (so it moves as early as possible,
   after the COMBINEs), then other TAKEs and PUTs (lower row id, then the
   tile colour by colour, low to high).

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

from solver.errors import RummikubError
from solver.puzzle_rows import JOKER_CODE, Limits, Row, colour_of, combine, is_group, is_run, number_of, put, take

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

    @property
    def moves_joker(self) -> bool:
        return self.kind is not ActionKind.COMBINE and self.tile == JOKER_CODE

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


def search(
    state: State,
    goal: int,
    limits: Limits,
    max_actions: int = 40,
    max_states: int = 400_000,
    time_limit: float | None = None,
) -> Found | None:
    """The best action list that puts ``goal`` on the table, or None if there is none within ``max_actions``.

    Raises ``PuzzleLimitError`` past ``max_states`` states or ``time_limit`` seconds.

    Breadth first by number of actions: a COMBINE leads one layer on, a
    TAKE-and-PUT two layers on.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    table = _Rows(limits)
    start = table.node(state)
    layers: dict[int, list[Node]] = {0: [start]}
    depth_of: dict[Node, int] = {start: 0}
    parents: dict[Node, list[tuple[Node, Move]]] = {}
    for depth in range(max_actions):
        # a state first met two actions on (a TAKE and PUT) and then one action on (a COMBINE) sits in both layers
        layer = [s for s in layers.get(depth, []) if depth_of[s] == depth]
        finals = [s for s in layer if next(_finishes(s, goal, table), None) is not None]
        if finals:
            return _best(table, start, depth_of, parents, finals, goal)
        if depth == max_actions - 1 or not (layer or layers.get(depth + 1)):
            return None
        # Once the next layer can finish, moves two actions long lead past the answer: skip them.
        pairs = not any(next(_finishes(s, goal, table), None) is not None for s in layers.get(depth + 1, []))
        for n, s in enumerate(layer):
            if deadline is not None and n % 256 == 0 and time.perf_counter() > deadline:
                raise PuzzleLimitError(
                    f"gave up after {time_limit:g} s ({len(depth_of)} table states, {depth} actions deep)"
                )
            for move, child in _successors(s, table, pairs):
                child_depth = depth + len(move)
                seen = depth_of.get(child)
                if seen is None or child_depth < seen:
                    depth_of[child] = child_depth
                    layers.setdefault(child_depth, []).append(child)
                    parents[child] = [(s, move)]
                elif seen == child_depth:
                    parents[child].append((s, move))
        if len(depth_of) > max_states:
            raise PuzzleLimitError(f"gave up after {len(depth_of)} table states ({depth + 2} actions deep)")
    return None


def _joker_moves(move: Move) -> int:
    return sum(_moves_joker(step) for step in move)


def _best(
    table: _Rows,
    start: Node,
    depth_of: dict[Node, int],
    parents: dict[Node, list[tuple[Node, Move]]],
    finals: list[Node],
    goal: int,
) -> Found:
    """Walk the shortest paths again, keeping the one the tie-breaks prefer."""
    joker_moves: dict[Node, int] = {}
    for s in finals:
        joker_moves[s] = min(_moves_joker(a) for a, _ in _finishes(s, goal, table))
    last = depth_of[finals[0]]
    todo: dict[int, list[Node]] = {last: list(finals)}
    for depth in range(last, 0, -1):
        for child in todo.get(depth, []):
            for parent, move in parents[child]:
                cost = joker_moves[child] + _joker_moves(move)
                known = joker_moves.get(parent)
                if known is None:
                    todo.setdefault(depth_of[parent], []).append(parent)
                if known is None or cost < known:
                    joker_moves[parent] = cost
    node = start
    steps: list[Step] = []
    while depth_of[node] < last:
        here, depth = joker_moves[node], depth_of[node]
        options = [
            (m, c)
            for m, c in _successors(node, table)
            if c in joker_moves and depth_of[c] == depth + len(m) and joker_moves[c] + _joker_moves(m) == here
        ]
        move, node = min(options, key=lambda mc: [_rank(step) for step in mc[0]])
        steps.extend(move)
    here = joker_moves[node]
    step, rows = min(
        ((a, r) for a, r in _finishes(node, goal, table) if _moves_joker(a) == here), key=lambda ar: _rank(ar[0])
    )
    steps.append(step)
    return Found(tuple(_action(a) for a in steps), table.state(rows))
