"""Reading a table as people type it: sets separated by ``|``, or a loose list of tiles.

A loose list (no separators, and not one valid set) is laid out by the solver,
so a user can type what they see without grouping it first.
"""

from __future__ import annotations

from solver.notation import SET_SEPARATORS, parse_table, parse_tiles
from solver.rules import Rules
from solver.sets import SetError, TileSet, make_set
from solver.solve import DEFAULT_TIME_LIMIT, arrange


def given_as_sets(text: str) -> bool:
    """Whether the text separates its sets: then reading it is only parsing (about 0.5 ms for a full table)."""
    return any(sep in text for sep in SET_SEPARATORS)


def read_table(text: str, rules: Rules, *, time_limit: float = DEFAULT_TIME_LIMIT) -> list[TileSet]:
    """The table's sets, checked one by one, or arranged when given as loose tiles."""
    if given_as_sets(text):
        return parse_table(text, rules)
    tiles = parse_tiles(text, rules)
    if not tiles:
        return []
    try:
        return [make_set(tiles, rules)]
    except SetError:
        return arrange(tiles, rules, time_limit=time_limit)
