"""Racks: a player's hidden tiles, told whole (``rack:``), or a drawn tile named in private.

What a player tells of their own rack is the newest word about those tiles: an older stored rack of
someone else that named the same copies gives them up (``knowledge``). The rack's count follows what was
told (a rack typed in a private game is whatever the player has), and the pool follows the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.game import errors
from bot.game.knowledge import reconcile
from bot.game.seats import active_player, ensure_playing, with_player
from bot.game.state import GameState
from bot.game.tiles import check_tiles, sort_tiles, table_tiles
from solver.text import N_, say
from solver.tiles import Tile


def set_rack(state: GameState, user_id: int, tiles: Sequence[Tile]) -> tuple[GameState, tuple[int, ...]]:
    """The player's rack is ``tiles``, all of it. Returns the game and the players whose older racks gave up
    tiles to it (each is told in private)."""
    ensure_playing(state)
    p = active_player(state, user_id)
    check_tiles(state.rules, say("the table and your rack"), table_tiles(state.table).elements(), tiles)
    after = with_player(state, replace(p, rack=sort_tiles(tiles, state.rules), rack_size=len(tiles), unnamed=0))
    if after.pool < 0:
        raise errors.TooManyTiles(
            N_(
                "a rack of {n} tiles is more than the game has left: with the table and the other racks, "
                "your rack holds {most} tiles at most"
            ),
            n=len(tiles),
            most=len(tiles) + after.pool,
        )
    return reconcile(after, keep=[user_id])


def name_drawn(state: GameState, user_id: int, tiles: Sequence[Tile]) -> tuple[GameState, tuple[int, ...]]:
    """The player says which tiles they drew in the group (where a draw is only counted): they join the
    rack's known tiles, the count stays."""
    ensure_playing(state)
    p = active_player(state, user_id)
    if not tiles:
        raise errors.NoTiles(N_("name the tile you drew, like /draw 7B"))
    if len(tiles) > p.unnamed:
        raise errors.NoTiles(N_("you have no drawn tile left to name; /rack shows your rack"))
    rack = (*p.rack, *tiles)
    check_tiles(
        state.rules, say("the table and your rack with the tiles drawn"), table_tiles(state.table).elements(), rack
    )
    after = with_player(state, replace(p, rack=sort_tiles(rack, state.rules), unnamed=p.unnamed - len(tiles)))
    return reconcile(after, keep=[user_id])


def check_room(state: GameState) -> None:
    """The deck holds the table and every rack's count (the pool is never below nothing)."""
    if state.pool >= 0:
        return
    raise errors.TooManyTiles(
        N_("the game has {deck} tiles, and the table and the racks would hold {held}"),
        deck=state.rules.deck_size(),
        held=state.rules.deck_size() - state.pool,
    )
