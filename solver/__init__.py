"""The Rummikub engine: tiles, rules, notation, set validity and the SCIP solver.

Knows nothing of Telegram or databases; usable as a library.
"""

from solver.bounds import TooBigError
from solver.deck import DeckError, check_deck
from solver.errors import RummikubError
from solver.notation import NotationError, format_table, format_tiles, parse_set, parse_table, parse_tiles
from solver.rules import STANDARD, Rules, RulesError
from solver.sets import Kind, SetError, TileSet, is_valid, make_set
from solver.solution import Objective, Origin, Solution
from solver.tiles import JOKER, Colour, Tile

__all__ = [
    "JOKER",
    "STANDARD",
    "Colour",
    "DeckError",
    "Kind",
    "NotationError",
    "Objective",
    "Origin",
    "Rules",
    "RulesError",
    "RummikubError",
    "SetError",
    "Solution",
    "Tile",
    "TileSet",
    "TooBigError",
    "check_deck",
    "format_table",
    "format_tiles",
    "is_valid",
    "make_set",
    "parse_set",
    "parse_table",
    "parse_tiles",
]
