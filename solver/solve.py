"""Find the best play: the most rack tiles (or points) onto the table, the table disturbed least.

Columns are set shapes (see ``candidates``) and the grown forms of the old sets
(see ``kept``); a joker is a column of its own per tile it may stand for. The
objective is one weighted sum, weighted so each goal strictly outranks the
next: tiles (or points) placed, then old sets kept (see ``kept``), then points
(or tiles) as a tie-break. Points are what the rack's tiles count on the table
(``solver.solution.table_points``): each number tile its number, and each joker
from the rack the tile it stands for, as in the initial meld (jokers are alike,
so the rack's jokers are counted as the highest tiles the jokers stand for
outside the old sets kept with their own jokers; a joker's ``joker_value`` is
only what it costs left on a rack at the end, when the game is scored). Remaining ties are broken by SCIP's
deterministic search over a model built in a fixed order.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.bounds import OutOfTime
from solver.candidates import Shape, available, tile_rows
from solver.deck import check_deck
from solver.errors import RummikubError
from solver.kept import check_size, variants
from solver.layout import lay_out, place_jokers
from solver.model import Program, solve_program
from solver.rules import Rules
from solver.sets import Kind, TileSet, tiles_of
from solver.solution import Objective, Solution
from solver.text import N_
from solver.tiles import JOKER, Tile

DEFAULT_TIME_LIMIT = 5.0


class NoArrangement(RummikubError):
    """Tiles that cannot all be laid in valid sets."""


def solve(
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    rules: Rules,
    *,
    objective: Objective = Objective.TILES,
    initial_meld: bool = False,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Solution:
    """The best play of ``rack`` onto ``table`` under ``rules``.

    Raises ``DeckError`` when rack and table together hold more of a tile than
    the deck has, and ``TooBigError`` for a table whose sets grow in more ways
    than the solver works through (see ``bounds``). The table's sets must
    already be valid (``make_set``). ``time_limit`` covers building the model
    too: when it runs out first, the answer is no play, not proven best.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    on_table = tiles_of(table)
    check_deck(rules, rack, on_table.elements())
    if not initial_meld:
        check_size(table, rules)
    rack_count = Counter(rack)
    table_count = Counter() if initial_meld else on_table
    pool = {t.id: n for t, n in (rack_count + table_count).items()}
    try:
        columns: list[tuple[int | None, Shape]] = [(None, s) for s in available(rules, pool, deadline)]
        if not initial_meld:
            for i, old in enumerate(table):
                columns.extend((i, v) for v in variants(old, rules, pool, deadline))
    except OutOfTime:
        return lay_out(
            rules=rules,
            rack=rack,
            table=table,
            chosen=list(enumerate(table)),
            objective=objective,
            initial_meld=initial_meld,
            optimal=False,
            solve_ms=(time.perf_counter() - started) * 1000,
        )
    build = _Builder(rules, rack_count, table_count, columns, objective, [len(s) for s in table])
    if initial_meld:
        build.meld(rules.initial_meld)
    else:
        build.start_from(table)
    outcome = solve_program(build.program, _left(time_limit, started))
    chosen = build.chosen(outcome.counts, table) if outcome.feasible else []
    if initial_meld or not outcome.feasible:
        chosen = [(i, s) for i, s in enumerate(table)] + chosen
    return lay_out(
        rules=rules,
        rack=rack,
        table=table,
        chosen=chosen,
        objective=objective,
        initial_meld=initial_meld,
        optimal=outcome.optimal,
        solve_ms=(time.perf_counter() - started) * 1000,
    )


def arrange(tiles: Sequence[Tile], rules: Rules, *, time_limit: float = DEFAULT_TIME_LIMIT) -> list[TileSet]:
    """Lay a loose list of table tiles out as valid sets, or raise ``NoArrangement``."""
    started = time.perf_counter()
    check_deck(rules, tiles)
    count = Counter(tiles)
    pool = {t.id: n for t, n in count.items()}
    try:
        shapes = available(rules, pool, started + time_limit)
    except OutOfTime:
        raise NoArrangement(N_("these table tiles do not make a table: no arrangement found in time")) from None
    build = _Builder(rules, Counter(), count, [(None, s) for s in shapes], Objective.TILES)
    outcome = solve_program(build.program, _left(time_limit, started))
    if not outcome.feasible:
        if outcome.optimal:
            raise NoArrangement(
                N_("these table tiles do not make a table: there is no way to lay all of them in valid sets")
            )
        raise NoArrangement(N_("these table tiles do not make a table: no arrangement found in time"))
    sets = [s for _, s in build.chosen(outcome.counts, ())]
    return sorted(sets, key=lambda s: (s.kind is Kind.GROUP, rules.tile_key(s.stands_for[0]), len(s)))


def _most_value(rules: Rules, tiles: Counter[Tile]) -> int:
    """At most what these tiles count laid on a table (each joker as the highest number)."""
    return sum(t.number * n for t, n in tiles.items() if not t.is_joker) + tiles[JOKER] * rules.numbers


def _left(time_limit: float, started: float) -> float:
    """What is left of the time limit for SCIP: building the model counts too (SCIP needs a moment to start)."""
    return max(0.001, time_limit - (time.perf_counter() - started))


@dataclass
class _Builder:
    """Builds the program for one position and reads its answer back."""

    rules: Rules
    rack: Counter[Tile]
    table: Counter[Tile]
    shapes: list[tuple[int | None, Shape]]
    objective: Objective
    old_sizes: Sequence[int] = ()

    def __post_init__(self) -> None:
        rules, rack, table = self.rules, self.rack, self.table
        # Each goal outranks the next: one unit of a goal weighs more than the whole range of the goals below.
        # (The ranges are this position's, so the weights stay small and SCIP's arithmetic exact.) The last
        # goal only lays a joker the usual way: standing for the higher number where both are as good.
        third_range = _most_value(rules, rack + table) if self.objective is Objective.TILES else rack.total()
        self.w_third = (rack[JOKER] + table[JOKER]) * rules.numbers + 1
        self.w_kept = self.w_third * (third_range + 1)
        self.w_first = self.w_kept * (len(self.old_sizes) + 1)
        # a row for every tile of the deck (row k is the k-th of Rules.tiles(), as Shape.rows says)
        tiles = list(tile_rows(rules))
        program = Program()
        for t in tiles:
            program.row(table[t], table[t] + rack[t])
        jokers = rack[JOKER] + table[JOKER]
        joker_row = program.row(table[JOKER], jokers) if jokers else None
        # The rack's jokers count as the tiles they stand for; jokers are alike, so as many jokers as came from
        # the rack are credited, at the highest tiles the jokers stand for outside the old sets kept with their
        # own jokers (those are the table's). ``credit_row`` keeps the credits equal to the jokers the play puts
        # down: credited - used = -(the table's jokers).
        credit_row = program.row(-table[JOKER], -table[JOKER]) if rack[JOKER] else None
        kept_rows: dict[int, int] = {}
        for origin, shape in self.shapes:
            rows = dict(shape.rows)
            if shape.jokers:
                assert joker_row is not None, "a form with jokers comes from a table that has them"
                rows[joker_row] = shape.jokers
                if credit_row is not None:
                    rows[credit_row] = -shape.jokers
            if origin is not None:
                if origin not in kept_rows:
                    kept_rows[origin] = program.row(None, 1)
                rows[kept_rows[origin]] = 1
            program.column(rows, self._weight(shape, origin), None)
        self.program = program
        # a joker standing in for tile t: one less t needed, one more joker used; it counts nothing (a joker on
        # the table is no point of the play) unless credited as the rack's below. The last goal lays it the
        # usual way: standing for the higher number where both are as good.
        self.joker_columns: dict[Tile, int] = {}
        if joker_row is not None:
            for k, t in enumerate(tiles):
                rows = {k: -1, joker_row: 1}
                if credit_row is not None:
                    rows[credit_row] = -1
                self.joker_columns[t] = program.column(rows, float(t.number - self._points * t.number), jokers)
        if credit_row is not None:
            for t, column in self.joker_columns.items():
                link = program.row(None, 0)  # credited at t no more often than a joker stands for t
                program.columns[column].rows[link] = -1
                program.column({credit_row: 1, link: 1}, float(self._points * t.number), rack[JOKER])

    @property
    def _points(self) -> int:
        """The weight of one point: the first goal's (most points) or the third's (most tiles)."""
        return self.w_third if self.objective is Objective.TILES else self.w_first

    def _weight(self, shape: Shape, origin: int | None) -> float:
        """The points a shape's number tiles count on the table, and its tiles, in goal order (its own jokers, a
        kept form's, count only when credited as the rack's)."""
        if self.objective is Objective.TILES:
            first, second = shape.size, shape.face
        else:
            first, second = shape.face, shape.size
        return float(self.w_first * first + (0 if origin is None else self.w_kept) + self.w_third * second)

    def meld(self, threshold: int) -> None:
        """The opening: the new sets together are worth at least ``threshold``, each joker as its tile."""
        r = self.program.row(threshold, None)
        for (_, shape), column in zip(self.shapes, self.program.columns, strict=False):
            column.rows[r] = shape.value

    def start_from(self, table: Sequence[TileSet]) -> None:
        """The table as it lies is always a valid answer: hand it to SCIP as a start."""
        start = [0] * len(self.program.columns)
        seen: set[int] = set()
        for k, (origin, _) in enumerate(self.shapes):
            if origin is not None and origin not in seen:
                seen.add(origin)
                start[k] = 1  # an old set's first form is the set as it lies, its jokers with it
        self.program.start = start

    def chosen(self, counts: list[int], table: Sequence[TileSet]) -> list[tuple[int | None, TileSet]]:
        picked = [(origin, shape) for (origin, shape), n in zip(self.shapes, counts, strict=False) for _ in range(n)]
        jokers = Counter({t: counts[k] for t, k in self.joker_columns.items() if counts[k]})
        return place_jokers(picked, jokers, table)
