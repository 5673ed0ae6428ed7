"""The rules as a second reader: a line of tiles that is almost a valid set was probably misread.

For a line of tiles (in order along the table) and, for each tile, how likely
each of the 53 tiles is, find the most likely reading that cuts the line into
valid runs and groups. ``8B 9B 10B`` beside a red-faced tile read as ``1R``
becomes a joker; ``7R 8R 3R`` becomes ``7R 8R 9R`` when the reader gave 9R some
chance. A reading is only changed when its likelihood falls by less than
``DOUBT`` (natural log), so a clear misfit stays as read.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from solver.rules import Rules
from solver.sets import SetError, TileSet, make_set
from solver.tiles import JOKER, Tile

#: the largest fall in log likelihood that a correction may cost the line (e^8 ≈ 3000 times less likely)
DOUBT = 8.0
FLOOR = 1e-6


@dataclass(frozen=True, slots=True)
class LineReading:
    """The sets a line was read into, and which positions changed from the reader's first choice."""

    sets: tuple[TileSet, ...]
    tiles: tuple[Tile, ...]
    changed: tuple[int, ...]
    cost: float


def read_line(options: Sequence[Tile], likely: np.ndarray, rules: Rules) -> LineReading | None:
    """The most likely valid sets for a line (``likely``: one row per tile over ``options``), or None."""
    n = len(likely)
    logs = np.log(np.maximum(likely, FLOOR))
    first = [options[int(k)] for k in likely.argmax(axis=1)]
    base = float(logs.max(axis=1).sum())
    index = {t: k for k, t in enumerate(options)}
    best: list[tuple[float, list[tuple[int, int, list[Tile]]]] | None] = [None] * (n + 1)
    best[0] = (0.0, [])
    dense, joker = _dense(logs, index, rules)
    longest = max(rules.numbers, rules.max_group)  # no set is longer: the pieces to try stay few on long lines
    for end in range(rules.smallest_set, n + 1):
        for start in range(max(0, end - longest), end - rules.smallest_set + 1):
            before = best[start]
            if before is None:
                continue
            piece = _best_set(dense[start:end], joker[start:end], rules)
            if piece is None:
                continue
            score = before[0] + piece[0]
            current = best[end]
            if current is None or score > current[0]:
                best[end] = (score, [*before[1], (start, end, piece[1])])
    done = best[n]
    if done is None or base - done[0] > DOUBT:
        return None
    tiles = [t for _, _, piece in done[1] for t in piece]
    try:
        sets = tuple(make_set(piece, rules) for _, _, piece in done[1])
    except SetError:  # cannot happen for pieces built valid; kept so a reading never raises
        return None
    changed = tuple(i for i, (a, b) in enumerate(zip(first, tiles, strict=True)) if a != b)
    return LineReading(sets, tuple(tiles), changed, base - done[0])


def _best_set(dense: np.ndarray, joker: np.ndarray, rules: Rules) -> tuple[float, list[Tile]] | None:
    """The likeliest valid run or group for these tiles in this order.

    ``dense`` holds each tile's log likelihood of being each numbered tile
    (tile x colour x number) and ``joker`` of being a joker; every run (each
    colour, start and direction) and every group pattern is scored at once.
    """
    m, colours, numbers = dense.shape
    best: tuple[float, list[Tile]] | None = None
    starts = numbers - m + 1
    if starts > 0:
        at = np.arange(m)
        for step in (1, -1):
            wanted = np.arange(starts)[:, None] + (at if step == 1 else m - 1 - at)[None, :]  # start x position
            own = dense.transpose(0, 2, 1)[at[None, :], wanted]  # start x position x colour
            jokers = joker[None, :, None] > own
            score = np.maximum(own, joker[None, :, None]).sum(axis=1)
            count = jokers.sum(axis=1)
            score = np.where((count <= rules.jokers) & (count < m), score, -math.inf)
            s, c = np.unravel_index(int(score.argmax()), score.shape)
            if score[s, c] > -math.inf and (best is None or score[s, c] > best[0]):
                colour = rules.colour_order[int(c)]
                tiles = [JOKER if jokers[s, i, c] else Tile(int(wanted[s, i]) + 1, colour) for i in range(m)]
                best = (float(score[s, c]), tiles)
    patterns = _group_patterns(m, colours, rules.jokers)
    if len(patterns):
        with_joker = np.concatenate([dense, np.repeat(joker[:, None, None], numbers, axis=2)], axis=1)
        by_number = with_joker.transpose(2, 0, 1)  # number x position x (colours + joker)
        score = by_number[:, np.arange(m)[None, :], patterns].sum(axis=2)  # number x pattern
        v, k = np.unravel_index(int(score.argmax()), score.shape)
        if score[v, k] > -math.inf and (best is None or score[v, k] > best[0]):
            tiles = [JOKER if c == colours else Tile(int(v) + 1, rules.colour_order[c]) for c in patterns[k].tolist()]
            best = (float(score[v, k]), tiles)
    return best


@cache
def _group_patterns(m: int, colours: int, jokers: int) -> np.ndarray:
    """Every way to give m places distinct colours or a joker (index ``colours``), at most ``jokers`` of them."""
    if m > colours:  # a group holds at most one tile of each colour, jokers included
        return np.zeros((0, m), np.intp)
    found = [
        pick
        for pick in itertools.product(range(colours + 1), repeat=m)
        if len({c for c in pick if c < colours}) == sum(1 for c in pick if c < colours) >= 1
        and sum(1 for c in pick if c == colours) <= jokers
    ]
    return np.array(found, dtype=np.intp).reshape(len(found), m)


def _dense(logs: np.ndarray, index: dict[Tile, int], rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Log likelihoods laid out as tile x colour x number (-inf for tiles outside the rules), and of the joker."""
    n = len(logs)
    dense = np.full((n, rules.colours, rules.numbers), -math.inf)
    for c, colour in enumerate(rules.colour_order):
        for number in range(1, rules.numbers + 1):
            k = index.get(Tile(number, colour))
            if k is not None:
                dense[:, c, number - 1] = logs[:, k]
    k = index.get(JOKER)
    joker = logs[:, k] if k is not None and rules.jokers else np.full(n, -math.inf)
    return dense, joker
