"""The one-tile puzzle's search: breadth first over table states, then the tie-breaks.

Breadth first finds the fewest actions; every state remembers all its parents
on shortest paths, so the tie-breaks can then pick one path exactly:

1. fewest actions;
2. fewest TAKEs and PUTs of the joker (never move it when it can be done without);
3. action by action, the smallest: a COMBINE before anything else (lower row
   ids first), then a move of the joker (so it moves as early as possible,
   after the COMBINEs), then other TAKEs and PUTs (lower row id, then the
   tile colour by colour, low to high).

A TAKE and the PUT that must follow it are two actions; the state between them
holds the taken tile, and the only way on is to PUT it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from solver.errors import RummikubError
from solver.puzzle_rows import JOKER_CODE, Limits, Row, colour_of, combine, number_of, put, take

Rows = tuple[tuple[int, Row], ...]
#: (rows by id, the next new id, the tile in hand or -1)
State = tuple[Rows, int, int]

_NOTHING = -1


class PuzzleLimitError(RummikubError):
    """The search gave up before proving an answer (too many states)."""


class ActionKind(Enum):
    TAKE = "TAKE"
    PUT = "PUT"
    COMBINE = "COMBINE"


@dataclass(frozen=True, slots=True, order=True)
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


def _replace(rows: Rows, i: int, result: tuple[Row, ...], next_id: int) -> tuple[Rows, int]:
    """Row ``i`` becomes ``result[0]``; a split's higher half gets the next new id (the largest, so it goes last)."""
    changed = (*rows[:i], (rows[i][0], result[0]), *rows[i + 1 :])
    if len(result) == 1:
        return changed, next_id
    return (*changed, (next_id, result[1])), next_id + 1


def successors(state: State, limits: Limits) -> Iterator[tuple[Action, State]]:
    rows, next_id, held = state
    if held != _NOTHING:
        for i, (rid, row) in enumerate(rows):
            result = put(row, held, limits)
            if result is not None:
                new_rows, new_next = _replace(rows, i, result, next_id)
                yield Action(ActionKind.PUT, held, rid), (new_rows, new_next, _NOTHING)
        return
    for i, (ra, a) in enumerate(rows):
        for j in range(i + 1, len(rows)):
            rb, b = rows[j]
            joined = combine(a, b, limits)
            if joined is not None:
                new_rows = (*rows[:i], (ra, joined), *rows[i + 1 : j], *rows[j + 1 :])
                yield Action(ActionKind.COMBINE, -1, ra, rb), (new_rows, next_id, _NOTHING)
    for i, (rid, row) in enumerate(rows):
        for t in dict.fromkeys(row):
            result = take(row, t, limits)
            if result is not None:
                new_rows, new_next = _replace(rows, i, result, next_id)
                yield Action(ActionKind.TAKE, t, rid), (new_rows, new_next, t)


def finishes(state: State, goal: int, limits: Limits) -> Iterator[tuple[Action, Rows]]:
    """The PUTs of the goal tile possible from ``state``, with the rows they leave."""
    rows, next_id, held = state
    if held != _NOTHING:
        return
    for i, (rid, row) in enumerate(rows):
        result = put(row, goal, limits)
        if result is not None:
            yield Action(ActionKind.PUT, goal, rid), _replace(rows, i, result, next_id)[0]


def search(state: State, goal: int, limits: Limits, max_actions: int = 40, max_states: int = 400_000) -> Found | None:
    """The best action list that puts ``goal`` on the table, or None if there is none within ``max_actions``."""
    layers: list[list[State]] = [[state]]
    depth_of: dict[State, int] = {state: 0}
    parents: dict[State, list[tuple[State, Action]]] = {}
    for depth in range(max_actions):
        layer = layers[depth]
        finals = [s for s in layer if next(finishes(s, goal, limits), None) is not None]
        if finals:
            return _best(layers, depth_of, parents, finals, goal, limits)
        if depth == max_actions - 1:
            return None
        following: list[State] = []
        for s in layer:
            for action, child in successors(s, limits):
                seen = depth_of.get(child)
                if seen is None:
                    depth_of[child] = depth + 1
                    following.append(child)
                    parents[child] = [(s, action)]
                elif seen == depth + 1:
                    parents[child].append((s, action))
        if not following:
            return None
        if len(depth_of) > max_states:
            raise PuzzleLimitError(f"gave up after {len(depth_of)} table states ({depth + 1} actions deep)")
        layers.append(following)
    return None


def _best(
    layers: list[list[State]],
    depth_of: dict[State, int],
    parents: dict[State, list[tuple[State, Action]]],
    finals: list[State],
    goal: int,
    limits: Limits,
) -> Found:
    """Walk the shortest paths again, keeping the one the tie-breaks prefer."""
    joker_moves: dict[State, int] = {}
    for s in finals:
        joker_moves[s] = min(int(a.moves_joker) for a, _ in finishes(s, goal, limits))
    for depth in range(len(layers) - 1, 0, -1):
        for child in layers[depth]:
            if child not in joker_moves:
                continue
            for parent, action in parents[child]:
                cost = joker_moves[child] + int(action.moves_joker)
                if cost < joker_moves.get(parent, cost + 1):
                    joker_moves[parent] = cost
    state = layers[0][0]
    actions: list[Action] = []
    for depth in range(1, len(layers)):
        here = joker_moves[state]
        options = [
            (a, c)
            for a, c in successors(state, limits)
            if c in joker_moves and depth_of[c] == depth and joker_moves[c] + int(a.moves_joker) == here
        ]
        action, state = min(options, key=lambda ac: ac[0].rank())
        actions.append(action)
    here = joker_moves[state]
    action, rows = min(
        ((a, r) for a, r in finishes(state, goal, limits) if int(a.moves_joker) == here), key=lambda ar: ar[0].rank()
    )
    actions.append(action)
    return Found(tuple(actions), rows)
