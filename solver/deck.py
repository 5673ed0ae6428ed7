"""Counting tiles against the deck: nobody holds a third 5R or a third joker."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from solver.errors import RummikubError
from solver.rules import Rules
from solver.text import Text, counted
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
            raise DeckError(_too_many(t, have, deck))
    return total


def _too_many(t: Tile, have: int, deck: int) -> Text:
    if t.is_joker and deck:
        return counted(
            "{n} joker in all, but the deck has only {deck}",
            "{n} jokers in all, but the deck has only {deck}",
            have,
            deck=deck,
        )
    if t.is_joker:
        return counted("{n} joker in all, but the deck has none", "{n} jokers in all, but the deck has none", have)
    if deck:
        return counted(
            "{n} copy of {tile} in all, but the deck has only {deck}",
            "{n} copies of {tile} in all, but the deck has only {deck}",
            have,
            tile=t,
            deck=deck,
        )
    return counted(
        "{n} copy of {tile} in all, but the deck has none",
        "{n} copies of {tile} in all, but the deck has none",
        have,
        tile=t,
    )
