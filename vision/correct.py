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
    for end in range(rules.smallest_set, n + 1):
        for start in range(0, end - rules.smallest_set + 1):
            before = best[start]
            if before is None:
                continue
            piece = _best_set(logs[start:end], index, rules)
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


def _best_set(logs: np.ndarray, index: dict[Tile, int], rules: Rules) -> tuple[float, list[Tile]] | None:
    """The likeliest valid run or group for these tiles in this order."""
    n = len(logs)
    joker = index.get(JOKER)
    joker_log = logs[:, joker] if joker is not None and rules.jokers else np.full(n, -math.inf)
    best: tuple[float, list[Tile]] | None = None
    for colour in rules.colour_order:  # runs, low to high either way along the line
        for start in range(1, rules.numbers - n + 2):
            for step in (1, -1):
                numbers = [start + i for i in range(n)] if step == 1 else [start + n - 1 - i for i in range(n)]
                score, tiles, jokers = 0.0, [], 0
                for i, number in enumerate(numbers):
                    k = index.get(Tile(number, colour))
                    own = logs[i, k] if k is not None else -math.inf
                    if joker_log[i] > own:
                        score += joker_log[i]
                        tiles.append(JOKER)
                        jokers += 1
                    else:
                        score += own
                        tiles.append(Tile(number, colour))
                if jokers < n and jokers <= rules.jokers and (best is None or score > best[0]):
                    best = (score, tiles)
    if n <= rules.max_group:
        for number in _numbers_in_mind(logs, index):  # groups: distinct colours, or jokers
            choices: list[Tile | None] = [*[Tile(number, c) for c in rules.colour_order], None]
            for pick in itertools.product(choices, repeat=n):
                real = [t for t in pick if t is not None]
                if not real or len(set(real)) != len(real) or n - len(real) > rules.jokers:
                    continue
                score = sum(
                    float(joker_log[i]) if t is None else float(logs[i, index[t]]) if t in index else -math.inf
                    for i, t in enumerate(pick)
                )
                if best is None or score > best[0]:
                    best = (score, [JOKER if t is None else t for t in pick])
    if best is None or best[0] == -math.inf:
        return None
    return best


def _numbers_in_mind(logs: np.ndarray, index: dict[Tile, int]) -> list[int]:
    """The numbers among each tile's three likeliest readings: a group of any other number is out of reach."""
    named = {k: t for t, k in index.items()}
    top = np.argsort(-logs, axis=1)[:, :3]
    return sorted({named[int(k)].number for k in top.reshape(-1) if int(k) in named and not named[int(k)].is_joker})
