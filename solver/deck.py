"""Counting tiles against the deck: nobody holds a third 5R or a third joker."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from solver.errors import RummikubError
from solver.rules import Rules
from solver.tiles import Tile


class DeckError(RummikubError):
    """More of a tile than the deck holds."""


def check_deck(rules: Rules, *parts: Iterable[Tile]) -> Counter[Tile]:
    """Count the tiles of all ``parts`` together and check each against the deck."""
    total: Counter[Tile] = Counter()
    for part in parts:
        total.update(part)
    for t in sorted(total, key=rules.tile_key):
        have, deck = total[t], rules.copies_of(t)
        if have > deck:
            if t.is_joker:
                what = "joker" if have == 1 else "jokers"
            else:
                what = f"copy of {t}" if have == 1 else f"copies of {t}"
            raise DeckError(f"{have} {what} in all, but the deck has {f'only {deck}' if deck else 'none'}")
    return total
