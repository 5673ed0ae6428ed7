"""Counting tiles: every tile in the deck, no more copies than it holds, sets valid under the game's rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bot.game import errors
from solver.deck import DeckError, check_deck
from solver.rules import Rules
from solver.sets import SetError, TileSet, make_set
from solver.text import N_, Text
from solver.tiles import Tile


def sort_tiles(tiles: Iterable[Tile], rules: Rules) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=rules.tile_key))


def check_tiles(rules: Rules, what: Text, *parts: Iterable[Tile]) -> None:
    """Every tile exists in this game's deck, and no more of each than the deck holds (``what``: the tiles
    the refusal names, "the table and your rack")."""
    lists = [list(part) for part in parts]
    for part in lists:
        for t in part:
            if rules.copies_of(t) == 0:
                raise errors.TooManyTiles(
                    N_("{tile} is not in this game's deck ({rules})"), tile=str(t), rules=rules.describe()
                )
    try:
        check_deck(rules, *lists)
    except DeckError as why:
        raise errors.TooManyTiles(N_("{what}: {why}"), what=what, why=why.text) from None


def check_sets(sets: Sequence[TileSet], rules: Rules) -> tuple[TileSet, ...]:
    """Each set valid under this game's rules (they may differ from the rules it was parsed with)."""
    out = []
    for number, s in enumerate(sets, start=1):
        try:
            out.append(make_set(s.tiles, rules))
        except SetError as why:
            raise errors.InvalidTable(
                N_("set {number} ({set}): {why}"), number=number, set=str(s), why=why.text
            ) from None
    return tuple(out)


def table_tiles(table: Iterable[TileSet]) -> Counter[Tile]:
    total: Counter[Tile] = Counter()
    for s in table:
        total.update(s.tiles)
    return total


def missing(have: Iterable[Tile], need: Iterable[Tile]) -> Counter[Tile]:
    """The tiles of ``need`` that ``have`` lacks (with multiplicity)."""
    return Counter(need) - Counter(have)


def words(tiles: Counter[Tile], rules: Rules) -> str:
    return " ".join(str(t) for t in sort_tiles(tiles.elements(), rules))


def table_key(table: Iterable[TileSet]) -> list[tuple[str, ...]]:
    """A table as its sets' tiles, the sets in any order: equal keys, the same sets (jokers' meanings aside)."""
    return sorted(tuple(str(t) for t in s.tiles) for s in table)
