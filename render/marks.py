"""Which tiles of a play to highlight, and how: the meaning behind the colours of a picture."""

from __future__ import annotations

from enum import Enum

from solver.solution import Origin, Solution


class Mark(Enum):
    """How a tile of the new table is drawn."""

    PLAIN = "plain"
    """It lay in this same set before the play (or it is a plain table picture)."""
    RACK = "rack"
    """The player puts it down from the rack: the whole point of the picture, so it stands out most."""
    MOVED = "moved"
    """It lay in another set of the old table and the player moves it here."""


#: What the legend says for each highlight, to the player the play is for.
LEGEND: dict[Mark, str] = {
    Mark.RACK: "from your rack",
    Mark.MOVED: "moved from another set",
    Mark.PLAIN: "unchanged",
}
#: The label of the half of a run split off by the play, drawn beside the half it split from.
SPLIT_FROM = "{label}, split from {home}"
#: What it says in a picture everyone reads (a group's, without a rack): the tiles are someone's play.
SEEN_BY_ALL: dict[Mark, str] = {**LEGEND, Mark.RACK: "just played"}


def mark_of(origin: Origin, kept_from: int | None) -> Mark:
    """A tile's mark: from the rack, moved from a set other than the one this set grew from, or plain."""
    if origin.old_set is None:
        return Mark.RACK
    if origin.old_set != kept_from:
        return Mark.MOVED
    return Mark.PLAIN


def marks_of(solution: Solution) -> list[list[Mark]]:
    """``marks_of(s)[i][j]`` is the mark of tile ``j`` of set ``i`` of the new table."""
    return [[mark_of(origin, solution.kept_from[i]) for origin in row] for i, row in enumerate(solution.origins)]


def summary(solution: Solution) -> str:
    """The header line: what the play puts down, or that there is none."""
    if not solution.has_play:
        return "No play: draw a tile"
    tiles = solution.tiles_placed
    points = solution.points_placed
    text = f"{tiles} tile{'s' if tiles != 1 else ''}, {points} point{'s' if points != 1 else ''}"
    if solution.initial_meld:
        text += " · initial meld"
    if not solution.optimal:
        text += " · best found in time"
    return text
