"""The end of a game: the points left on each rack."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.game.seats import ensure_running
from bot.game.state import GameState, GameStatus, PlayerScore


def end(state: GameState, now: datetime) -> tuple[GameState, tuple[PlayerScore, ...]]:
    ensure_running(state)
    return replace(state, status=GameStatus.ENDED, ended_at=now), scores(state)


def in_progress(state: GameState) -> bool:
    """A game worth asking about before it is closed (``/end``, ``/new``): something lies on the table, or
    on a rack, or has been played from one."""
    return bool(state.table) or any(p.rack or p.tiles_played for p in state.players)


def scores(state: GameState) -> tuple[PlayerScore, ...]:
    """Points left on each active player's rack (a joker costs the rules' joker_value), fewest first; racks the
    bot never knew last (an empty rack nobody set is no win)."""
    rows = [
        PlayerScore(p.user_id, p.name, len(p.rack), state.rules.rack_value(p.rack), p.rack_known)
        for p in state.active_players
    ]
    return tuple(sorted(rows, key=lambda s: (not s.rack_known, s.points_left, s.tiles_left)))
