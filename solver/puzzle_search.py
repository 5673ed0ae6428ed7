"""The one-tile puzzle's search: the fewest actions, then the statement's tie-breaks across every shortest answer.

Of all the shortest answers, whatever tables they leave, the one chosen is
decided by these rules, each only among the answers the rules before it
left, in this order:

1. the fewest actions;
2. COMBINE as early as possible: where two answers first differ in the
   kind of an action, the one with the COMBINE there wins;
3. lower row ids first: first the COMBINEs' row ids, COMBINE by COMBINE
   (which runs to join outranks what came before the join), then every
   action's row ids, action by action (a TAKE's row, a PUT's row, a
   COMBINE's two rows);
4. no joker move that can be avoided: the fewest TAKEs and PUTs of the
   joker;
5. the joker's moves as early as possible: where two answers first differ
   in whether an action moves the joker, the one that moves it wins;
6. so that exactly one answer is left: the tiles moved, action by action,
   colour by colour (in the puzzle's colour order), then low to high.

How. The fewest actions come from a best-first search (A*) over tables
without their row ids (ids only name rows; the same table under other ids
needs the same actions), guided by a lower bound on the actions a table
still needs (``puzzle_bound``): tables are taken least depth plus bound
first, and the first table that takes the goal says the answer's length.
Every table whose depth plus bound is at most that length is taken too, so
every table on a shortest answer is, with all the parents a shortest way to
it goes through, except the tables that already lose to an answer found by
rule 2 (their ways COMBINE later where they first differ): they are left
untaken (see ``_shortest``). Tables are known by their signatures
(``RowTable``): a step's signature, and the bound of the table it leaves
(``Bound.after``), are known from what the step changes, so most steps,
which reach a table met before, build nothing, and a table is built only
when it is taken.
A TAKE and the PUT that must follow it count as two actions but are one
step; a COMBINE is a step of one action. Tiles of the goal's kind are never
moved: a shortest answer never does (wherever the twin could go, the goal
could have gone instead, sooner). A TAKE whose tile goes back where it came
from is no step, nor one of a tile from the row the step before just put it
in, nor one from the run the step before just joined that leaves what one
pair from the two runs would (those tables are nearer the step's parent).
The cycle collector is off while the search runs (it makes no cycles).

Then the rules choose among the shortest answers found: every table on one
keeps all its parents, rule 2 is applied to those tables, and the answers
left are walked out from the start with their ids; each rule after that
keeps, step by step, only the steps that its order prefers among all the
answers still in play (rule 4 counts joker moves backwards from the end).
"""

from __future__ import annotations

import gc
import heapq
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any

from solver.errors import RummikubError
from solver.puzzle_bound import INFINITE, Bound
from solver.puzzle_rows import JOKER_CODE, Limits, PairStep, Row, RowTable, colour_of, number_of
from solver.text import N_

Rows = tuple[tuple[int, Row], ...]
#: (rows by id, the next new id, the tile in hand or -1)
State = tuple[Rows, int, int]

_NOTHING = -1
#: Whether the search leaves untaken the tables that cannot beat the best answer found so far by rule 2 (see
#: ``_shortest``); the tests turn it off to see that it changes no answer.
_LEAVING = True
_UNKNOWN = -2  # (a pair of runs not yet asked whether they join)
#: At most how many tables the dive for an answer that COMBINEs earlier takes (see ``_earlier_answer``); the tests
#: set it to 0 to see that it changes no answer.
_DIVE = 300


class PuzzleLimitError(RummikubError):
    """The search gave up before proving an answer (too many tables, or out of time)."""


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


@dataclass(frozen=True, slots=True)
class Found:
    """A best action list and the rows it leaves (by id)."""

    actions: tuple[Action, ...]
    rows: Rows


def start_state(rows: dict[int, Row]) -> State:
    ordered = tuple(sorted((i, tuple(sorted(r))) for i, r in rows.items()))
    return ordered, max(rows, default=0) + 1, _NOTHING


#: A table without its row ids: its interned rows, sorted.
Shape = tuple[int, ...]
#: A step of the search on tables without ids, by row contents: ``(0, a, b, 0)`` joins runs ``a`` and ``b``;
#: ``(1, k, t, into)`` takes ``t`` from row ``k`` and puts it into a row whose contents are ``into``, or, when
#: ``into`` is -1 or -2, into the row (or the lower half) or the higher half that the TAKE left.
Move = tuple[int, int, int, int]
_COMBINE, _PAIR = 0, 1
#: A step no TAKE from a row should make next (see ``_just_moved``): a tile, or a regroup ``(tile, which row)``.
Unmade = int | tuple[int, int]


def _length(move: Move) -> int:
    return 1 if move[0] == _COMBINE else 2


#: A step from a table, as ``_moves`` gives it: the move, the signature of the table it leaves (see ``RowTable``),
#: and how that table is built: the rows at two places of the table (the second -1 if only one) replaced by others.
Step = tuple[Move, int, int, int, tuple[int, ...]]


#: A row a tile can be taken from, as ``_moves`` keeps it: its place in the table, the row, the rows the TAKE
#: leaves, the change to the table's signature, and the pairs from that TAKE worked out so far (see ``RowSteps``).
_Giver = tuple[int, int, tuple[int, ...], int, dict[int, PairStep]]


def _moves(
    shape: Shape, signature: int, table: RowTable, still: int | None, moved: dict[int, frozenset[Unmade]] | None = None
) -> Iterator[Step]:
    """Every step from a table without ids (TAKE-and-PUT pairs within a row, COMBINEs, then the other pairs), with
    the signature of the table it leaves (``_child`` builds that table).

    Rows with the same contents give the same steps, so each contents is tried once (as the row a TAKE takes from,
    and as the row a PUT puts into; a PUT may go into a second row like the one the TAKE took from). No TAKE takes
    a tile from a row that ``moved`` lists it under (row contents → tiles): see ``_just_moved``.
    """
    rows = shape
    colour, signs = table.colour, table.signs
    known, steps = table.steps_of, table.steps
    runs: dict[int, list[int]] = {}  # the first row of each contents, by a run's colour
    givers: dict[int, _Giver] = {}  # tile → the first row it can be taken from
    others: list[tuple[int, _Giver]] = []  # (tile, another row it can be taken from)
    accepting: list[tuple[int, int, dict[int, tuple[tuple[int, ...], int]]]] = []  # (index, row, its accepts)
    first = givers.setdefault
    for i, k in enumerate(rows):
        if i and rows[i - 1] == k:
            continue
        if colour[k] >= 0:
            runs.setdefault(colour[k], []).append(i)
        takes, regroups, accepts = known[k] or steps(k)
        if accepts:
            accepting.append((i, k, accepts))
        if not takes:
            continue
        blocked = moved.get(k, ()) if moved else ()
        for t, result, change, pairs in takes:
            if t != still and t not in blocked:
                giver = (i, k, result, change, pairs)
                if first(t, giver) is not giver:
                    others.append((t, giver))
        for t, r, made, change in regroups:  # into the row, or a half, the TAKE left
            if t != still and t not in blocked and (t, r) not in blocked:
                yield (_PAIR, k, t, -1 - r), signature + change, i, -1, made
    joins, join = table.joins.get, table.join
    for same in runs.values():
        for x, i in enumerate(same):
            a = rows[i]
            for j in same[x + 1 :]:
                pair = (a, rows[j])
                joined = joins(pair, _UNKNOWN)
                if joined == _UNKNOWN:
                    joined = join(*pair)
                if joined is not None:
                    change = signs[joined] - signs[a] - signs[pair[1]]
                    yield (_COMBINE, a, pair[1], 0), signature + change, i, j, (joined,)
    last = len(rows) - 1
    giving = givers.get
    for j, kj, accepts in accepting:  # into another row, or a second row like the one the TAKE took from
        for t, (landed, change) in accepts.items():
            found = giving(t)
            if found is None:
                continue
            i, k, result, taken, pairs = found
            paired = pairs.get(kj)
            if paired is None:  # (the first time this tile goes from that row into such a row)
                paired = pairs[kj] = ((_PAIR, k, t, kj), taken + change, (*result, *landed))
            if j != i:
                yield paired[0], signature + paired[1], i, j, paired[2]
            elif i < last and rows[i + 1] == k:
                yield paired[0], signature + paired[1], i, i + 1, paired[2]
    for t, (i, k, result, taken, _) in others:  # (seldom: a tile two rows can give)
        for j, kj, accepts in accepting:
            put_in = accepts.get(t)
            if put_in is None:
                continue
            landed, change = put_in
            if j != i:
                yield (_PAIR, k, t, kj), signature + taken + change, i, j, (*result, *landed)
            elif i < last and rows[i + 1] == k:
                yield (_PAIR, k, t, kj), signature + taken + change, i, i + 1, (*result, *landed)


def _child(shape: Shape, step: Step) -> Shape:
    """The table a step from ``shape`` leaves (see ``Step``)."""
    _, _, i, j, added = step
    if j < 0:
        child = [*shape[:i], *shape[i + 1 :], *added]
    else:
        if j < i:
            i, j = j, i
        child = [*shape[:i], *shape[i + 1 : j], *shape[j + 1 :], *added]
    child.sort()
    return tuple(child)


def _just_moved(
    parents: list[tuple[int, Move]], table: RowTable, made: dict[Move, tuple[int, frozenset[Unmade]] | None]
) -> dict[int, frozenset[Unmade]]:
    """The tiles no TAKE should take next from each row a parent's step made (row contents → tiles): a tile its
    PUT put into a row without splitting it, or a tile whose TAKE would undo its COMBINE (see ``_undone``).

    Such a TAKE is never on a shortest answer. After a PUT, taking that tile from that row leaves the row as it
    was before the PUT, so the table it reaches is the parent's with the tile taken from where the parent's step
    took it and put where this step puts it (one step from the parent), or the parent itself; two actions shorter
    either way. After a COMBINE, the TAKE leaves what taking the tile from one of the two runs would have left, and
    the other run: one action shorter from the parent.
    """
    moved: dict[int, frozenset[Unmade]] = {}
    for _, move in parents:
        found = made[move] if move in made else made.setdefault(move, _made(move, table))
        if found is not None:
            row, tiles = found
            known = moved.get(row)
            moved[row] = tiles if known is None else known | tiles
    return moved


def _made(move: Move, table: RowTable) -> tuple[int, frozenset[Unmade]] | None:
    """The row a step made, with the tiles no TAKE should take from it next (see ``_just_moved``), if any."""
    kind, k, t, into = move
    if kind == _COMBINE:
        return _undone(k, t, table)
    if into < 0:  # into the row, or a half, the TAKE left
        into = next(result for tile, result in table.takes(k) if tile == t)[-1 - into]
    landed = table.put(into, t)
    return (landed[0], frozenset((t,))) if landed is not None and len(landed) == 1 else None


def _undone(a: int, b: int, table: RowTable) -> tuple[int, frozenset[Unmade]] | None:
    """The run that joining ``a`` and ``b`` made, with the steps from it that reach no further than one pair
    from ``a`` and ``b`` would: a tile whose TAKE leaves what a TAKE of it from ``a`` or ``b`` leaves beside the
    other (wherever it is put), and a regroup (``(tile, which row)``: see ``RowTable.regroups``) that leaves
    ``a`` and ``b`` again, or what a TAKE from one of them and a PUT into one of them, or into what the TAKE
    left, would leave."""
    joined = table.join(a, b)
    assert joined is not None
    taken: set[tuple[int, tuple[int, ...]]] = set()  # (tile, the rows the TAKE leaves with the other run)
    near: set[tuple[int, ...]] = {tuple(sorted((a, b)))}  # the rows a pair within the two runs, or none, leaves
    for one, other in ((a, b), (b, a)):
        for t, result in table.takes(one):
            taken.add((t, tuple(sorted((*result, other)))))
            landed = table.put(other, t)
            if landed is not None:
                near.add(tuple(sorted((*result, *landed))))
        for _, _, made in table.regroups(one):
            near.add(tuple(sorted((*made, other))))
    blocked: set[Unmade] = {t for t, result in table.takes(joined) if (t, tuple(sorted(result))) in taken}
    blocked.update((t, r) for t, r, made in table.regroups(joined) if tuple(sorted(made)) in near)
    return (joined, frozenset(blocked)) if blocked else None


@dataclass(slots=True)
class _Shortest:
    """What the search leaves: the answer's length, each table's depth and parents, the tables it ends from; tables
    by their signatures (see ``RowTable``).

    A parent reached by a shorter way after it was recorded is no parent on a shortest way (its depth plus its
    step's actions falls short of the table's)."""

    start: int
    length: int
    depth_of: dict[int, int]
    parents: dict[int, list[tuple[int, Move]]]
    finals: list[int]


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
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    table = RowTable(limits)
    start = tuple(sorted(table.intern(r) for _, r in state[0]))
    bound = Bound(table, goal, limits, [t for _, r in state[0] for t in r])
    still = goal if goal != JOKER_CODE else None
    with _no_cycle_collection():
        found = _shortest(start, table, bound, still, max_actions, max_states, deadline, time_limit)
        answer = None if found is None else _choose(found, state, goal, table, still)
        del found, bound, table  # (gone before the collector is back: it would walk them all once more)
    return answer


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while the search runs, and back on after (if it was on).

    The search makes hundreds of thousands of lists, tuples and dicts and no reference cycles, and the collector,
    which runs every few hundred new objects, spent a sixth of the time finding nothing. (Two searches in threads
    at once leave it on at the end whichever ends first; the bot runs each in a process of its own.)
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


#: Rule 2's order of a way from the start: the actions (counted from 0) it COMBINEs at, then ``INFINITE``. Of two
#: ways to tables of one depth, the smaller tuple COMBINEs first where they first differ (see ``_shortest``).
Order = tuple[int, ...]
_FROM_START: Order = (INFINITE,)


def _shortest(
    start: Shape,
    table: RowTable,
    bound: Bound,
    still: int | None,
    most: int,
    max_states: int,
    deadline: float | None,
    time_limit: float | None,
) -> _Shortest | None:
    """Every table on a shortest answer of at most ``most`` actions that the statement's second rule keeps (the
    COMBINEs as early as possible), with all its parents on one (see ``_Shortest``), or None.

    Tables are taken least depth plus bound first (A*). A table is taken again if it is reached by a shorter way
    after it was taken (the bound is not always consistent). The first table that takes the goal says the answer's
    length; the tables whose depth plus bound is that length are all taken too, so every table on a shortest answer
    is, with its parents. Tables are known by their signatures; a table is built only when it is taken.

    Of tables with the same depth plus bound, the deepest are taken first until the answer's length is known (so
    that it is known early in the last layer), then the least deep, and then a table is left untaken when its best
    way from the start COMBINEs later than the best answer found so far does where the two first differ (its
    ``Order`` is larger than that answer's up to its depth): every answer through it loses to that one by rule 2.
    Taken least deep first, a table's parents have all been taken when it comes up (the ones taken before the
    length was known are looked at again in their turn), so its order is its best one. Where the bound is not
    consistent a better parent may still come later: then every table left untaken is taken after all. When the
    length becomes known, a short dive looks for an answer that COMBINEs earlier than the first one found
    (``_earlier_answer``): the earlier the best answer found so far COMBINEs, the more tables lose to it.
    """
    first = table.signature(start)
    shape_of: dict[int, Shape] = {first: start}  # each table taken
    unbuilt: dict[int, tuple[Shape, Step]] = {}  # each table met and not taken yet: a parent, and the step from it
    depth_of: dict[int, int] = {first: 0}
    parents: dict[int, list[tuple[int, Move]]] = {first: []}
    taken: dict[int, int] = {}  # the depth each table was taken at
    queue = _Waiting()
    queue.push(bound(start), 0, first)
    ahead = -1  # -1: the deepest first (the length unknown); 1: the least deep first
    layer: list[tuple[int, int]] = []  # the depth and table of each table taken with the largest depth plus bound
    layer_reach = -1  # (that depth plus bound)
    length = INFINITE
    finals: list[int] = []
    pops = 0
    made: dict[Move, tuple[int, frozenset[Unmade]] | None] = {}  # (see ``_made``), once worked out
    ordering = _Orders(depth_of, parents)
    orders, again, order_of = ordering.known, ordering.again, ordering.of
    best: Order | None = None  # the order of the best answer found so far
    cuts: dict[int, Order] = {}  # by depth: ``best`` up to it, once worked out
    left: list[tuple[int, int, int]] | None = None  # the tables left untaken (None: none are left any more)
    seen, push, after = depth_of.get, queue.push, bound.after
    while queue:
        reach, depth, key = queue.pop()
        depth *= ahead
        if reach > length or reach > most:
            break
        pops += 1
        if deadline is not None and pops % 64 == 1 and time.perf_counter() > deadline:
            raise PuzzleLimitError(
                N_("gave up after {seconds} s ({tables} tables, {depth} actions deep)"),
                seconds=f"{time_limit:g}",
                tables=len(depth_of),
                depth=depth,
            )
        if key in again and taken.get(key) == depth:  # taken before the length was known: its order, now
            again.discard(key)
            orders[key] = ordering.worked_out(key)
            continue
        if depth_of[key] != depth or taken.get(key) == depth:
            continue
        if best is None:
            if reach > layer_reach:
                layer, layer_reach = [], reach
            if reach == layer_reach:
                layer.append((depth, key))
        elif left is not None:
            order = orders[key] = ordering.worked_out(key)
            cut = cuts.get(depth)
            if cut is None:  # (the best order up to this depth)
                cut = cuts[depth] = (*(c for c in best if c < depth), INFINITE)
            if order > cut:
                left.append((reach, depth, key))  # (every answer through it loses to the best by rule 2)
                continue
        taken[key] = depth
        s = shape_of.get(key)
        if s is None:
            s = shape_of[key] = _child(*unbuilt.pop(key))
        if reach - depth == 1:  # (only a table that takes the goal has a bound of 1)
            finals.append(key)
            if best is None:  # the length is known: the least deep first from now on
                length = depth + 1
                provisional = _Orders(depth_of, parents)  # (some way's order: its parents may not all be known)
                best = provisional.of(key)
                if _LEAVING:  # (an answer that COMBINEs earlier leaves more tables untaken)
                    earlier = _earlier_answer(queue, length, best, provisional, shape_of, unbuilt, table, bound, still)
                    best = best if earlier is None else earlier
                again.update(k for _, k in layer)  # (taken deepest first: their orders are worked out in their turn)
                left, ahead = ([] if _LEAVING else None), 1
                queue.flip()
                for d, k in layer:
                    push(reach, d, k)
            elif left is not None and orders[key] < best:
                best = orders[key]
                cuts.clear()
            continue
        reads = bound.reads(s)
        for step in _moves(s, key, table, still, _just_moved(parents[key], table, made)):
            move, child_key = step[0], step[1]
            child_depth = depth + 1 if move[0] == _COMBINE else depth + 2
            known = seen(child_key)
            if known is not None:
                if known == child_depth:
                    parents[child_key].append((key, move))
                    if (
                        left is not None
                        and child_key in orders
                        and _improves(_via(order_of(key), move, depth), orders[child_key])
                    ):
                        for entry in left:  # (a better way after its order was used: take them all after all)
                            push(*entry)
                        left = None
                if known <= child_depth:
                    continue
            value = after(reads, s, step[2], step[3], step[4])
            if child_depth + value > most:
                continue
            if known is None:
                unbuilt[child_key] = (s, step)
            depth_of[child_key] = child_depth
            parents[child_key] = [(key, move)]
            push(child_depth + value, ahead * child_depth, child_key)
        if len(depth_of) > max_states:
            raise PuzzleLimitError(
                N_("gave up after {tables} tables ({depth} actions deep)"), tables=len(depth_of), depth=depth + 2
            )
    if not finals:
        return None
    finals = [k for k in finals if depth_of[k] == length - 1]
    return _Shortest(first, length, depth_of, parents, finals)


class _Waiting:
    """The tables waiting to be taken, least ``(reach, place)`` first, and of those the last pushed first.

    A heap of the pairs met, with a list of tables for each: popping a table is then no more than popping a list
    (the search pushes and pops hundreds of thousands of tables, on a few dozen pairs)."""

    def __init__(self) -> None:
        self.pairs: list[tuple[int, int]] = []  # a heap
        self.tables: dict[tuple[int, int], list[int]] = {}  # by pair: never empty

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def push(self, reach: int, place: int, key: int) -> None:
        pair = (reach, place)
        tables = self.tables.get(pair)
        if tables is None:
            self.tables[pair] = [key]
            heapq.heappush(self.pairs, pair)
        else:
            tables.append(key)

    def pop(self) -> tuple[int, int, int]:
        pair = self.pairs[0]
        tables = self.tables[pair]
        key = tables.pop()
        if not tables:
            del self.tables[pair]
            heapq.heappop(self.pairs)
        return pair[0], pair[1], key

    def flip(self) -> None:
        """Every ``place`` negated (the deepest first becomes the least deep first)."""
        self.tables = {(reach, -place): tables for (reach, place), tables in self.tables.items()}
        self.pairs = list(self.tables)
        heapq.heapify(self.pairs)


def _earlier_answer(
    queue: _Waiting,
    length: int,
    best: Order,
    orders: _Orders,
    shape_of: dict[int, Shape],
    unbuilt: dict[int, tuple[Shape, Step]],
    table: RowTable,
    bound: Bound,
    still: int | None,
) -> Order | None:
    """The order of an answer of ``length`` actions that COMBINEs earlier than ``best`` (rule 2), if a short dive
    finds one; None otherwise. ``orders`` gives some way's order of each table met (not kept in the search).

    The first answer is found deepest first, so it may COMBINE late, and few tables lose to it by rule 2 until a
    better answer turns up: taken least deep first, answers turn up at the very end. So the tables waiting with
    ``length`` as their depth plus bound are looked at deepest first, and from each whose way from the start (some
    way: its parents may not all be known) COMBINEs earlier than ``best``, a depth-first search looks for an answer
    of ``length`` actions, trying COMBINEs before pairs, skipping the tables whose bound says they cannot make it
    and those it found no answer from before at that depth or less. It gives up after taking ``_DIVE`` tables. What
    it finds is an answer of the fewest actions: the search finds it again, and leaving the tables that lose to it
    leaves no better one.
    """
    depth_of = orders.depth_of
    dead: dict[int, int] = {}  # each table no answer was found from, by the least depth it was taken at
    taken = 0

    def dive(shape: Shape, key: int, depth: int, order: Order) -> Order | None:
        nonlocal taken
        taken += 1
        if taken > _DIVE:
            return None
        reads = bound.reads(shape)
        steps = sorted(_moves(shape, key, table, still), key=lambda step: step[0][0] != _COMBINE)
        for step in steps:
            move, child_key = step[0], step[1]
            child_depth = depth + _length(move)
            value = bound.after(reads, shape, step[2], step[3], step[4])
            if child_depth + value > length or dead.get(child_key, INFINITE) <= child_depth:
                continue
            child_order = _via(order, move, depth)
            if value == 1:
                return child_order  # (takes the goal: ``length`` is the fewest actions, so this is an answer)
            found = dive(_child(shape, step), child_key, child_depth, child_order)
            if found is not None or taken > _DIVE:
                return found
        dead[key] = min(dead.get(key, INFINITE), depth)
        return None

    waiting = sorted((place, keys) for (reach, place), keys in queue.tables.items() if reach == length)
    for place, keys in waiting:  # (deepest first: places are depths negated until the length is known)
        for key in reversed(keys):
            if depth_of[key] != -place or taken >= _DIVE:
                continue
            order = orders.of(key)
            if order >= best:
                continue
            if -place == length - 1:
                return order  # (it takes the goal: an answer already)
            shape = shape_of.get(key)
            found = dive(_child(*unbuilt[key]) if shape is None else shape, key, -place, order)
            if found is not None:
                return found
    return None


def _improves(order: Order, known: Order) -> bool:
    """Whether a way of ``order`` to a table is better by rule 2 than the one its order was worked out from."""
    return order < known


def _via(order: Order, move: Move, depth: int) -> Order:
    """The order of a way through a table of ``order`` at ``depth`` and then ``move``."""
    return (*order[:-1], depth, INFINITE) if move[0] == _COMBINE else order


class _Orders:
    """Each table's best order (rule 2's, see ``Order``) through the parents known when it is worked out."""

    def __init__(self, depth_of: dict[int, int], parents: dict[int, list[tuple[int, Move]]]) -> None:
        self.depth_of, self.parents = depth_of, parents
        self.known: dict[int, Order] = {}  # the orders worked out
        self.again: set[int] = set()  # tables whose orders are not kept yet (their parents may not all be known)

    def of(self, key: int) -> Order:
        """Table ``key``'s order, worked out if it is not known yet (and then kept, unless ``again`` holds it)."""
        found = self.known.get(key)
        if found is None:
            found = self.worked_out(key)
            if key not in self.again:
                self.known[key] = found
        return found

    def worked_out(self, key: int) -> Order:
        """The best order of the ways to table ``key`` through its parents known now (``_via`` each, written out:
        this is asked of every table left or taken once the answer's length is known)."""
        depth, depth_of, known = self.depth_of[key], self.depth_of, self.known
        found: Order | None = None
        for parent, move in self.parents[key]:
            at = depth_of[parent]
            joins = move[0] == _COMBINE
            if at + (1 if joins else 2) != depth:
                continue  # (reached by a shorter way after)
            order = known.get(parent) or self.of(parent)
            if joins:
                order = (*order[:-1], at, INFINITE)
            if found is None or order < found:
                found = order
        return _FROM_START if found is None else found


# -- the tie-breaks ----------------------------------------------------------------------------------------------

#: A table with its row ids: (row id, interned row) by id, and the next new id.
Node = tuple[tuple[tuple[int, int], ...], int]
#: One step of an answer with ids: the node it leaves, its actions, the node it reaches.
Edge = tuple[Node, tuple[Action, ...], Node]


def _choose(found: _Shortest, state: State, goal: int, table: RowTable, still: int | None) -> Found:
    """The one shortest answer the rules prefer (see the module docstring), with the rows it leaves."""
    rows, next_id, _ = state
    start: Node = (tuple((i, table.intern(r)) for i, r in rows), next_id)
    plan = _combines_early(found)
    steps = _with_ids(start, plan, goal, table)
    steps = _least(steps, _combine_ids)
    steps = _least(steps, _row_ids)
    steps = _fewest_jokers(steps)
    steps = _least(steps, _jokers_early)
    steps = _least(steps, lambda actions: tuple(_tile_key(a, table.limits) for a in actions))
    node, actions = start, list[Action]()
    for step in steps:  # one answer is left; walk it
        node, done = next((e[2], e[1]) for e in step if e[0] == node)
        actions += done
    return Found(tuple(actions), tuple((i, table.rows[k]) for i, k in node[0]))


def _combines_early(found: _Shortest) -> list[list[tuple[int, Move, int]]]:
    """Rule 2 on tables without ids: step by step, the steps on a shortest answer with a COMBINE where one can be.

    The kind of each action does not depend on ids, so this is decided before ids are brought back.
    """
    depth_of = found.depth_of
    good = set(found.finals)
    todo = list(found.finals)
    after: dict[int, list[tuple[Move, int]]] = {}
    while todo:
        child = todo.pop()
        for parent, move in found.parents[child]:
            if depth_of[parent] + _length(move) != depth_of[child]:
                continue  # (the parent was reached by a shorter way after)
            after.setdefault(parent, []).append((move, child))
            if parent not in good:
                good.add(parent)
                todo.append(parent)
    frontier, depth = {found.start}, 0
    plan: list[list[tuple[int, Move, int]]] = []
    while depth < found.length - 1:
        step = [(s, move, child) for s in frontier for move, child in after.get(s, ())]
        joins = [e for e in step if e[1][0] == _COMBINE]
        step = joins or step
        plan.append(step)
        frontier = {child for _, _, child in step}
        depth += 1 if joins else 2
    alive = frontier
    for i in range(len(plan) - 1, -1, -1):
        plan[i] = [e for e in plan[i] if e[2] in alive]
        alive = {e[0] for e in plan[i]}
    return plan


def _with_ids(start: Node, plan: list[list[tuple[int, Move, int]]], goal: int, table: RowTable) -> list[list[Edge]]:
    """The answers of ``plan`` (tables by signature) walked out from the start with their row ids, and the goal's
    PUT at the end."""
    frontier = {start}
    steps: list[list[Edge]] = []
    for options in plan:
        wanted: dict[int, set[tuple[Move, int]]] = {}
        for s, move, child in options:
            wanted.setdefault(s, set()).add((move, child))
        step: list[Edge] = []
        for node in sorted(frontier):
            for move, child in wanted.get(table.signature(k for _, k in node[0]), ()):
                for actions, reached in _apply(node, move, table):
                    if table.signature(k for _, k in reached[0]) == child:
                        step.append((node, actions, reached))
        steps.append(step)
        frontier = {reached for _, _, reached in step}
    last: list[Edge] = []
    for node in sorted(frontier):
        rows, next_id = node
        for x, (rid, k) in enumerate(rows):
            landed = table.put(k, goal)
            if landed is not None:
                ended = _replaced(rows, x, landed, next_id)
                last.append((node, (Action(ActionKind.PUT, goal, rid),), ended))
    steps.append(last)
    return steps


def _replaced(rows: tuple[tuple[int, int], ...], x: int, result: tuple[int, ...], next_id: int) -> Node:
    """Row ``x`` becomes ``result[0]``; a split's higher half gets the next new id (the largest, so it goes last)."""
    changed = (*rows[:x], (rows[x][0], result[0]), *rows[x + 1 :])
    if len(result) == 1:
        return changed, next_id
    return (*changed, (next_id, result[1])), next_id + 1


def _apply(node: Node, move: Move, table: RowTable) -> Iterator[tuple[tuple[Action, ...], Node]]:
    """Every way ``move`` (given by row contents) can be made on a table with ids: one per choice of rows."""
    rows, next_id = node
    kind, a, b, into = move
    if kind == _COMBINE:
        joined = table.join(a, b)
        assert joined is not None
        for x, (ra, ka) in enumerate(rows):
            for y in range(x + 1, len(rows)):
                rb, kb = rows[y]
                if (ka, kb) in ((a, b), (b, a)):
                    merged = (*rows[:x], (ra, joined), *rows[x + 1 : y], *rows[y + 1 :])
                    yield (Action(ActionKind.COMBINE, -1, ra, rb),), (merged, next_id)
        return
    result = next(res for t, res in table.takes(a) if t == b)
    for x, (source, k) in enumerate(rows):
        if k != a:
            continue
        held, held_next = _replaced(rows, x, result, next_id)
        if into < 0:
            places = [x] if into == -1 else [len(held) - 1]
        else:
            # another row with those contents: not the row the TAKE left, nor its new higher half
            places = [y for y, (rid, ky) in enumerate(held) if ky == into and rid != source and rid < next_id]
        for y in places:
            landed = table.put(held[y][1], b)
            if landed is not None:
                reached = _replaced(held, y, landed, held_next)
                yield (Action(ActionKind.TAKE, b, source), Action(ActionKind.PUT, b, held[y][0])), reached


def _least(steps: list[list[Edge]], label: Callable[[tuple[Action, ...]], Any]) -> list[list[Edge]]:
    """Keep the answers whose labels, step by step, are the least (a rule that compares answers where they first
    differ); each step's labels are compared among all the answers still in play."""
    frontier = {steps[0][0][0]}
    kept: list[list[Edge]] = []
    for step in steps:
        here = [e for e in step if e[0] in frontier]
        best = min(label(e[1]) for e in here)
        here = [e for e in here if label(e[1]) == best]
        kept.append(here)
        frontier = {e[2] for e in here}
    return _alive(kept)


def _alive(steps: list[list[Edge]]) -> list[list[Edge]]:
    """Drop the steps that lead nowhere (their table has no step kept after it)."""
    alive = {e[2] for e in steps[-1]}
    for i in range(len(steps) - 1, -1, -1):
        steps[i] = [e for e in steps[i] if e[2] in alive]
        alive = {e[0] for e in steps[i]}
    return steps


def _fewest_jokers(steps: list[list[Edge]]) -> list[list[Edge]]:
    """Rule 4: keep the answers with the fewest TAKEs and PUTs of the joker, counted from the end backwards."""
    left: dict[Node, int] = {e[2]: 0 for e in steps[-1]}
    for step in reversed(steps):
        for node, actions, reached in step:
            cost = left[reached] + sum(a.moves_joker for a in actions)
            if cost < left.get(node, INFINITE):
                left[node] = cost
    kept = [[e for e in step if left[e[2]] + sum(a.moves_joker for a in e[1]) == left[e[0]]] for step in steps]
    frontier = {steps[0][0][0]}
    for i, step in enumerate(kept):
        kept[i] = [e for e in step if e[0] in frontier]
        frontier = {e[2] for e in kept[i]}
    return _alive(kept)


def _combine_ids(actions: tuple[Action, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((a.row, a.other) for a in actions if a.kind is ActionKind.COMBINE)


def _row_ids(actions: tuple[Action, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple((a.row, a.other) if a.kind is ActionKind.COMBINE else (a.row,) for a in actions)


def _jokers_early(actions: tuple[Action, ...]) -> tuple[int, ...]:
    return tuple(0 if a.moves_joker else 1 for a in actions)


def _tile_key(a: Action, limits: Limits) -> tuple[int, int]:
    if a.kind is ActionKind.COMBINE:
        return (-1, -1)
    if a.tile == JOKER_CODE:
        return (limits.colours, 0)
    return (colour_of(a.tile), number_of(a.tile))
