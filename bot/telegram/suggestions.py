"""The play an answer showed, kept in the database, so "I played this" applies exactly that play, in any
process and after a restart.

Each player keeps one shown suggestion per game and objective (a newer answer
replaces it): the new table, whether it was an opening, and the fingerprint
of the position it was solved for. The button's fingerprint proves the
position has not changed since; the play is traced again from the two tables
by the solver's own code (``solver.recorded``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import replace
from typing import Any

from bot.game import GameState, PlayerState
from bot.game.codec import decode_table, encode_table
from solver.errors import RummikubError
from solver.recorded import recorded_play
from solver.solution import Objective, Solution

#: The kind of the ``choices`` row a shown suggestion is kept in.
SHOWN = "shown"


def fingerprint(state: GameState, player: PlayerState, objective: Objective) -> str:
    """A short hash of everything a solve depends on: rules, table, this rack, the meld, the objective."""
    table = sorted(" ".join(str(t) for t in s.tiles) for s in state.table)
    rack = " ".join(str(t) for t in sorted(player.rack, key=state.rules.tile_key))  # as stored, or as typed
    text = f"{state.rules.describe()}|{'/'.join(table)}|{rack}|{player.melded}|{objective.value}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def token(game_id: int, user_id: int, objective: Objective) -> str:
    """The one row a player's shown suggestion for this game and objective is kept under."""
    return "s" + hashlib.sha256(f"{game_id}:{user_id}:{objective.value}".encode()).hexdigest()[:23]


def payload(solution: Solution, stamp: str) -> dict[str, Any]:
    return {"stamp": stamp, "table": encode_table(solution.table), "opening": solution.initial_meld}


def rebuilt(kept: dict[str, Any], state: GameState, player: PlayerState, objective: Objective) -> Solution | None:
    """The shown suggestion again, for the position it was made for (``None`` if it does not fit it)."""
    try:
        after = decode_table(kept["table"], state.rules)
    except (KeyError, TypeError, ValueError):
        return None
    try:
        play = recorded_play(state.table, after, state.rules)
    except (RummikubError, ValueError):  # the table it was made for is gone
        return None
    left = Counter(player.rack)
    left.subtract(play.placed)
    if any(n < 0 for n in left.values()):
        return None
    rack_left = tuple(sorted(left.elements(), key=state.rules.tile_key))
    return replace(play, objective=objective, initial_meld=bool(kept.get("opening")), rack_left=rack_left)
