"""Laying a table photo out into lines of tiles: the tiles of a set lie side by side, sets lie apart.

Two tiles are neighbours when their centres are closer than about one and a
third tile widths (tiles of a set touch or nearly; the next set, or the row
above, is further). A group of neighbours that lies along one line is a
candidate set, its tiles in order along the line; anything else (a heap, a
lone tile) is loose.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: neighbours: centres closer than this many tile widths
REACH = 1.3
#: a line: the tiles' centres stray from it by less than this share of a tile width
STRAY = 0.45


@dataclass(frozen=True, slots=True)
class Place:
    """Where a tile lies: its centre and its box's width and height, in photo pixels."""

    x: float
    y: float
    width: float
    height: float

    @property
    def side(self) -> float:
        """The tile's width: the shorter side of its box (tiles stand taller than wide)."""
        return min(self.width, self.height)


def lines(places: Sequence[Place]) -> tuple[list[list[int]], list[int]]:
    """(the candidate sets, each a list of indices in order along its line; the loose tiles' indices)."""
    n = len(places)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            a, b = places[i], places[j]
            if math.hypot(a.x - b.x, a.y - b.y) < REACH * (a.side + b.side) / 2:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    found: list[list[int]] = []
    loose: list[int] = []
    for members in groups.values():
        ordered = along_line(places, members)
        if len(members) >= 2 and ordered is not None:
            found.append(ordered)
        else:
            loose.extend(members)
    found.sort(key=lambda m: (min(places[i].y for i in m), min(places[i].x for i in m)))
    return found, sorted(loose, key=lambda i: (places[i].y, places[i].x))


def along_line(places: Sequence[Place], members: list[int]) -> list[int] | None:
    """The tiles in order along their line (left to right, or top to bottom when upright), or None if not a line."""
    if len(members) == 1:
        return members
    pts = np.array([[places[i].x, places[i].y] for i in members])
    centred = pts - pts.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    axis = vt[0]
    leading = 0 if abs(axis[0]) >= abs(axis[1]) else 1  # mostly across: left to right; mostly up: top down
    axis = axis if axis[leading] > 0 else -axis
    normal = np.array([-axis[1], axis[0]])
    width = float(np.median([places[i].side for i in members]))
    if np.abs(centred @ normal).max() > STRAY * width:
        return None
    order = np.argsort(centred @ axis)
    return [members[int(k)] for k in order]
