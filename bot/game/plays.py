"""Plays: rack tiles put on the table in one turn, and the initial meld.

Whose play it is is always said, never guessed from whose rack holds the tiles: the player who typed it or
pressed the button, or the one the chat asked about. A play on someone else's turn is refused with
``NotYourTurn`` until it is recorded as such, so no turn is ever skipped silently. The table is the truth: a
stored rack that lacks the tiles does not stop the play, it is only marked for its owner to fix.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from bot.game import errors
from bot.game.seats import active_player, ensure_running, next_turn, with_player
from bot.game.state import GameState, Played
from bot.game.table import check_kept, check_unchanged
from bot.game.tiles import check_sets, check_tiles, sort_tiles, table_key, table_tiles
from solver.deck import DeckError, check_deck
from solver.sets import TileSet
from solver.solution import Solution
from solver.text import N_, counted, say
from solver.tiles import Tile


def mark_melded(state: GameState, user_id: int) -> GameState:
    """The player made the initial meld outside the bot (``/meld``)."""
    ensure_running(state)
    p = active_player(state, user_id)
    return with_player(state, replace(p, melded=True))


def opening_points(before: Sequence[TileSet], after: Sequence[TileSet]) -> int | None:
    """What a first play is worth as an initial meld: the value of its new sets (a joker as the tile it stands
    for), or None when it changed a set of the table (an opening lays new sets only, from the rack alone)."""
    old = Counter(_tiles_of(s) for s in before)
    value = 0
    for s in after:
        if old[_tiles_of(s)] > 0:
            old[_tiles_of(s)] -= 1
        else:
            value += s.value
    return None if +old else value


def _tiles_of(s: TileSet) -> tuple[str, ...]:
    return tuple(str(t) for t in s.tiles)


def check_opening(state: GameState, table: Sequence[TileSet]) -> None:
    """A first play must be a valid initial meld (``NotAnOpening`` says by how much it falls short)."""
    needed = state.rules.initial_meld
    points = opening_points(state.table, table)
    if points is None:
        raise errors.NotAnOpening(
            N_("a first play (the initial meld) lays new sets from the rack only; it may not change the table's sets"),
            None,
            needed,
        )
    if points < needed:
        short = counted(
            "an initial meld needs {n} point; this one has {points} of {n}",
            "an initial meld needs {n} points; this one has {points} of {n}",
            needed,
            points=points,
        )
        raise errors.NotAnOpening(short, points, needed)


def turn_check(state: GameState, player: int) -> None:
    """A play by ``player`` must come on their turn (``NotYourTurn`` names whose turn it is)."""
    turn = state.turn_player
    if turn is not None and turn.active and turn.user_id != player and len(state.active_players) > 1:
        raise errors.NotYourTurn(N_("it is {name}'s turn"), turn.user_id, name=turn.name)


def play(
    state: GameState,
    recorder: int,
    player: int,
    new_table: Sequence[TileSet],
    *,
    based_on: Sequence[TileSet] | None = None,
    out_of_turn: bool = False,
    opening_waived: bool = False,
) -> Played:
    """``player`` put tiles down, leaving ``new_table``; ``recorder`` (a player at the table) says so.

    The new table keeps every old tile, in valid sets, and adds at least one. A first play must be a valid
    initial meld unless ``opening_waived`` (a house rule the players chose). ``out_of_turn``: the play is
    recorded although it was someone else's turn; the turns in between are passed over (and said so).
    ``based_on``: the table the play was worked out on, which must still be the table.
    """
    ensure_running(state)
    active_player(state, recorder)
    p = active_player(state, player)
    if based_on is not None:
        check_unchanged(state, based_on)
    table = check_sets(new_table, state.rules)
    check_kept(state, table)
    new = table_tiles(table)
    placed_count = new - table_tiles(state.table)
    placed = sort_tiles(placed_count.elements(), state.rules)
    if not placed:
        raise errors.NothingPlayed(N_("no tile was put down; to correct the table use /table fix"))
    check_tiles(state.rules, say("the new table"), new.elements())
    if not out_of_turn:
        turn_check(state, player)
    if not p.melded and not opening_waived:
        check_opening(state, table)
    known = p.rack_known
    short = placed_count - Counter(p.rack) if known else Counter()
    left = sort_tiles((Counter(p.rack) - placed_count).elements(), state.rules)
    stale = bool(short) or not _fits(state, new, left)
    # tiles_played counts what left a known rack: a rack never set stays unknown (no 0-point "win" at the end)
    mover = replace(p, rack=left, melded=True, tiles_played=p.tiles_played + (len(placed) if known else 0))
    after = with_player(replace(state, table=table), mover)
    skipped = _passed_over(state, player)
    after = replace(after, turn=next_turn(after, player))
    return Played(
        after,
        placed,
        player,
        rack_short=sort_tiles(short.elements(), state.rules),
        rack_stale=stale,
        skipped=skipped,
        won=known and not stale and not left,
    )


def _fits(state: GameState, table: Counter[Tile], rack: Sequence[Tile]) -> bool:
    """The rack left and the new table fit the deck together (a rack typed long ago may not)."""
    try:
        check_deck(state.rules, list(rack), list(table.elements()))
    except DeckError:
        return False
    return True


def _passed_over(state: GameState, player: int) -> tuple[int, ...]:
    """The players whose turn comes before ``player``'s, from the turn as it is (none on their own turn)."""
    seated = sorted(state.active_players, key=lambda p: p.seat)
    ids = [p.user_id for p in seated]
    if state.turn not in ids or player not in ids or state.turn == player:
        return ()
    start, end = ids.index(state.turn), ids.index(player)
    span = ids[start:end] if start < end else ids[start:] + ids[:end]
    return tuple(span)


def apply_suggestion(state: GameState, user_id: int, solution: Solution, *, out_of_turn: bool = False) -> Played:
    """Make the solver's play for ``user_id`` ("I played this"): the table and the rack change together."""
    ensure_running(state)
    p = active_player(state, user_id)
    if not solution.has_play:
        raise errors.NothingPlayed(N_("this suggestion puts no tile down; draw a tile instead"))
    if solution.rules != state.rules:
        raise errors.StaleSuggestion(N_("this suggestion was made under other rules; ask /solve again"))
    if table_key(solution.table_before) != table_key(state.table):
        raise errors.StaleSuggestion(N_("the table has changed since this suggestion; ask /solve again"))
    if Counter(solution.placed) + Counter(solution.rack_left) != Counter(p.rack):
        raise errors.StaleSuggestion(N_("your rack has changed since this suggestion; ask /solve again"))
    if not p.melded and not solution.initial_meld:
        raise errors.StaleSuggestion(
            N_("you have not made your initial meld, but this suggestion was solved as if you had; ask /solve again")
        )
    played = play(state, user_id, user_id, solution.table, out_of_turn=out_of_turn)
    if Counter(played.placed) != Counter(solution.placed):
        raise errors.StaleSuggestion(N_("this suggestion does not add up (its table and its placed tiles differ)"))
    return played
