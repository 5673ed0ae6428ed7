"""The rules of a game: the variant that everything else takes as a parameter.

Nothing in the engine hard-codes 13 numbers, 4 colours or 2 copies; a game may
change any of them (a smaller family deck, no jokers, a 25-point opening).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from solver.errors import RummikubError
from solver.text import N_
from solver.tiles import JOKER, PALETTE, Colour, Tile

#: the smallest and largest value of each numeric rule
LIMITS: dict[str, tuple[int, int]] = {
    "numbers": (1, 99),
    "colours": (1, len(PALETTE)),
    "copies": (1, 9),
    "jokers": (0, 9),
    "smallest_set": (2, 13),
    "initial_meld": (0, 999),
    "joker_value": (0, 999),
    "deal": (1, 99),
}


class RulesError(RummikubError):
    """A rules variant that cannot be played."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A rules variant. The defaults are the boxed game."""

    numbers: int = 13
    colours: int = 4
    copies: int = 2
    jokers: int = 2
    smallest_set: int = 3
    initial_meld: int = 30
    #: what a joker left on a rack costs at the end, so also what putting one down is worth (most points)
    joker_value: int = 30
    #: the tiles each player takes from the pool as the game begins (or as they sit down later)
    deal: int = 14
    palette: tuple[Colour, ...] = field(default=PALETTE, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RulesError(
                    N_("{name}={value}: must be a whole number from {low} to {high}"),
                    name=name,
                    value=repr(value),
                    low=low,
                    high=high,
                )
        if self.jokers >= self.smallest_set:
            raise RulesError(
                N_(
                    "jokers={jokers}: a set must hold a numbered tile, so there must be fewer jokers "
                    "than the smallest set ({smallest})"
                ),
                jokers=self.jokers,
                smallest=self.smallest_set,
            )
        if self.smallest_set > max(self.numbers, self.colours + self.jokers):
            raise RulesError(
                N_(
                    "smallest_set={smallest}: no run or group can be that long "
                    "with {numbers} numbers and {colours} colours"
                ),
                smallest=self.smallest_set,
                numbers=self.numbers,
                colours=self.colours,
            )

    @property
    def colour_order(self) -> tuple[Colour, ...]:
        """The colours in play, in the order groups are shown in."""
        return self.palette[: self.colours]

    @property
    def max_group(self) -> int:
        """A group holds at most one tile of each colour."""
        return self.colours

    def tiles(self) -> list[Tile]:
        """Every distinct numbered tile of the deck, colour by colour, low to high."""
        return [Tile(n, c) for c in self.colour_order for n in range(1, self.numbers + 1)]

    def copies_of(self, t: Tile) -> int:
        """How many of this tile the deck holds (0 for a tile outside the variant)."""
        if t.is_joker:
            return self.jokers
        if t.colour in self.colour_order and 1 <= t.number <= self.numbers:
            return self.copies
        return 0

    def deck_size(self) -> int:
        return self.numbers * self.colours * self.copies + self.jokers

    def colour_rank(self, colour: Colour) -> int:
        return self.colour_order.index(colour)

    def tile_key(self, t: Tile) -> tuple[int, int]:
        """Sort key: colour by colour, low to high, jokers last."""
        if t.colour is None:
            return (len(PALETTE), 0)
        return (self.palette.index(t.colour), t.number)

    def replace(self, **changes: int) -> Rules:
        """A copy with some settings changed (validated like a new variant)."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "palette"}
        unknown = set(changes) - set(values)
        if unknown:
            raise RulesError(N_("unknown rule: {names}"), names=", ".join(sorted(unknown)))
        values.update(changes)
        return Rules(**values)

    def rack_value(self, tiles: Iterable[Tile]) -> int:
        """What tiles are worth on a rack: each number tile its face value, a joker ``joker_value``. It is what
        they cost left on a rack at the end, and what putting them down gains ("most points")."""
        return sum(self.joker_value if t.is_joker else t.number for t in tiles)

    def describe(self) -> str:
        """One line a player can read, in the words of `/new` options."""
        return (
            f"numbers=1-{self.numbers} colours={''.join(c.letter for c in self.colour_order)} "
            f"copies={self.copies} jokers={self.jokers} smallest_set={self.smallest_set} "
            f"meld={self.initial_meld} joker_value={self.joker_value} deal={self.deal}"
        )


STANDARD = Rules()

__all__ = ["JOKER", "STANDARD", "Rules", "RulesError"]
