"""Tiles: a number in a colour, or a joker.

A tile is a small frozen value so it can key dicts and counters; the joker is
a tile without number or colour because what it stands for depends on the set
it lies in, not on the tile itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Colour(Enum):
    """The tile colours, in the rules' default order (the order groups are shown in)."""

    RED = "R"
    BLUE = "B"
    BLACK = "K"
    ORANGE = "O"

    @property
    def letter(self) -> str:
        return self.value


#: Every colour the notation knows, in the default order of the rules.
PALETTE: tuple[Colour, ...] = (Colour.RED, Colour.BLUE, Colour.BLACK, Colour.ORANGE)


@dataclass(frozen=True, slots=True)
class Tile:
    """A numbered tile (``number`` and ``colour``) or the joker (both empty)."""

    number: int = 0
    colour: Colour | None = None
    #: a small int naming the tile (0 for the joker): the solver's hot loops key on it
    id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = self.number if self.colour is None else self.number << 7 | ord(self.colour.value)
        object.__setattr__(self, "id", key)

    def __hash__(self) -> int:
        # tiles key every counter of the solver: a stored int is much cheaper than hashing the enum
        return self.id

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    def __str__(self) -> str:
        if self.colour is None:
            return "J"
        return f"{self.number}{self.colour.letter}"

    def __repr__(self) -> str:
        return f"Tile({self})"


JOKER = Tile()


def tile(number: int, colour: Colour) -> Tile:
    """A numbered tile; a short spelling for tests and callers."""
    return Tile(number, colour)
