"""Where every tile of a new table came from: the one tracing behind a play's picture, numbers and points.

A play's picture marks the tiles from the rack, the tiles moved from another set, and a run split in two;
its numbers say which set continues which. A reading of a typed play knows where each tile came from (the
player said so, or was asked), and a solver's suggestion knows it too: that is kept as the play's trace. A
table typed whole says nothing of it, and is traced as the solver traces its own answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.recorded import recorded_play
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Origin


@dataclass(frozen=True, slots=True)
class Trace:
    """Beside a new table: ``kept_from[j]``, the old set the new set ``j`` continues (None: a new set), and
    ``origins[j][k]``, where its tile ``k`` lay (an old set, or the rack)."""

    kept_from: tuple[int | None, ...]
    origins: tuple[tuple[Origin, ...], ...]

    def permuted(self, order: Sequence[int]) -> Trace:
        """The trace of the same table with its sets in ``order`` (positions of the old order)."""
        return Trace(tuple(self.kept_from[j] for j in order), tuple(self.origins[j] for j in order))

    def fits(self, table: Sequence[TileSet]) -> bool:
        return len(self.kept_from) == len(table) and all(
            len(row) == len(s) for row, s in zip(self.origins, table, strict=True)
        )


def traced(before: Sequence[TileSet], after: Sequence[TileSet], rules: Rules) -> Trace:
    """The trace of a table typed whole: old sets held whole continue first, the rest as the solver traces."""
    play = recorded_play(before, after, rules)
    return Trace(play.kept_from, play.origins)
