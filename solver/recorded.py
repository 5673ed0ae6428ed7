"""A play made at the table (not one the solver suggested), traced as the solver traces its own answers.

Pictures, points and kept sets of a recorded play must agree with those of a suggested one, so a recorded
play becomes a ``Solution`` through the same tracing (``trace_origins``) and the same definition of a kept
set: an old set is kept when one new set holds every tile it held, jokers included (the same set, or one
it only grew into). Each old set goes with at most one new set. A play whose tracing is already known (a
typed play read tile by tile, a suggestion played) keeps it (``traced_play``).
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.layout import trace_origins
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Objective, Origin, Solution, table_points


def recorded_play(before: Sequence[TileSet], after: Sequence[TileSet], rules: Rules) -> Solution:
    """The play that turned the table ``before`` into ``after`` (every old tile still there), as a solution."""
    kept_from = _kept_from(before, after)
    origins = [tuple(row) for row in trace_origins(before, after, kept_from)]
    return traced_play(before, after, origins, kept_from, rules)


def traced_play(
    before: Sequence[TileSet],
    after: Sequence[TileSet],
    origins: Sequence[Sequence[Origin]],
    kept_from: Sequence[int | None],
    rules: Rules,
) -> Solution:
    """The play from ``before`` to ``after`` as a solution, where each tile came from already known (a play read
    as typed knows it): ``origins`` per tile of each new set, ``kept_from`` per new set."""
    placed = [
        t for s, row in zip(after, origins, strict=True) for t, o in zip(s.tiles, row, strict=True) if o.from_rack
    ]
    kept = sum(1 for i, old in enumerate(before) if i in kept_from and _holds(after[list(kept_from).index(i)], old))
    return Solution(
        rules=rules,
        objective=Objective.TILES,
        initial_meld=False,
        table_before=tuple(before),
        table=tuple(after),
        origins=tuple(tuple(row) for row in origins),
        kept_from=tuple(kept_from),
        placed=tuple(sorted(placed, key=rules.tile_key)),
        rack_left=(),
        points_placed=table_points(after, placed, origins, kept_from),
        kept_sets=kept,
        optimal=True,
        solve_ms=0.0,
    )


def _holds(new: TileSet, old: TileSet) -> bool:
    return not old.counts() - new.counts()


def _kept_from(before: Sequence[TileSet], after: Sequence[TileSet]) -> list[int | None]:
    """For each new set, the old set it came from, one-to-one: first the old sets it holds whole (an equal set
    before a grown one), then the old set it shares most tiles with among those left."""
    out: list[int | None] = [None] * len(after)
    free = set(range(len(before)))
    pairs = [(j, i) for j in range(len(after)) for i in range(len(before)) if _holds(after[j], before[i])]
    whole = sorted((len(after[j]) - len(before[i]), i, j) for j, i in pairs)
    for _grown, i, j in whole:
        if i in free and out[j] is None:
            out[j], free = i, free - {i}
    for j, s in enumerate(after):
        if out[j] is not None or not free:
            continue
        shares = {i: sum((s.counts() & before[i].counts()).values()) for i in free}
        best = max(sorted(shares), key=lambda i: shares[i])
        if shares[best] > 0:
            out[j], free = best, free - {best}
    return out


__all__ = ["recorded_play", "traced_play"]
