"""What the solver answers: the new table, where each of its tiles came from, and the figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from solver.rules import Rules
from solver.sets import TileSet
from solver.tiles import Tile


class Objective(Enum):
    """What a play maximises first."""

    TILES = "tiles"
    POINTS = "points"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a tile of the new table lay before the play.

    ``old_set`` is the 0-based position of the old table set it came from, or
    None for a tile from the rack.
    """

    old_set: int | None

    @property
    def from_rack(self) -> bool:
        return self.old_set is None


@dataclass(frozen=True, slots=True)
class Solution:
    """A play and the table after it.

    ``table`` lists the sets after the play: first every old set that is still
    there or only grew (in its old order, a split run as its two halves), then
    the new sets. ``kept_from[i]`` is the old position the set ``table[i]``
    grew from (None for a new set); ``origins[i][j]`` says where the tile
    ``table[i].tiles[j]`` lay before.
    """

    rules: Rules
    objective: Objective
    initial_meld: bool
    table_before: tuple[TileSet, ...]
    table: tuple[TileSet, ...]
    origins: tuple[tuple[Origin, ...], ...]
    kept_from: tuple[int | None, ...]
    placed: tuple[Tile, ...]
    rack_left: tuple[Tile, ...]
    #: what the tiles from the rack count on the table (``table_points``)
    points_placed: int
    kept_sets: int
    optimal: bool
    solve_ms: float

    @property
    def tiles_placed(self) -> int:
        return len(self.placed)

    @property
    def has_play(self) -> bool:
        return bool(self.placed)

    def to_json(self) -> dict[str, Any]:
        """The machine-readable answer (the schema in the README)."""
        return {
            "tiles_placed": self.tiles_placed,
            "points_placed": self.points_placed,
            "placed": [str(t) for t in self.placed],
            "table": [[str(t) for t in s.tiles] for s in self.table],
            "rack_left": [str(t) for t in self.rack_left],
            "optimal": self.optimal,
            "kept_sets": self.kept_sets,
            "solve_ms": round(self.solve_ms, 3),
            "objective": self.objective.value,
            "initial_meld": self.initial_meld,
            "from_rack": [[o.from_rack for o in row] for row in self.origins],
            "kept_from": list(self.kept_from),
        }


def table_points(
    after: Sequence[TileSet],
    placed: Sequence[Tile],
    origins: Sequence[Sequence[Origin]],
    kept_from: Sequence[int | None],
) -> int:
    """What the tiles a play put down count on the table: each number tile its number, and each joker from the
    rack the tile it stands for (as in the initial meld; a joker's 30 is only what it costs left on a rack at
    the end). Jokers are alike: as many jokers as came from the rack count, at the highest tiles the jokers
    stand for outside the old sets kept with their own jokers (those stay the table's)."""
    jokers = sum(1 for t in placed if t.is_joker)
    stand = sorted(
        (
            f.number
            for s, row, home in zip(after, origins, kept_from, strict=True)
            for t, f, o in zip(s.tiles, s.stands_for, row, strict=True)
            if t.is_joker and (o.old_set is None or o.old_set != home)
        ),
        reverse=True,
    )
    return sum(t.number for t in placed if not t.is_joker) + sum(stand[:jokers])
