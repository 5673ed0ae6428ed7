"""From the old table and the new one to moves a person can follow: the second half of planning.

``flows`` decides which tiles travel where. Here every chunk that goes into
a set already on the table is one move, and every new set is laid in one move
with all its tiles; then the moves are put in an order that keeps the table
valid after each one (a depth-first search over orders; when no order does,
the order that leaves the fewest invalid sets at each step). Last, each move
is named for what it looks like at the table: a rack tile put on a run's end,
an insert that splits a run, a join, a joker swapped out, and so on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from solver.flows import Flow, assign
from solver.moves import Move, MoveKind, Transfer
from solver.rules import Rules
from solver.sets import Kind, SetError, TileSet, make_set
from solver.solution import Solution
from solver.tiles import JOKER, Tile

SEARCH_BUDGET = 5000

Table = dict[int, Counter[Tile]]
#: The table while ordering moves: sets keyed ("old", i) for old set i, ("new", j) for new set j. Their
#: tile counts are plain dicts: the search copies and changes thousands of them, which a Counter makes slow.
_Sets = dict[tuple[str, int], dict[Tile, int]]


@dataclass(frozen=True, slots=True)
class Plan:
    """The moves, and ``numbers[j]``: the number the new table's set ``j`` has once they are made."""

    moves: tuple[Move, ...]
    numbers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Unit:
    """One move before it is named: the chunks going into new set ``target``; ``creates`` when it is laid new."""

    target: int
    flows: tuple[Flow, ...]
    creates: bool


def plan_moves(before: Sequence[TileSet], after: Sequence[TileSet], placed: Sequence[Tile], rules: Rules) -> list[Move]:
    """Moves that turn ``before`` (plus ``placed`` from the rack) into ``after``; see ``solver.moves`` for numbering."""
    return list(plan(before, after, placed, rules).moves)


def plan_solution(solution: Solution, *, budget: int = SEARCH_BUDGET) -> list[Move]:
    """The moves for a solver's answer (``budget``: see ``plan``)."""
    return list(plan_of(solution, budget=budget).moves)


def plan_of(solution: Solution, *, budget: int = SEARCH_BUDGET) -> Plan:
    return plan(
        solution.table_before, solution.table, solution.placed, solution.rules, hint=solution.kept_from, budget=budget
    )


def numbered(solution: Solution, plan: Plan) -> tuple[Solution, tuple[int, ...]]:
    """The new table as the moves leave it, for pictures and lists: sets in the order of their numbers.

    Each set's ``kept_from`` becomes the old set it continues under the plan
    (its own number, or the run it split from), so only tiles that really
    changed set show as moved. Returns the solution and the sets' numbers.
    """
    n = len(solution.table_before)
    order = sorted(range(len(solution.table)), key=lambda j: plan.numbers[j])
    split_from = _split_from(plan)
    homes = [
        plan.numbers[j] - 1
        if plan.numbers[j] <= n
        else split_from[plan.numbers[j]] - 1
        if split_from.get(plan.numbers[j], n + 1) <= n
        else solution.kept_from[j]
        for j in order
    ]
    shown = replace(
        solution,
        table=tuple(solution.table[j] for j in order),
        origins=tuple(solution.origins[j] for j in order),
        kept_from=tuple(homes),
    )
    return shown, tuple(plan.numbers[j] for j in order)


def _split_from(plan: Plan) -> dict[int, int]:
    """For each set a split made (of a run, with or without rack tiles put in), the number of the run."""
    found: dict[int, int] = {}
    for move in plan.moves:
        if move.kind in (MoveKind.SPLIT, MoveKind.INSERT_SPLIT):
            for tr in move.transfers:
                if tr.source is not None:
                    found[tr.target] = tr.source
    return found


def plan(
    before: Sequence[TileSet],
    after: Sequence[TileSet],
    placed: Sequence[Tile],
    rules: Rules,
    hint: Sequence[int | None] | None = None,
    budget: int = SEARCH_BUDGET,
) -> Plan:
    """The moves and the final set numbers. Raises ``PlanError`` when the tiles do not add up.

    ``budget`` caps the orders searched for one that keeps the table valid after every move (each
    costs about 0.3 ms on a big table); past it, the greedy order is used. A caller answering a chat
    may want a smaller cap than the default.
    """
    flows = assign(before, after, placed, hint)
    units = _units(flows.identity, flows.flows)
    order = _Orderer(before, after, flows.identity, units, rules, budget).best_order()
    return _name(before, after, flows.identity, [units[k] for k in order], rules)


def _units(identity: Sequence[int | None], flows: Sequence[Flow]) -> list[_Unit]:
    units: list[_Unit] = []
    for j, i in enumerate(identity):
        into = [f for f in flows if f.target == j]
        if i is None:
            if into:
                into.sort(key=lambda f: (f.source is None, f.source or 0))
                units.append(_Unit(j, tuple(into), creates=True))
        else:
            units.extend(_Unit(j, (f,), creates=False) for f in into)
    return units


def _key(c: Counter[Tile], rules: Rules) -> tuple[Tile, ...]:
    return tuple(sorted(c.elements(), key=rules.tile_key))


def _valid(c: dict[Tile, int], rules: Rules) -> bool:
    return _valid_counts(frozenset(c.items()), rules)


@lru_cache(maxsize=1 << 14)
def _valid_counts(counts: frozenset[tuple[Tile, int]], rules: Rules) -> bool:
    """Whether these tiles make a set, cached by their counts (cheaper to build than their sorted order)."""
    return _shape_of(_key(Counter(dict(counts)), rules), rules) is not None


class _Orderer:
    """Finds an order of the units; the table's contents depend only on which units are done, not their order."""

    def __init__(
        self,
        before: Sequence[TileSet],
        after: Sequence[TileSet],
        identity: Sequence[int | None],
        units: list[_Unit],
        rules: Rules,
        budget: int = SEARCH_BUDGET,
    ) -> None:
        self.before, self.after, self.identity, self.units, self.rules = before, after, identity, units, rules
        self.dead: set[frozenset[int]] = set()
        self.budget = budget

    def _start(self) -> _Sets:
        """Sets keyed ("old", i) or ("new", j) so the contents do not depend on creation order."""
        return {("old", i): dict(Counter(s.tiles)) for i, s in enumerate(self.before)}

    def _place(self, j: int) -> tuple[str, int]:
        i = self.identity[j]
        return ("new", j) if i is None else ("old", i)

    def _after(self, table: _Sets, unit: _Unit) -> tuple[_Sets, set[tuple[str, int]]]:
        """The table after ``unit`` (a new dict; only the sets it touches are copied) and those sets."""
        out = dict(table)
        dest_key = self._place(unit.target)
        dest = out[dest_key] = dict(table.get(dest_key, ()))
        touched = {dest_key}
        for f in unit.flows:
            if f.source is not None:
                key = ("old", f.source)
                if key not in touched:
                    out[key] = dict(out[key])
                    touched.add(key)
                source = out[key]
                for t in f.tiles:
                    left = source.get(t, 0) - 1
                    if left > 0:
                        source[t] = left
                    else:
                        source.pop(t, None)
            for t in f.tiles:
                dest[t] = dest.get(t, 0) + 1
        return out, touched

    def _broken(self, table: _Sets, keys: Iterable[tuple[str, int]]) -> int:
        return sum(1 for key in keys if table.get(key) and not _valid(table[key], self.rules))

    def _rank(self, k: int, last: int | None) -> tuple[int, int, int]:
        """Follow a tile put where a joker lies with moving that joker; otherwise keep the table's order."""
        unit = self.units[k]
        follows = last is not None and _joker_follow(self.units[last], unit, self.identity)
        place = self._place(unit.target)
        return (0 if follows else 1, 0 if place[0] == "old" else 1, place[1])

    def best_order(self) -> list[int]:
        found = self._search(self._start(), frozenset(), [], None)
        return found if found is not None else self._greedy()

    def _search(self, table: _Sets, done: frozenset[int], path: list[int], last: int | None) -> list[int] | None:
        """Depth first over orders in which every move leaves a valid table; ``table`` is valid here."""
        if len(done) == len(self.units):
            return path
        if done in self.dead or self.budget <= 0:
            return None
        self.budget -= 1
        todo = sorted((k for k in range(len(self.units)) if k not in done), key=lambda k: self._rank(k, last))
        for k in todo:
            following, touched = self._after(table, self.units[k])
            if self._broken(following, touched):
                continue
            found = self._search(following, done | {k}, [*path, k], k)
            if found is not None:
                return found
        self.dead.add(done)
        return None

    def _greedy(self) -> list[int]:
        """Each time the move that leaves the fewest invalid sets (when no order keeps them all valid)."""
        table = self._start()
        broken = 0
        todo = set(range(len(self.units)))
        path: list[int] = []
        last: int | None = None
        while todo:
            best: tuple[int, tuple[int, int, int]] | None = None
            pick, pick_table = -1, table
            for k in todo:
                following, touched = self._after(table, self.units[k])
                score = (broken - self._broken(table, touched) + self._broken(following, touched), self._rank(k, last))
                if best is None or score < best:
                    best, pick, pick_table = score, k, following
            table, broken, last = pick_table, best[0] if best else 0, pick
            todo.discard(pick)
            path.append(pick)
        return path


def _joker_follow(previous: _Unit, unit: _Unit, identity: Sequence[int | None]) -> bool:
    """``unit`` takes a joker out of the set ``previous`` just put a tile in."""
    into = identity[previous.target]
    return into is not None and any(f.source == into and JOKER in f.tiles for f in unit.flows)


def _layout(c: Counter[Tile], rules: Rules, final: TileSet | None) -> tuple[Tile, ...]:
    if final is not None and Counter(final.tiles) == c:
        return final.tiles
    key = _key(c, rules)
    try:
        return make_set(key, rules).tiles
    except SetError:
        return key


def _name(
    before: Sequence[TileSet],
    after: Sequence[TileSet],
    identity: Sequence[int | None],
    units: Sequence[_Unit],
    rules: Rules,
) -> Plan:
    """Replay the units in order, giving new sets their numbers and each move its kind and words."""
    table: Table = {i: Counter(s.tiles) for i, s in enumerate(before, start=1)}
    number: dict[int, int] = {j: i + 1 for j, i in enumerate(identity) if i is not None}
    final_of: dict[int, TileSet] = {}
    for j, i in enumerate(identity):
        if i is not None:
            final_of[i + 1] = after[j]
    used = len(before)
    moves: list[Move] = []
    for unit in units:
        created: int | None = None
        if unit.creates:
            used += 1
            created = number[unit.target] = used
            table[created] = Counter()
            final_of[created] = after[unit.target]
        target = number[unit.target]
        transfers = tuple(Transfer(f.tiles, None if f.source is None else f.source + 1, target) for f in unit.flows)
        touched = {target} | {tr.source for tr in transfers if tr.source is not None}
        shapes = {n: _shape(table[n], rules) for n in touched}  # a move is named by the sets it touches
        previous = {n: Counter(table[n]) for n in touched}
        for tr in transfers:
            if tr.source is not None:
                table[tr.source] -= Counter(tr.tiles)
            table[target].update(tr.tiles)
        result = tuple((n, _layout(table[n], rules, final_of.get(n))) for n in sorted(touched))
        for n in touched:
            if not table[n]:
                del table[n]
        valid = all(_valid(c, rules) for c in table.values())
        kind = _kind(transfers, created, previous, shapes, table, rules)
        moves.append(Move(kind, transfers, result, created, valid))
    numbers = tuple(number[j] for j in range(len(after)))
    return Plan(tuple(_merge_jokers(moves, before, rules)), numbers)


def _shape(c: Counter[Tile], rules: Rules) -> TileSet | None:
    return _shape_of(_key(c, rules), rules) if c else None


@lru_cache(maxsize=1 << 12)
def _shape_of(tiles: tuple[Tile, ...], rules: Rules) -> TileSet | None:
    try:
        return make_set(tiles, rules)
    except SetError:
        return None


def _kind(
    transfers: Sequence[Transfer],
    created: int | None,
    previous: dict[int, Counter[Tile]],
    shapes: dict[int, TileSet | None],
    table: Table,
    rules: Rules,
) -> MoveKind:
    from_sets = [tr for tr in transfers if tr.source is not None]
    from_rack = [tr for tr in transfers if tr.source is None]
    if created is None:
        tr = transfers[0]
        if tr.source is None:
            return MoveKind.EXTEND
        source, target = shapes.get(tr.source), shapes.get(tr.target)
        whole = tr.source not in table
        runs = source is not None and target is not None and source.kind is Kind.RUN and target.kind is Kind.RUN
        return MoveKind.JOIN if whole and runs else MoveKind.TAKE_PUT
    if not from_sets:
        return MoveKind.NEW_SET
    if len(from_sets) == 1:
        split = from_sets[0]
        assert split.source is not None
        old = shapes.get(split.source)
        stays = _shape(table.get(split.source, Counter()), rules)
        if old is not None and old.kind is Kind.RUN and stays is not None and stays.kind is Kind.RUN:
            if not from_rack and _shape(Counter(split.tiles), rules) is not None:
                return MoveKind.SPLIT
            rack = [t for tr in from_rack for t in tr.tiles if not t.is_joker]
            inside = all(t.colour == old.colour and old.low <= t.number <= old.high for t in rack)
            made = _shape(table.get(transfers[0].target, Counter()), rules)
            if rack and inside and made is not None and made.kind is Kind.RUN:
                return MoveKind.INSERT_SPLIT
    return MoveKind.NEW_SET


def _merge_jokers(moves: list[Move], before: Sequence[TileSet], rules: Rules) -> list[Move]:
    """A tile put where a joker stood, then that joker moved on: one move, "move the joker"."""
    table: Table = {i: Counter(s.tiles) for i, s in enumerate(before, start=1)}
    out: list[Move] = []
    k = 0
    while k < len(moves):
        move = moves[k]
        nxt = moves[k + 1] if k + 1 < len(moves) else None
        swap = _replaces_joker(move, nxt, table, rules) if nxt is not None else None
        if nxt is not None and swap is not None:
            merged_result = dict(move.result)
            merged_result.update(nxt.result)
            merged = Move(
                MoveKind.MOVE_JOKER,
                move.transfers + nxt.transfers,
                tuple(sorted(merged_result.items())),
                nxt.created,
                nxt.table_valid,
                swap,
            )
            _replay(table, move)
            _replay(table, nxt)
            out.append(merged)
            k += 2
            continue
        _replay(table, move)
        out.append(move)
        k += 1
    return out


def _replaces_joker(move: Move, nxt: Move, table: Table, rules: Rules) -> Tile | None:
    """The tile of ``move`` that takes the place of a joker which ``nxt`` then takes away, if any."""
    if move.kind not in (MoveKind.EXTEND, MoveKind.TAKE_PUT) or JOKER in move.tiles:
        return None
    x = move.transfers[0].target
    if not any(tr.source == x and JOKER in tr.tiles for tr in nxt.transfers):
        return None
    shape = _shape(table.get(x, Counter()), rules)
    if shape is None:
        return None
    stands = {s for t, s in zip(shape.tiles, shape.stands_for, strict=True) if t.is_joker}
    return next((t for t in move.tiles if t in stands), None)


def _replay(table: Table, move: Move) -> None:
    if move.created is not None:
        table[move.created] = Counter()
    for tr in move.transfers:
        if tr.source is not None:
            table[tr.source] -= Counter(tr.tiles)
        table[tr.target].update(tr.tiles)
    for n in [n for n, c in table.items() if not c]:
        del table[n]
