"""The end of a game and its score by the box.

A game is over when a player lays their last tile (they win), when every player in a row passes on an empty
pool (nobody can play: the lowest rack wins), or when the players stop it (``/end``: scored as if nobody
could play on). Then the other players tell the tiles left on their racks (``declare``; a stored rack may be
offered as it is), and the game is scored: each player but the winner scores minus the value of their rack
(a joker at the rules' ``joker_value``), the winner the sum of those. A game closed before every rack is
told (``close``) is scored with the racks told or known whole; a rack the bot never knew gets no score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.game import errors
from bot.game.knowledge import reconcile
from bot.game.seats import active_player, ensure_running, with_player
from bot.game.state import Finish, GameState, GameStatus, PlayerScore, PlayerState
from bot.game.tiles import check_tiles, sort_tiles, table_tiles
from solver.text import N_, say
from solver.tiles import Tile


def in_progress(state: GameState) -> bool:
    """A game worth asking about before it is closed (``/end``, ``/new``): something lies on the table, or
    on a rack, or has been played from one."""
    return bool(state.table) or any(p.rack or p.tiles_played for p in state.players)


def after_going_out(state: GameState, winner: int, now: datetime) -> GameState:
    """The player ``winner`` laid their last tile: no more turns; the others' racks are asked for (a game
    with nobody else is scored at once)."""
    after = replace(state, finish=Finish.OUT, winner=winner, turn=None, adding=None)
    return after if waiting_for(after) else scored(after, now)


def stops(state: GameState) -> bool:
    """Whether ``/end`` stops the game to ask for the racks (a game still played by two or more), rather than
    closing it at once."""
    return state.running and state.finish is None and len(state.active_players) >= 2


def stop(state: GameState, user_id: int, now: datetime) -> GameState:
    """The players stop the game (``/end``): scored as if nobody could play on, once the racks are told. A
    game of one player or none (a private game) has nothing to wait for: it is closed at once."""
    ensure_running(state)
    if state.active_players:  # a game nobody sits at (started by an anonymous admin) anyone may end
        active_player(state, user_id)
    if state.finish is not None:
        raise errors.GameFinished(N_("this game is over already: tell me the tiles left on your rack with /left"))
    if len(state.active_players) < 2:
        return close(state, user_id, now)
    return replace(state, finish=Finish.STOPPED, turn=None, adding=None)


def waiting_for(state: GameState) -> tuple[PlayerState, ...]:
    """The players whose rack the score still needs (in seat order)."""
    if state.finish is None:
        return ()
    return tuple(p for p in state.active_players if p.user_id != state.winner and not p.declared)


def declare(state: GameState, user_id: int, tiles: Sequence[Tile], now: datetime) -> tuple[GameState, tuple[int, ...]]:
    """The tiles left on ``user_id``'s rack at the end; the last rack told scores the game."""
    ensure_running(state)
    p = active_player(state, user_id)
    if state.finish is None:
        raise errors.GameError(N_("the game is still on: the tiles left on the racks are told once it is over"))
    if p.user_id == state.winner:
        raise errors.GameError(N_("you went out: your rack is empty"))
    check_tiles(state.rules, say("the table and your rack"), table_tiles(state.table).elements(), tiles)
    told = replace(p, rack=sort_tiles(tiles, state.rules), rack_size=len(tiles), unnamed=0, declared=True)
    after, trimmed = reconcile(with_player(state, told), keep=[user_id])
    if not waiting_for(after):
        after = scored(after, now)
    return after, trimmed


def close(state: GameState, user_id: int, now: datetime) -> GameState:
    """End the game now (``/end``, or a new game over it): scored with the racks told, or known whole."""
    ensure_running(state)
    if state.active_players:
        active_player(state, user_id)
    if len(state.active_players) < 2 and state.finish is None:  # a game of one: nothing to score
        return replace(state, status=GameStatus.ENDED, ended_at=now, finish=Finish.STOPPED, turn=None, adding=None)
    if state.finish is None:
        state = replace(state, finish=Finish.STOPPED, turn=None, adding=None)
    for p in waiting_for(state):
        if p.rack_known:
            state = with_player(state, replace(p, declared=True))
    return scored(state, now)


def scored(state: GameState, now: datetime) -> GameState:
    """The game ended and scored by the box: the winner (who went out, or the lowest rack told) scores the
    sum of the other racks' values, each other player minus their own. Players whose rack was never told
    nor known score nothing, and a game with fewer than two racks to count has no score."""
    counted = [p for p in state.active_players if p.user_id == state.winner or p.declared]
    if len(counted) < 2:  # one rack alone scores nothing against nobody
        counted = []
    winner = state.winner
    if winner is None and counted:
        winner = min(counted, key=lambda p: (state.rules.rack_value(p.rack), p.rack_size, p.seat)).user_id
    losers = [p for p in counted if p.user_id != winner]
    total = sum(state.rules.rack_value(p.rack) for p in losers)
    players = []
    for p in state.players:
        if p.user_id == winner and p.active:
            players.append(replace(p, score=total))
        elif p in losers:
            players.append(replace(p, score=-state.rules.rack_value(p.rack)))
        else:
            players.append(replace(p, score=None))
    return replace(
        state, players=tuple(players), winner=winner, status=GameStatus.ENDED, ended_at=now, turn=None, adding=None
    )


def scores(state: GameState) -> tuple[PlayerScore, ...]:
    """A scored game's lines: the winner first, then by score (the players with no score left out)."""
    rows = [
        PlayerScore(p.user_id, p.name, p.rack_size, state.rules.rack_value(p.rack), p.score, p.user_id == state.winner)
        for p in state.players
        if p.score is not None
    ]
    return tuple(sorted(rows, key=lambda s: (not s.won, -s.score)))
