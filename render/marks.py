"""Which tiles of a play to highlight, and how: the meaning behind the colours of a picture."""

from __future__ import annotations

from enum import Enum

from render.wording import ENGLISH, Wording
from solver.solution import Origin, Solution


class Mark(Enum):
    """How a tile of the new table is drawn."""

    PLAIN = "plain"
    """It lay in this same set before the play (or it is a plain table picture)."""
    RACK = "rack"
    """The player puts it down from the rack: the whole point of the picture, so it stands out most."""
    MOVED = "moved"
    """It lay in another set of the old table and the player moves it here."""


def legend_words(wording: Wording = ENGLISH, *, seen_by_all: bool = False) -> dict[Mark, str]:
    """What the legend says for each highlight: to the player the play is for, or (``seen_by_all``) in a
    picture everyone reads (a group's, without a rack), where the tiles are someone's play."""
    return {
        Mark.RACK: wording.just_played if seen_by_all else wording.from_rack,
        Mark.MOVED: wording.moved,
        Mark.PLAIN: wording.unchanged,
    }


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


def summary(solution: Solution, wording: Wording = ENGLISH) -> str:
    """The header line: what the play puts down, or that there is none."""
    if not solution.has_play:
        return wording.no_play
    tiles = wording.count(wording.tiles, solution.tiles_placed)
    points = wording.count(wording.points, solution.points_placed)
    parts = [wording.play.format(tiles=tiles, points=points)]
    if solution.initial_meld:
        parts.append(wording.initial_meld)
    if not solution.optimal:
        parts.append(wording.best_in_time)
    return " · ".join(parts)
