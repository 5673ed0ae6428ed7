"""Hand-made plays to look at, test and benchmark pictures with, without running the solver."""

from __future__ import annotations

from collections.abc import Sequence

from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Objective, Origin, Solution
from solver.tiles import Tile

#: Every tile of the standard deck (106) laid out as valid sets.
FULL_DECK_TABLE = "1-13R | 1-13B | 1-13K | 1-13O | 1-12R | 1-12B | 1-12K | 1-12O | 13R 13B J | 13K 13O J"


def solution(
    before: Sequence[TileSet],
    after: Sequence[TileSet],
    origins: Sequence[Sequence[int | None]],
    kept_from: Sequence[int | None],
    rack_left: Sequence[Tile],
    rules: Rules = STANDARD,
    initial_meld: bool = False,
) -> Solution:
    """A Solution built by hand: ``origins[i][j]`` is the old set index of a tile, None for the rack."""
    placed = tuple(
        t for s, row in zip(after, origins, strict=True) for t, o in zip(s.tiles, row, strict=True) if o is None
    )
    points = sum(
        stands.number
        for s, row in zip(after, origins, strict=True)
        for stands, o in zip(s.stands_for, row, strict=True)
        if o is None
    )
    return Solution(
        rules=rules,
        objective=Objective.TILES,
        initial_meld=initial_meld,
        table_before=tuple(before),
        table=tuple(after),
        origins=tuple(tuple(Origin(o) for o in row) for row in origins),
        kept_from=tuple(kept_from),
        placed=placed,
        rack_left=tuple(rack_left),
        points_placed=points,
        kept_sets=sum(1 for k in kept_from if k is not None),
        optimal=True,
        solve_ms=1.0,
    )


def small_play() -> Solution:
    """Three old sets; the play extends two, takes 12B for a new run with a joker, and lays 1-3K."""
    r = STANDARD
    before = parse_table("3-5R | 8R 8B 8K | 9-12B", r)
    after = parse_table("3-6R | 8R 8B 8K 8O | 9-11B | J 12B 13B | 1-3K", r)
    origins: list[list[int | None]] = [
        [0, 0, 0, None],
        [1, 1, 1, None],
        [2, 2, 2],
        [None, 2, None],
        [None, None, None],
    ]
    return solution(before, after, origins, [0, 1, 2, None, None], parse_tiles("2R 5O 10K 12O", r))


def no_play() -> Solution:
    """Nothing fits: the table stays as it was and the rack is shown."""
    r = STANDARD
    table = parse_table("3-5R | 8R 8B 8K", r)
    return solution(table, table, [[0, 0, 0], [1, 1, 1]], [0, 1], parse_tiles("1B 7O 11K 13R J", r))


def full_deck_play() -> Solution:
    """The largest table: all 106 tiles, the last two sets laid from the rack, one tile moved."""
    r = STANDARD
    after = parse_table(FULL_DECK_TABLE, r)
    before = after[:-2]
    origins: list[list[int | None]] = [[i] * len(s) for i, s in enumerate(before)]
    origins.append([None, None, None])
    origins.append([None, 0, None])
    kept: list[int | None] = [*range(len(before)), None, None]
    return solution(before, after, origins, kept, ())
