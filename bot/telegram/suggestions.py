"""The solver's latest suggestions, so "I played this" applies exactly the play that was shown.

Kept in memory (an LRU bounded by the tiles it holds, not by count: one
suggestion of a huge variant weighs as much as a hundred ordinary ones):
after a restart the entry is gone, and the button solves the same position
again instead (the fingerprint in the button proves the position has not
changed since).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from cachetools import LRUCache

from bot.game import GameState, PlayerState
from solver.solution import Objective, Solution

Key = tuple[int, int, str, str]


def fingerprint(state: GameState, player: PlayerState, objective: Objective) -> str:
    """A short hash of everything a solve depends on: rules, table, this rack, the meld, the objective."""
    table = sorted(" ".join(str(t) for t in s.tiles) for s in state.table)
    rack = " ".join(str(t) for t in sorted(player.rack, key=state.rules.tile_key))  # as stored, or as typed
    text = f"{state.rules.describe()}|{'/'.join(table)}|{rack}|{player.melded}|{objective.value}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


#: Tiles the kept suggestions may hold in all (some 30 MB); an ordinary one holds 50-150.
SUGGESTION_TILES = 100_000


def weight(solution: Solution) -> int:
    """A suggestion's size: the tiles of the tables before and after, and of the rack."""
    tables = (*solution.table_before, *solution.table)
    return 1 + sum(len(s.tiles) for s in tables) + len(solution.placed) + len(solution.rack_left)


@dataclass
class Suggestions:
    """Solutions by (game, user, objective, fingerprint), the least recently used forgotten first."""

    tiles: int = SUGGESTION_TILES
    _items: LRUCache[Key, Solution] = field(init=False)

    def __post_init__(self) -> None:
        self._items = LRUCache(maxsize=self.tiles, getsizeof=weight)

    def put(self, key: Key, solution: Solution) -> None:
        """Keep a suggestion (not at all when it alone is larger than the whole room)."""
        if weight(solution) <= self.tiles:
            self._items[key] = solution

    def get(self, key: Key) -> Solution | None:
        return self._items.get(key)
