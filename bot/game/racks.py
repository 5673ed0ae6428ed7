"""Racks: a player's hidden tiles, set whole or added to by a draw."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.game import errors
from bot.game.seats import active_player, ensure_running, with_player
from bot.game.state import GameState
from bot.game.tiles import check_tiles, sort_tiles, table_tiles
from solver.text import N_, say
from solver.tiles import Tile


def set_rack(state: GameState, user_id: int, tiles: Sequence[Tile]) -> GameState:
    ensure_running(state)
    p = active_player(state, user_id)
    check_tiles(state.rules, say("the table and your rack"), table_tiles(state.table).elements(), tiles)
    return with_player(state, replace(p, rack=sort_tiles(tiles, state.rules)))


def draw(state: GameState, user_id: int, tiles: Sequence[Tile]) -> GameState:
    ensure_running(state)
    p = active_player(state, user_id)
    if not tiles:
        raise errors.NoTiles(N_("name the tiles you drew, like /draw 7B"))
    rack = (*p.rack, *tiles)
    what = say("the table and your rack with the tiles drawn")
    check_tiles(state.rules, what, table_tiles(state.table).elements(), rack)
    return with_player(state, replace(p, rack=sort_tiles(rack, state.rules)))
