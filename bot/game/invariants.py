"""What is true of every game after every change; the service checks it before anything is stored.

A change that would break one of these is a bug in the game core, not a player's mistake: it is refused
(``BrokenRecord``), nothing is stored, and the chat says so instead of recording a game that is not the
game on the table.
"""

from __future__ import annotations

from collections import Counter

from bot.game import errors
from bot.game.state import GameState
from bot.game.tiles import table_tiles, words
from solver.sets import SetError, make_set
from solver.text import N_
from solver.tiles import Tile


def broken(state: GameState) -> list[str]:
    """Every invariant the game breaks, in words for a log (empty: the game is sound)."""
    found: list[str] = []
    rules = state.rules
    for n, s in zip(state.numbers, state.table, strict=True):
        try:
            if make_set(s.tiles, rules).tiles != s.tiles:
                found.append(f"set {n} ({s}) does not read back as it lies")
        except SetError as why:
            found.append(f"set {n} ({s}) is no set: {why}")
    if len(set(state.numbers)) != len(state.numbers) or any(n < 1 for n in state.numbers):
        found.append(f"set numbers {state.numbers} are not distinct positive numbers")
    if list(state.numbers) != sorted(state.numbers):
        found.append(f"set numbers {state.numbers} are out of order")
    held: Counter[Tile] = table_tiles(state.table)
    for p in state.active_players:
        held.update(p.rack)
        if not 0 <= len(p.rack) <= p.rack_size:
            found.append(f"{p.name} has {len(p.rack)} known tiles on a rack of {p.rack_size}")
        if not 0 <= p.unnamed <= p.unknown:
            found.append(f"{p.name} has {p.unnamed} tiles to name but {p.unknown} unknown")
    over = Counter({t: n - rules.copies_of(t) for t, n in held.items() if n > rules.copies_of(t)})
    if over:
        found.append(f"the table and the racks hold too many of {words(over, rules)}")
    if state.pool < 0:
        found.append(f"the pool holds {state.pool} tiles")
    seated = [p.user_id for p in state.active_players]
    if state.playing and seated and state.turn not in seated:
        found.append(f"the turn ({state.turn}) is nobody's at the table ({seated})")
    if state.finish is not None and state.running and state.turn is not None:
        found.append("a finished game still has a turn")
    if state.adding is not None and state.adding.player not in seated:
        found.append(f"the play that may grow is of {state.adding.player}, who is not at the table")
    if state.winner is not None and state.player(state.winner) is None:
        found.append(f"the winner {state.winner} never played")
    return found


def check(state: GameState) -> None:
    """Refuse a change that leaves the game untrue (see the module docstring)."""
    found = broken(state)
    if found:
        raise errors.BrokenRecord(
            N_("that change would leave the game's record untrue, so nothing was changed ({why})"),
            why="; ".join(found),
        )
