"""A simpler play: under a best play of more than three moves, the best play a child can follow in three.

The rule: among the plays whose moves (``solver.planner``, as the chat shows them) number at most three, the
one that lays the most tiles (then the fewest steps). It is offered only when the best play takes more moves
and some play of at most three moves lays a tile; it says how many tiles it gives up. (Read for the issue's
"the best play with at most three moves (or none that lays fewer tiles than it would cost)": a simpler play
never counts as the best one, and its price, the tiles fewer, is always said.)

How it is found: every step a person makes in one move, on the table as it lies, is listed:

- a new set from the rack (its jokers standing for tiles the rack lacks);
- rack tiles put on one set (a run's ends, a group's missing colours; jokers too);
- a rack tile put into a run, splitting it in two (``INSERT_SPLIT``);
- a new set of rack tiles and tiles taken from the table, each set they leave still valid (a run's end block,
  one tile of a group that has more than the smallest set);
- a rack tile put in a joker's place, the joker laid with rack tiles as a new set, or put on another set.

Then an integer program (SCIP, ``solver.model``) picks at most three steps (each old set in one step at most,
no more of a tile than the rack holds; an opening: new sets from the rack only, worth the initial meld) for the
most tiles; the play is laid out (``solver.layout``) and planned, and kept only if its moves are at most three;
otherwise that choice is cut off and the program solved again. So the answer is a valid play of at most three
moves, the best of all the plays made of such steps. A play needing a step outside the list (a tile moved
between two table sets, a split without an insert) is not found, and a joker stands only for a tile the
rack lacks.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from solver.layout import trace_origins
from solver.model import Program, solve_program
from solver.planner import plan_of
from solver.rules import Rules
from solver.sets import Kind, SetError, TileSet, make_set
from solver.solution import Objective, Solution, table_points
from solver.text import Text, counted
from solver.tiles import JOKER, Colour, Tile

#: the most moves a simpler play may take
MOST_MOVES = 3
#: orders the planner tries for each play checked (the chat plans its answers with the same budget)
PLAN_BUDGET = 60
#: choices cut off (their plan took more moves) before the search gives up
MOST_CUTS = 40
#: the time the search may take, the integer programs included
TIME_LIMIT = 5.0


@dataclass(frozen=True, slots=True)
class Step:
    """One move on the table as it lies: the ``rack`` tiles it lays, the old sets it touches (``sets``,
    0-based), those sets as they lie after it (``kept``: a split run twice) and the new sets it lays."""

    rack: tuple[Tile, ...]
    sets: frozenset[int]
    kept: tuple[tuple[int, TileSet], ...]
    fresh: tuple[TileSet, ...]

    @property
    def value(self) -> int:
        """What its new sets count for an initial meld."""
        return sum(s.value for s in self.fresh)


@dataclass(frozen=True, slots=True)
class Simpler:
    """The simpler play (a ``Solution``: the chat shows its picture and moves as any answer's), its ``moves``,
    and the best play's tiles and moves it is set against. ``proven``: no play made of the listed steps in at
    most three moves lays more (the search finished)."""

    solution: Solution
    moves: int
    best_tiles: int
    best_moves: int
    proven: bool

    @property
    def tiles(self) -> int:
        return self.solution.tiles_placed

    @property
    def fewer(self) -> int:
        """The tiles it lays fewer than the best play (0: as many)."""
        return max(0, self.best_tiles - self.tiles)

    def text(self) -> Text:
        """ "A simpler play, in 3 moves: 5 tiles, 2 fewer than the best play"."""
        moves = counted("{n} move", "{n} moves", self.moves)
        if self.fewer == 0:
            return counted(
                "A simpler play, in {moves}: the same {n} tile",
                "A simpler play, in {moves}: the same {n} tiles",
                self.tiles,
                moves=moves,
            )
        return counted(
            "A simpler play, in {moves}: {n} tile, {fewer} fewer than the best play",
            "A simpler play, in {moves}: {n} tiles, {fewer} fewer than the best play",
            self.tiles,
            moves=moves,
            fewer=self.fewer,
        )


def moves_of(solution: Solution, budget: int = PLAN_BUDGET) -> int:
    """The moves the chat shows for a play."""
    return len(plan_of(solution, budget=budget).moves) if solution.has_play else 0


def simpler(best: Solution, *, most_moves: int = MOST_MOVES, time_limit: float = TIME_LIMIT) -> Simpler | None:
    """The simpler play to offer under ``best`` (the answer shown), or None: ``best`` takes at most
    ``most_moves`` moves already, or lays nothing, or no play of at most ``most_moves`` moves lays a tile."""
    if not best.has_play:
        return None
    best_moves = moves_of(best)
    if best_moves <= most_moves:
        return None
    rack = (*best.placed, *best.rack_left)
    found = simplest_play(
        rack,
        best.table_before,
        best.rules,
        initial_meld=best.initial_meld,
        objective=best.objective,
        most_moves=most_moves,
        time_limit=time_limit,
    )
    if found is None:
        return None
    play, moves, proven = found
    return Simpler(play, moves, best.tiles_placed, best_moves, proven)


def simplest_play(
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    rules: Rules,
    *,
    initial_meld: bool = False,
    objective: Objective = Objective.TILES,
    most_moves: int = MOST_MOVES,
    time_limit: float = TIME_LIMIT,
) -> tuple[Solution, int, bool] | None:
    """The play of at most ``most_moves`` moves made of the listed steps that lays the most tiles (then takes
    the fewest steps), its moves, and whether the search finished (it may stop at ``time_limit`` or after
    ``MOST_CUTS`` choices whose plan took more moves); None when no such play lays a tile."""
    started = time.perf_counter()
    deadline = started + time_limit
    steps = list(all_steps(rack, table, rules, initial_meld=initial_meld))
    if not steps:
        return None
    # Each step counts one move until the planner says otherwise: a step that takes tiles from the table or
    # moves a joker is planned alone the first time a choice holds it and takes too many moves.
    costs = [1] * len(steps)
    known = [not _may_cost_more(step) for step in steps]
    rack_count = Counter(rack)
    program = Program()
    count_row = program.row(None, most_moves)
    tile_rows = {t: program.row(None, n) for t, n in rack_count.items()}
    set_rows = {i: program.row(None, 1) for i in range(len(table))}
    meld_row = program.row(rules.initial_meld, None) if initial_meld else None
    weight = most_moves + 1
    for step in steps:
        rows: dict[int, int] = {count_row: 1}
        for t, n in Counter(step.rack).items():
            rows[tile_rows[t]] = n
        for i in step.sets:
            rows[set_rows[i]] = 1
        if meld_row is not None:
            rows[meld_row] = step.value
        program.column(rows, float(weight * len(step.rack) - 1), 1)
    finished = True
    cuts = 0
    while cuts <= MOST_CUTS:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        outcome = solve_program(program, left)
        if not outcome.feasible:
            return None
        finished = finished and outcome.optimal
        picked = [k for k, n in enumerate(outcome.counts) if n]
        if not picked:
            return None
        chosen = [steps[k] for k in picked]
        play = _laid(chosen, rack, table, rules, initial_meld, objective, started)
        moves = moves_of(play) if play is not None else most_moves + 1
        if play is not None and moves <= most_moves:
            return play, moves, finished
        recosted = False
        for k in picked:
            if not known[k]:
                known[k] = True
                alone = _laid([steps[k]], rack, table, rules, False, objective, started)
                costs[k] = most_moves + 1 if alone is None else moves_of(alone)
                if costs[k] > 1:
                    recosted = True
                    column = program.columns[k]
                    column.rows[count_row] = costs[k]
                    column.objective = float(weight * len(steps[k].rack) - costs[k])
        if recosted:
            continue
        # this choice takes more moves as the planner tells it (or does not lay out as listed): cut it off
        cuts += 1
        cut = program.row(None, len(picked) - 1)
        for k in picked:
            program.columns[k].rows[cut] = 1
    return None


def _may_cost_more(step: Step) -> bool:
    """A step that takes tiles from the table or moves a joker, which the planner may tell in more than one move
    (a block taken that is larger than what stays reads as the set moving, and what stays as the new set)."""
    return bool(step.fresh and step.kept) or len(step.sets) > 1


def _laid(
    chosen: Sequence[Step],
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    rules: Rules,
    initial_meld: bool,
    objective: Objective,
    started: float,
) -> Solution | None:
    """The play of the chosen steps, as a solver's answer is laid out (``solver.layout.lay_out``) but with every
    set as the steps leave it: a new run is not joined onto a run beside it (that would be another story of
    moves). None if it does not add up."""
    touched = {i for step in chosen for i in step.sets}
    kept = [(i, s) for i, s in enumerate(table) if i not in touched]
    kept.extend(e for step in chosen for e in step.kept)
    kept.sort(key=lambda e: (e[0], e[1].low))
    fresh = sorted(
        (s for step in chosen for s in step.fresh),
        key=lambda s: (s.kind is Kind.GROUP, rules.tile_key(s.stands_for[0]), len(s), str(s)),
    )
    after = [s for _, s in kept] + fresh
    kept_from: list[int | None] = [i for i, _ in kept] + [None] * len(fresh)
    origins = trace_origins(table, after, kept_from)
    placed = [
        t for s, row in zip(after, origins, strict=True) for t, o in zip(s.tiles, row, strict=True) if o.from_rack
    ]
    if Counter(placed) != Counter(t for step in chosen for t in step.rack):
        return None
    left = Counter(rack)
    left.subtract(placed)
    stayed = Counter(o.old_set for i, row in zip(kept_from, origins, strict=True) for o in row if o.old_set == i)
    return Solution(
        rules=rules,
        objective=objective,
        initial_meld=initial_meld,
        table_before=tuple(table),
        table=tuple(after),
        origins=tuple(tuple(row) for row in origins),
        kept_from=tuple(kept_from),
        placed=tuple(sorted(placed, key=rules.tile_key)),
        rack_left=tuple(sorted(left.elements(), key=rules.tile_key)),
        points_placed=table_points(after, placed, origins, kept_from),
        kept_sets=sum(1 for i, s in enumerate(table) if stayed[i] == len(s) and _jokers_stay(s, i, after, kept_from)),
        optimal=True,
        solve_ms=(time.perf_counter() - started) * 1000,
    )


def _jokers_stay(old: TileSet, i: int, after: Sequence[TileSet], kept_from: Sequence[int | None]) -> bool:
    """Whether the jokers of old run ``i`` still stand for their numbers where it lies now (a run whose joker
    moves to the other end has grown into another set, not been kept)."""
    if old.kind is not Kind.RUN:
        return True
    held = {n.number for t, n in zip(old.tiles, old.stands_for, strict=True) if t.is_joker}
    now = {
        n.number
        for s, j in zip(after, kept_from, strict=True)
        if j == i
        for t, n in zip(s.tiles, s.stands_for, strict=True)
        if t.is_joker
    }
    return held <= now


def all_steps(rack: Sequence[Tile], table: Sequence[TileSet], rules: Rules, *, initial_meld: bool) -> Iterator[Step]:
    """Every step listed above, on ``table`` as it lies, with tiles of ``rack`` (an opening: new sets only)."""
    real = Counter(t for t in rack if not t.is_joker)
    jokers = sum(1 for t in rack if t.is_joker)
    seen: set[tuple[object, ...]] = set()

    def once(step: Step) -> Iterator[Step]:
        key = (tuple(sorted(step.rack, key=rules.tile_key)), _key(step.kept), _key((None, s) for s in step.fresh))
        if key not in seen:
            seen.add(key)
            yield step

    for s in rack_sets(real, jokers, rules):
        yield from once(Step(s.tiles, frozenset(), (), (s,)))
    if initial_meld:
        return
    for i, old in enumerate(table):
        for grown, added in grown_forms(old, real, jokers, rules):
            yield from once(Step(added, frozenset({i}), ((i, grown),), ()))
        for low, high, added in inserts(old, real, jokers, rules):
            yield from once(Step(added, frozenset({i}), ((i, low), (i, high)), ()))
    for step in takes(table, real, jokers, rules):
        yield from once(step)
    for step in joker_swaps(table, real, jokers, rules):
        yield from once(step)


def _key(sets: Iterator[tuple[int | None, TileSet]] | Sequence[tuple[int | None, TileSet]]) -> tuple[object, ...]:
    return tuple(sorted((-1 if i is None else i, tuple(str(t) for t in s.tiles)) for i, s in sets))


def rack_sets(real: Counter[Tile], jokers: int, rules: Rules) -> Iterator[TileSet]:
    """Every set of the rack's tiles: at least one numbered tile, a joker only for a tile the rack lacks."""
    s = rules.smallest_set
    for colour in rules.colour_order:
        for low in range(1, rules.numbers + 1):
            missing: list[int] = []
            for high in range(low, rules.numbers + 1):
                if not real[Tile(high, colour)]:
                    missing.append(high - low)
                if len(missing) > jokers:
                    break
                length = high - low + 1
                if length >= s and length > len(missing):
                    yield TileSet.run(colour, low, missing, length)
    for number in range(1, rules.numbers + 1):
        have = [c for c in rules.colour_order if real[Tile(number, c)]]
        for k in range(1, len(have) + 1):
            for colours in combinations(have, k):
                lacking = [c for c in rules.colour_order if c not in colours]
                for j in range(0, min(jokers, len(lacking)) + 1):
                    if s <= k + j <= rules.max_group:
                        yield TileSet.group(number, colours, lacking[:j])


def grown_forms(
    old: TileSet, real: Counter[Tile], jokers: int, rules: Rules
) -> Iterator[tuple[TileSet, tuple[Tile, ...]]]:
    """``old`` grown by rack tiles in one move (a run at its ends, a group by colours it lacks; a joker for a
    tile the rack lacks), and the rack tiles it takes."""
    if old.kind is Kind.RUN:
        colour = old.colour
        assert colour is not None
        below = _filled(colour, range(old.low - 1, 0, -1), real, jokers)
        above = _filled(colour, range(old.high + 1, rules.numbers + 1), real, jokers)
        for a, (down, down_jokers) in enumerate(below):
            for b, (up, up_jokers) in enumerate(above):
                if a + b == 0 or down_jokers + up_jokers > jokers:
                    continue
                tiles = (*reversed(down), *old.tiles, *up)
                stands = tuple(Tile(n, colour) for n in range(old.low - a, old.high + b + 1))
                yield TileSet(Kind.RUN, tiles, stands), (*down, *up)
        yield from _relaid(old, real, jokers, rules)
        return
    number = old.stands_for[0].number
    present = {t.colour for t in old.tiles if not t.is_joker}
    can = [Tile(number, c) for c in rules.colour_order if c not in present and real[Tile(number, c)]]
    for k in range(0, len(can) + 1):
        for added in combinations(can, k):
            for j in range(0, jokers + 1):
                if k + j == 0 or len(old) + k + j > rules.max_group:
                    continue
                more = (*added, *(JOKER,) * j)
                grown = _set((*old.tiles, *more), rules)
                if grown is not None:
                    yield grown, more


def _relaid(old: TileSet, real: Counter[Tile], jokers: int, rules: Rules) -> Iterator[tuple[TileSet, tuple[Tile, ...]]]:
    """A run holding a joker grown by rack tiles, its jokers standing for other numbers of the longer run
    (``J 5B 6B`` with 8B: ``5B 6B J 8B``): still one move, "put 8B on the run"."""
    colour = old.colour
    assert colour is not None
    numbers = {n.number for t, n in zip(old.tiles, old.stands_for, strict=True) if not t.is_joker}
    held = sum(1 for t in old.tiles if t.is_joker)
    if not held or not numbers:
        return
    for low in range(1, min(numbers) + 1):
        for high in range(max(numbers), rules.numbers + 1):
            missing = [n for n in range(low, high + 1) if n not in numbers]
            need = len(missing) - held  # numbers left once the run's own jokers stand somewhere
            on_rack = [n for n in missing if real[Tile(n, colour)]]
            use = min(len(on_rack), need)
            more_jokers = need - use
            if need <= 0 or more_jokers > jokers:
                continue
            laid = set(on_rack[:use])
            tiles = tuple(Tile(n, colour) if n in numbers or n in laid else JOKER for n in range(low, high + 1))
            stands = tuple(Tile(n, colour) for n in range(low, high + 1))
            yield TileSet(Kind.RUN, tiles, stands), (*(Tile(n, colour) for n in sorted(laid)), *(JOKER,) * more_jokers)


def _filled(colour: Colour, numbers: range, real: Counter[Tile], jokers: int) -> list[tuple[tuple[Tile, ...], int]]:
    """Growing a run one number at a time away from it: the tiles for the first 0, 1, 2, ... numbers (a joker
    where the rack lacks the tile) and the jokers they take, while the rack's jokers last."""
    out: list[tuple[tuple[Tile, ...], int]] = [((), 0)]
    tiles: list[Tile] = []
    used = 0
    for n in numbers:
        t = Tile(n, colour)
        if real[t]:
            tiles.append(t)
        else:
            used += 1
            if used > jokers:
                break
            tiles.append(JOKER)
        out.append((tuple(tiles), used))
    return out


def inserts(
    old: TileSet, real: Counter[Tile], jokers: int, rules: Rules
) -> Iterator[tuple[TileSet, TileSet, tuple[Tile, ...]]]:
    """A rack tile (or joker) put into run ``old`` where it has that number, splitting it into two valid runs:
    the lower half (with the rack's tile at its top), the upper, and the tile."""
    if old.kind is not Kind.RUN:
        return
    s = rules.smallest_set
    for k, (t, stands) in enumerate(zip(old.tiles, old.stands_for, strict=True)):
        if t.is_joker or k + 1 < s or len(old) - k < s:
            continue
        for put in ((stands,) if real[stands] else ()) + ((JOKER,) if jokers else ()):
            low = TileSet(Kind.RUN, (*old.tiles[:k], put), old.stands_for[: k + 1])
            high = TileSet(Kind.RUN, old.tiles[k:], old.stands_for[k:])
            yield low, high, (put,)


@dataclass(frozen=True, slots=True)
class _Give:
    """Tiles an old set can give to a new set and stay valid: ``tiles`` (standing for ``stands``), what is
    left of set ``source``."""

    source: int
    tiles: tuple[Tile, ...]
    stands: tuple[Tile, ...]
    left: TileSet


def gifts(table: Sequence[TileSet], rules: Rules) -> list[_Give]:
    """What each old set can give: a run its end blocks, a group one tile, each leaving a valid set (a joker
    too: the solver moves the table's jokers as freely)."""
    s = rules.smallest_set
    out: list[_Give] = []
    for i, old in enumerate(table):
        spare = len(old) - s
        if spare <= 0:
            continue
        if old.kind is Kind.RUN:
            for p in range(1, spare + 1):
                head, rest = old.tiles[:p], old.tiles[p:]
                out.append(_Give(i, head, old.stands_for[:p], TileSet(Kind.RUN, rest, old.stands_for[p:])))
                tail, keep = old.tiles[-p:], old.tiles[:-p]
                out.append(_Give(i, tail, old.stands_for[-p:], TileSet(Kind.RUN, keep, old.stands_for[:-p])))
        else:
            for k, t in enumerate(old.tiles):
                if t in old.tiles[:k]:
                    continue
                left = _set(old.tiles[:k] + old.tiles[k + 1 :], rules)
                if left is not None:
                    out.append(_Give(i, (t,), (t,), left))
    return out


def takes(table: Sequence[TileSet], real: Counter[Tile], jokers: int, rules: Rules) -> Iterator[Step]:
    """New sets of rack tiles and tiles taken from the table (at least one of each), the sets they leave valid."""
    given = gifts(table, rules)
    singles: dict[Tile, list[_Give]] = {}
    blocks: dict[Tile, list[_Give]] = {}  # by the tile the block stands for first (low to high)
    wild: list[_Give] = []  # a joker alone, which may stand for any tile of the new set
    for g in given:
        if g.tiles == (JOKER,):
            wild.append(g)
            continue
        if len(g.tiles) == 1:
            singles.setdefault(g.tiles[0], []).append(g)
        blocks.setdefault(g.stands[0], []).append(g)
    # groups: each colour from the rack, from one set that can give it, or absent; then jokers fill up
    for number in range(1, rules.numbers + 1):
        options: list[list[tuple[Tile | None, _Give | None]]] = []
        for c in rules.colour_order:
            t = Tile(number, c)
            here: list[tuple[Tile | None, _Give | None]] = [(None, None)]
            if real[t]:
                here.append((t, None))
            here.extend((None, g) for g in singles.get(t, ()))
            options.append(here)
        for pick in product(*options):
            from_rack = [t for t, _ in pick if t is not None]
            numbered = [g for _, g in pick if g is not None]
            if len(from_rack) + len(numbered) == 0:
                continue
            for k in range(0, len(wild) + 1):
                for more in combinations(wild, k):
                    gives = [*numbered, *more]
                    if not gives or len({g.source for g in gives}) < len(gives):
                        continue
                    size = len(from_rack) + len(gives)
                    for j in range(0, jokers + 1):
                        if (not from_rack and not j) or not rules.smallest_set <= size + j <= rules.max_group:
                            continue
                        group = _set((*from_rack, *(g.tiles[0] for g in gives), *(JOKER,) * j), rules)
                        if group is not None:
                            yield _taking((*from_rack, *(JOKER,) * j), gives, group)
    # runs: number by number, each from the rack, a joker (for a tile the rack lacks), or a block a set gives
    for colour in rules.colour_order:
        for low in range(1, rules.numbers + 1):
            yield from _Runs(colour, low, real, jokers, blocks, wild, rules).grow(low, (), (), 0, ())


@dataclass(frozen=True, slots=True)
class _Runs:
    """The runs of ``colour`` from ``low`` up that take tiles from the table: a depth-first walk, number by number."""

    colour: Colour
    low: int
    real: Counter[Tile]
    jokers: int
    blocks: dict[Tile, list[_Give]]
    wild: list[_Give]
    rules: Rules

    def grow(
        self, at: int, tiles: tuple[Tile, ...], rack: tuple[Tile, ...], jokers: int, gives: tuple[_Give, ...]
    ) -> Iterator[Step]:
        """The runs that go on from ``at`` (``tiles`` so far: ``rack`` from the rack, ``gives`` from the table)."""
        if len(tiles) >= self.rules.smallest_set and rack and gives:
            stands = tuple(Tile(n, self.colour) for n in range(self.low, at))
            yield _taking(rack, gives, TileSet(Kind.RUN, tiles, stands))
        if at > self.rules.numbers:
            return
        t = Tile(at, self.colour)
        if self.real[t]:
            yield from self.grow(at + 1, (*tiles, t), (*rack, t), jokers, gives)
        elif jokers < self.jokers:
            yield from self.grow(at + 1, (*tiles, JOKER), (*rack, JOKER), jokers + 1, gives)
        used = {g.source for g in gives}
        for g in self.wild:
            if g.source not in used:
                yield from self.grow(at + 1, (*tiles, JOKER), rack, jokers, (*gives, g))
        for g in self.blocks.get(t, ()):
            if g.source not in used and g.stands[0].colour is self.colour:
                yield from self.grow(g.stands[-1].number + 1, (*tiles, *g.tiles), rack, jokers, (*gives, g))


def _taking(rack: tuple[Tile, ...], gives: Sequence[_Give], made: TileSet) -> Step:
    return Step(rack, frozenset(g.source for g in gives), tuple((g.source, g.left) for g in gives), (made,))


def joker_swaps(table: Sequence[TileSet], real: Counter[Tile], jokers: int, rules: Rules) -> Iterator[Step]:
    """A rack tile in a joker's place, the joker laid with rack tiles as a new set or put on another set's end."""
    for i, old in enumerate(table):
        if not old.jokers:
            continue
        for put, after in _swapped(old, real, rules):
            rest = real.copy()
            rest[put] -= 1
            for s in rack_sets(rest, jokers + 1, rules):
                if s.jokers:
                    from_rack = (put, *(t for t in s.tiles if not t.is_joker), *(JOKER,) * (s.jokers - 1))
                    yield Step(from_rack, frozenset({i}), ((i, after),), (s,))
            for j, other in enumerate(table):
                if j == i:
                    continue
                for grown, added in grown_forms(other, Counter(), 1, rules):
                    if added == (JOKER,):
                        yield Step((put,), frozenset({i, j}), ((i, after), (j, grown)), ())


def _swapped(old: TileSet, real: Counter[Tile], rules: Rules) -> Iterator[tuple[Tile, TileSet]]:
    """A rack tile that can take the place of one of ``old``'s jokers, and the set then (one joker fewer)."""
    if old.kind is Kind.RUN:
        for k, (t, stands) in enumerate(zip(old.tiles, old.stands_for, strict=True)):
            if t.is_joker and real[stands]:
                yield stands, TileSet(Kind.RUN, (*old.tiles[:k], stands, *old.tiles[k + 1 :]), old.stands_for)
        return
    number = old.stands_for[0].number
    present = {t.colour for t in old.tiles if not t.is_joker}
    rest = list(old.tiles)
    rest.remove(JOKER)
    for c in rules.colour_order:
        t = Tile(number, c)
        if c not in present and real[t]:
            after = _set((*rest, t), rules)
            if after is not None:
                yield t, after


def _set(tiles: Sequence[Tile], rules: Rules) -> TileSet | None:
    try:
        return make_set(tiles, rules)
    except SetError:
        return None
