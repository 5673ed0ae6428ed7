"""What the bot knows of the racks, kept true with the table: the newest word about a tile wins.

No tile is in the game (the table and every stored rack) more often than the deck holds. The table is public
and told last; a rack is each player's own word, given at some moment. When the table (a play, a correction)
or a rack just told needs a copy that an older stored rack also holds, the older rack's copy is forgotten:
that rack becomes partly unknown (its count stays, the tile is no longer named) and its owner is told in
private to send it again. Nobody is ever refused because of another player's rack: a refusal would tell
them what the other rack holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from bot.game import errors
from bot.game.seats import with_player
from bot.game.state import GameState, PlayerState
from bot.game.tiles import table_tiles, words
from solver.text import N_
from solver.tiles import Tile


def reconcile(state: GameState, keep: Iterable[int] = ()) -> tuple[GameState, tuple[int, ...]]:
    """``state`` with older rack knowledge given up where table and racks hold more of a tile than the deck.

    ``keep``: players whose racks were just told (with the table, the newest word); the others' racks lose
    the copies too many, in seat order. Returns the players whose racks lost tiles. If the table and the
    kept racks alone hold too many, ``TooManyTiles`` (the teller's own tiles, which they may be told about).
    """
    kept = set(keep)
    table = table_tiles(state.table)
    held: Counter[Tile] = Counter(table)
    players = sorted(state.active_players, key=lambda p: p.seat)
    for p in players:
        held.update(p.rack)
    over = Counter({t: n - state.rules.copies_of(t) for t, n in held.items() if n > state.rules.copies_of(t)})
    if not over:
        return state, ()
    trimmed: list[int] = []
    for p in players:
        if p.user_id in kept or not over:
            continue
        lose = Counter(p.rack) & over
        if lose:
            state = with_player(state, forget(p, lose))
            over -= lose
            trimmed.append(p.user_id)
    if over:
        raise errors.TooManyTiles(
            N_("that would put more of {tiles} in the game than the deck holds (the table and your rack)"),
            tiles=words(over, state.rules),
        )
    return state, tuple(trimmed)


def forget(player: PlayerState, tiles: Counter[Tile]) -> PlayerState:
    """The player with ``tiles`` no longer named on their rack (still counted: they are unknown now)."""
    left = Counter(player.rack) - tiles
    rack: list[Tile] = []
    for t in player.rack:
        if left[t] > 0:
            rack.append(t)
            left[t] -= 1
    return replace(player, rack=tuple(rack))
