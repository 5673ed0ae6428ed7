"""Plays: rack tiles put on the table in one turn, and the initial meld."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.game import errors
from bot.game.seats import active_player, ensure_running, next_turn, with_player
from bot.game.state import GameState
from bot.game.table import check_kept, check_unchanged
from bot.game.tiles import check_sets, check_tiles, sort_tiles, table_key, table_tiles, words
from solver.sets import TileSet
from solver.solution import Solution
from solver.tiles import Tile


def mark_melded(state: GameState, user_id: int) -> GameState:
    ensure_running(state)
    p = active_player(state, user_id)
    return with_player(state, replace(p, melded=True))


def play(
    state: GameState,
    user_id: int,
    new_table: Sequence[TileSet],
    player: int | None,
    *,
    based_on: Sequence[TileSet] | None = None,
) -> tuple[GameState, tuple[Tile, ...]]:
    """A play at the table: the new table keeps every old tile, in valid sets, and adds at least one.

    ``player`` is whose rack the new tiles came from: that rack must hold them
    and loses them, and that player has now melded. None records a play by
    someone whose rack the bot does not know. The turn passes to the next
    player after whoever played (or after the current one, if unknown).
    """
    ensure_running(state)
    active_player(state, user_id)
    if based_on is not None:
        check_unchanged(state, based_on)
    table = check_sets(new_table, state.rules)
    check_kept(state, table)
    old, new = table_tiles(state.table), table_tiles(table)
    placed_count = new - old
    placed = sort_tiles(placed_count.elements(), state.rules)
    if not placed:
        raise errors.NothingPlayed("no tile was put down; to correct the table use /table")
    after = replace(state, table=table)
    rack: Iterable[Tile] = ()
    if player is not None:
        p = active_player(state, player)
        short = placed_count - Counter(p.rack)
        if short:
            raise errors.TilesNotOnRack(f"{p.name}'s rack does not hold {words(short, state.rules)}")
        left = Counter(p.rack) - placed_count
        rack = sort_tiles(left.elements(), state.rules)
        after = with_player(after, replace(p, rack=tuple(rack), melded=True, tiles_played=p.tiles_played + len(placed)))
    check_tiles(state.rules, "the new table", new.elements())
    try:
        check_tiles(state.rules, "", new.elements(), rack)
    except errors.TooManyTiles:  # said where others may read it (a group): which tiles would tell the rack
        raise errors.TooManyTiles(
            "the new table and the rest of the player's rack hold more tiles than the deck has; "
            "the rack is out of date: set it again in private"
        ) from None
    turn = next_turn(after, player if player is not None else state.turn)
    return replace(after, turn=turn), placed


def apply_suggestion(state: GameState, user_id: int, solution: Solution) -> tuple[GameState, tuple[Tile, ...]]:
    """Make the solver's play for ``user_id``: the table and the rack change together."""
    ensure_running(state)
    p = active_player(state, user_id)
    if not solution.has_play:
        raise errors.NothingPlayed("this suggestion puts no tile down; draw a tile instead")
    if solution.rules != state.rules:
        raise errors.StaleSuggestion("this suggestion was made under other rules; ask /solve again")
    if table_key(solution.table_before) != table_key(state.table):
        raise errors.StaleSuggestion("the table has changed since this suggestion; ask /solve again")
    if Counter(solution.placed) + Counter(solution.rack_left) != Counter(p.rack):
        raise errors.StaleSuggestion("your rack has changed since this suggestion; ask /solve again")
    if not p.melded and not solution.initial_meld:
        raise errors.StaleSuggestion(
            "you have not made your initial meld, but this suggestion was solved as if you had; ask /solve again"
        )
    after, placed = play(state, user_id, solution.table, player=user_id)
    if Counter(placed) != Counter(solution.placed):
        raise errors.StaleSuggestion("this suggestion does not add up (its table and its placed tiles differ)")
    return after, placed
