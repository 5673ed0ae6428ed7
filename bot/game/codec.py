"""Tiles, sets and rules as JSON in canonical notation.

The database holds ``"3R"`` and ``["3R", "4R", "J"]`` rather than pickles or
engine internals: any SQL database stores it, a person can read it in a dump,
and the notation is the engine's stable public format.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from functools import lru_cache
from typing import Any

from cachetools import LRUCache, cached

from bot.game.state import Adding
from solver.rules import STANDARD, Rules
from solver.sets import TileSet, make_set
from solver.tiles import JOKER, Colour, Tile

TileCode = str
SetCode = list[TileCode]
RULE_FIELDS = tuple(f.name for f in fields(Rules) if f.name != "palette")


def encode_tiles(tiles: Iterable[Tile]) -> list[TileCode]:
    return [str(t) for t in tiles]


def decode_tile(code: TileCode) -> Tile:
    """Read one canonical tile (``3R``, ``J``); stored data is canonical, so no parser is needed."""
    if code == "J":
        return JOKER
    return Tile(int(code[:-1]), Colour(code[-1]))


def decode_tiles(codes: Iterable[TileCode]) -> tuple[Tile, ...]:
    return tuple(decode_tile(c) for c in codes)


def encode_table(table: Iterable[TileSet]) -> list[SetCode]:
    return [encode_tiles(s.tiles) for s in table]


def decode_table(codes: Iterable[Sequence[TileCode]], rules: Rules) -> tuple[TileSet, ...]:
    """Rebuild each set; jokers keep their stored places, so a run reads back as it was written."""
    return tuple(_decode_set(tuple(s), rules) for s in codes)


#: Tiles the decoded sets below may hold in all (some 10 MB): bounded by size, not count, since one set of
#: a variant with 99 numbers holds as many tiles as thirty of the standard game's.
SET_CACHE_TILES = 50_000
SETS: LRUCache[Any, TileSet] = LRUCache(maxsize=SET_CACHE_TILES, getsizeof=lambda s: len(s.tiles) + 1)


@cached(SETS, lock=threading.Lock())
def _decode_set(codes: tuple[TileCode, ...], rules: Rules) -> TileSet:
    # every message reads its game, and most of a table's sets are as they were: checking each set
    # again was a third of a read (sets are immutable values, so one may serve every game)
    return make_set(decode_tiles(codes), rules)


def encode_adding(adding: Adding | None) -> dict[str, Any] | None:
    """The play that may still grow, as JSON (the table its turn began from in notation)."""
    if adding is None:
        return None
    return {"player": adding.player, "before": encode_table(adding.before), "opening": adding.opening}


def decode_adding(data: Mapping[str, Any] | None, rules: Rules) -> Adding | None:
    if not data:
        return None
    return Adding(int(data["player"]), decode_table(data["before"], rules), bool(data["opening"]))


def encode_rules(rules: Rules) -> dict[str, int]:
    return {name: getattr(rules, name) for name in RULE_FIELDS}


def decode_rules(data: Mapping[str, Any]) -> Rules:
    return _rules(tuple((name, int(data[name])) for name in RULE_FIELDS if name in data))


@lru_cache(maxsize=256)
def _rules(values: tuple[tuple[str, int], ...]) -> Rules:
    return STANDARD.replace(**dict(values))
