"""Turns as a family takes them: a turn is a play or a draw, a draw ends the turn, a play may come in parts.

Whose turn it is moves on when the player whose turn it is plays or draws. A draw told in the group ("I
drew") is counted there and named later in private; a draw told in private with its tile is both at once.
With the pool empty a draw is a pass, and a round of passes ends the game: nobody can play on. The player
who played last may add to their play until the next player acts (``GameState.adding``): it is one turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.game import errors
from bot.game.knowledge import reconcile
from bot.game.racks import name_drawn
from bot.game.seats import active_player, ensure_playing, next_turn, with_player
from bot.game.state import Finish, GameState
from bot.game.tiles import check_tiles, sort_tiles, table_tiles
from solver.text import N_, counted, say
from solver.tiles import Tile


def turn_check(state: GameState, player: int) -> None:
    """A turn by ``player`` must come on their turn (``NotYourTurn`` names whose turn it is)."""
    turn = state.turn_player
    if turn is not None and turn.active and turn.user_id != player and len(state.active_players) > 1:
        raise errors.NotYourTurn(N_("it is {name}'s turn"), turn.user_id, name=turn.name)


def passed_over(state: GameState, player: int) -> tuple[int, ...]:
    """The players whose turn comes before ``player``'s, from the turn as it is (none on their own turn)."""
    seated = sorted(state.active_players, key=lambda p: p.seat)
    ids = [p.user_id for p in seated]
    if state.turn not in ids or player not in ids or state.turn == player:
        return ()
    start, end = ids.index(state.turn), ids.index(player)
    return tuple(ids[start:end] if start < end else ids[start:] + ids[:end])


@dataclass(frozen=True, slots=True)
class Drawn:
    """A draw: the game after it, how many tiles came from the pool (0: a pass on an empty pool), which of
    them were named, whose turns it passed over, and the players whose older racks gave up named tiles."""

    state: GameState
    count: int
    named: tuple[Tile, ...]
    skipped: tuple[int, ...] = ()
    trimmed: tuple[int, ...] = ()
    #: tiles drawn earlier in the group, named now: no turn was taken
    named_only: bool = False

    @property
    def passed(self) -> bool:
        """A turn without a tile: the pool was empty."""
        return self.count == 0 and not self.named_only


def draw(state: GameState, player: int, tiles: Sequence[Tile] = (), *, out_of_turn: bool = False) -> Drawn:
    """``player`` ends their turn with a draw: one tile (or ``tiles``, named), or a pass on an empty pool.

    ``out_of_turn``: recorded although it was someone else's turn (the turns in between are passed over).
    """
    ensure_playing(state)
    p = active_player(state, player)
    if not out_of_turn:
        turn_check(state, player)
    skipped = passed_over(state, player) if out_of_turn else ()
    if state.pool == 0:
        if tiles:
            raise errors.PoolEmpty(N_("the pool is empty: nobody can draw; a turn without a play is a pass"))
        return Drawn(_passed(state, player, skipped), 0, (), skipped)
    count = max(1, len(tiles))
    if count > state.pool:
        raise errors.PoolEmpty(counted("the pool holds only {n} tile", "the pool holds only {n} tiles", state.pool))
    rack = sort_tiles((*p.rack, *tiles), state.rules)
    if tiles:
        what = say("the table and your rack with the tiles drawn")
        check_tiles(state.rules, what, table_tiles(state.table).elements(), rack)
    drawer = replace(p, rack=rack, rack_size=p.rack_size + count, unnamed=p.unnamed + count - len(tiles))
    after = with_player(state, drawer)
    after = replace(after, turn=next_turn(after, player), adding=None, passes=0)
    after, trimmed = reconcile(after, keep=[player])
    return Drawn(after, count, tuple(tiles), skipped, trimmed)


def names_drawn(state: GameState, player: int, tiles: Sequence[Tile]) -> bool:
    """Whether tiles told in private name tiles drawn in the group (counted there, not yet named) rather than
    draw anew: the player has that many still to name."""
    p = state.player(player)
    return bool(tiles) and p is not None and p.active and 0 < len(tiles) <= p.unnamed


def told_draw(state: GameState, player: int, tiles: Sequence[Tile] = (), *, out_of_turn: bool = False) -> Drawn:
    """A draw told by the player: the naming of tiles drawn in the group (``names_drawn``), or a draw that
    ends their turn."""
    if names_drawn(state, player, tiles):
        after, trimmed = name_drawn(state, player, tiles)
        return Drawn(after, 0, tuple(tiles), (), trimmed, named_only=True)
    return draw(state, player, tiles, out_of_turn=out_of_turn)


def pass_turn(state: GameState, player: int, *, out_of_turn: bool = False) -> Drawn:
    """A turn without a play on an empty pool; with tiles in the pool a turn without a play is a draw."""
    ensure_playing(state)
    active_player(state, player)
    if state.pool > 0:
        raise errors.NoTiles(
            counted(
                "{n} tile is still in the pool: a turn without a play is a draw (/draw)",
                "{n} tiles are still in the pool: a turn without a play is a draw (/draw)",
                state.pool,
            )
        )
    return draw(state, player, out_of_turn=out_of_turn)


def _passed(state: GameState, player: int, skipped: Sequence[int] = ()) -> GameState:
    """A pass on an empty pool: the turn moves on; once every player has passed in a row, nobody can play
    and the game is over (the lowest rack wins, once the racks are told). A pass recorded out of turn passes
    over players who did not pass: the round of passes starts again from it."""
    passes = 1 if skipped else state.passes + 1
    after = replace(state, turn=next_turn(state, player), adding=None, passes=passes)
    if passes >= len(after.active_players):
        return replace(after, finish=Finish.BLOCKED, turn=None)
    return after
