"""Deals: the real deck shuffled, a rack for each seat and the pool in the order it is drawn; and the line-ups
that seat the same deal round the table (mirrored deals).

A deal is the same whoever sits where: seat ``k`` is dealt ``racks[k]`` and the draws come off the front of
``pool``. A deal is played once per seat, the policy under test in that seat and the baseline in the others
(two players: the mirrored pair, the seats swapped), so neither the deal nor the first move favours it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.rules import Rules
from solver.tiles import JOKER, Tile


def deck(rules: Rules) -> list[Tile]:
    """Every tile of the game, each copy (jokers last)."""
    return [t for t in rules.tiles() for _ in range(rules.copies)] + [JOKER] * rules.jokers


@dataclass(frozen=True, slots=True)
class Deal:
    """The racks as dealt (seat by seat) and the pool, drawn from its front."""

    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]

    @property
    def players(self) -> int:
        return len(self.racks)


def deal_seed(seed: int, number: int) -> int:
    """The seed of deal ``number`` of a run seeded ``seed``: each deal stands alone (a run split over processes
    deals the same games)."""
    return (seed * 1_000_003 + number) * 7919 + 17


def deal(rules: Rules, players: int, seed: int) -> Deal:
    """Shuffle the deck (``random.Random(seed)``) and deal ``rules.deal`` tiles to each of ``players`` seats."""
    tiles = deck(rules)
    random.Random(seed).shuffle(tiles)
    size = rules.deal
    if players * size > len(tiles):
        raise ValueError(f"{players} racks of {size} need more than the deck's {len(tiles)} tiles")
    racks = tuple(tuple(tiles[k * size : (k + 1) * size]) for k in range(players))
    return Deal(racks, tuple(tiles[players * size :]))


def lineups(players: int, baseline: str, tested: str) -> list[tuple[str, ...]]:
    """The seatings of one deal: ``tested`` in each seat in turn, ``baseline`` in the others."""
    return [tuple(tested if seat == k else baseline for seat in range(players)) for k in range(players)]
