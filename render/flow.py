"""Greedy line filling: the one wrapping rule used for sets, rack tiles and legend items."""

from __future__ import annotations

from collections.abc import Sequence


def flow(widths: Sequence[int], available: int, gap: int) -> list[tuple[int, int]]:
    """Place items left to right, starting a new row when the next one does not fit.

    Returns ``(row, x)`` for each item, ``x`` measured from the row's left edge.
    Order is kept (set labels read left to right, top to bottom); an item wider
    than ``available`` gets a row of its own rather than being dropped.
    """
    placed: list[tuple[int, int]] = []
    row, x = 0, 0
    for w in widths:
        if x > 0 and x + w > available:
            row, x = row + 1, 0
        placed.append((row, x))
        x += w + gap
    return placed


def rows_of(placed: Sequence[tuple[int, int]]) -> int:
    """How many rows a flow result uses."""
    return placed[-1][0] + 1 if placed else 0


def chunks(count: int, per_row: int) -> list[range]:
    """Split ``count`` positions into consecutive runs of at most ``per_row`` (at least one each)."""
    per_row = max(1, per_row)
    return [range(start, min(count, start + per_row)) for start in range(0, count, per_row)]
