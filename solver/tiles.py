"""Tiles: a number in a colour, or a joker.

A tile is a small frozen value so it can key dicts and counters; the joker is
a tile without number or colour because what it stands for depends on the set
it lies in, not on the tile itself.
"""

from __future__ import annotations

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


class Tile:
    """A numbered tile (``number`` and ``colour``) or the joker (both empty).

    Tiles are values, and each value is made once: ``Tile(3, Colour.RED)`` is
    always the same object. They key every counter of the solver, and a dict
    finds an identical key without calling ``__eq__``.
    """

    __slots__ = ("colour", "id", "number")

    number: int
    colour: Colour | None
    #: a small int naming the tile (0 for the joker): the solver's hot loops key on it
    id: int

    def __new__(cls, number: int = 0, colour: Colour | None = None) -> Tile:
        key = number if colour is None else number << 7 | ord(colour.value)
        known = _MADE.get(key)
        if known is not None and known.number == number and known.colour is colour:
            return known
        made = super().__new__(cls)
        object.__setattr__(made, "number", number)
        object.__setattr__(made, "colour", colour)
        object.__setattr__(made, "id", key)
        if 0 <= number < _INTERNED_BELOW:  # any number the notation reads; stranger ones are not kept
            _MADE[key] = made
        return made

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a tile cannot change: {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a tile cannot change: {name}")

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Tile):
            return NotImplemented
        return self.number == other.number and self.colour is other.colour

    def __hash__(self) -> int:
        return self.id

    def __reduce__(self) -> tuple[type[Tile], tuple[int, Colour | None]]:
        # unpickling (the bot's solver processes) goes through __new__, so the copy is the known tile
        return (Tile, (self.number, self.colour))

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    def __str__(self) -> str:
        if self.colour is None:
            return "J"
        return f"{self.number}{self.colour.letter}"

    def __repr__(self) -> str:
        return f"Tile({self})"


_INTERNED_BELOW = 128
_MADE: dict[int, Tile] = {}

JOKER = Tile()


def tile(number: int, colour: Colour) -> Tile:
    """A numbered tile; a short spelling for tests and callers."""
    return Tile(number, colour)
