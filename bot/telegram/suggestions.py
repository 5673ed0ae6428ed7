"""The solver's latest suggestions, so "I played this" applies exactly the play that was shown.

Kept in memory (a small LRU): after a restart the entry is gone, and the
button solves the same position again instead (the fingerprint in the button
proves the position has not changed since).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field

from bot.game import GameState, PlayerState
from solver.solution import Objective, Solution

Key = tuple[int, int, str, str]


def fingerprint(state: GameState, player: PlayerState, objective: Objective) -> str:
    """A short hash of everything a solve depends on: rules, table, this rack, the meld, the objective."""
    table = sorted(" ".join(str(t) for t in s.tiles) for s in state.table)
    rack = " ".join(str(t) for t in sorted(player.rack, key=state.rules.tile_key))  # as stored, or as typed
    text = f"{state.rules.describe()}|{'/'.join(table)}|{rack}|{player.melded}|{objective.value}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass
class Suggestions:
    """Solutions by (game, user, objective, fingerprint), the oldest forgotten first."""

    size: int = 512
    _items: OrderedDict[Key, Solution] = field(default_factory=OrderedDict)

    def put(self, key: Key, solution: Solution) -> None:
        self._items[key] = solution
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def get(self, key: Key) -> Solution | None:
        return self._items.get(key)
