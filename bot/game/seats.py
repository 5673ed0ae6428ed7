"""Seats and turns: who plays in a game, in which order, and whose turn it is."""

from __future__ import annotations

from dataclasses import replace

from bot.game import errors
from bot.game.state import GameState, PlayerState
from solver.text import N_

MAX_NAME = 64


def clean_name(name: str, user_id: int) -> str:
    """A display name that fits the column and is never empty."""
    name = " ".join(name.split())[:MAX_NAME]
    return name or f"player {user_id}"


def ensure_running(state: GameState) -> None:
    if not state.running:
        raise errors.GameOver(N_("this game has ended; /new starts another"))


def ensure_playing(state: GameState) -> None:
    """Turns are still taken: the game runs and nobody has gone out (nor has it been stopped)."""
    ensure_running(state)
    if state.finish is not None:
        raise errors.GameFinished(
            N_("this game is over: tell me the tiles left on your rack with /left (or /end closes it now)")
        )


def active_player(state: GameState, user_id: int) -> PlayerState:
    """The user's seat, if they play in this game now."""
    p = state.player(user_id)
    if p is None or not p.active:
        raise errors.NotAPlayer(N_("you are not playing in this game; /join first"))
    return p


def with_player(state: GameState, player: PlayerState) -> GameState:
    others = [p for p in state.players if p.user_id != player.user_id]
    return replace(state, players=tuple(sorted([*others, player], key=lambda p: p.seat)))


def next_turn(state: GameState, after: int | None) -> int | None:
    """The active player seated after ``after`` (round the table), None when nobody plays."""
    current = state.player(after) if after is not None else None
    return _seated_after(state, current.seat if current is not None else None)


def _seated_after(state: GameState, seat: int | None) -> int | None:
    """The active player in the first seat after ``seat`` (round the table; the first seat for None)."""
    seated = sorted(state.active_players, key=lambda p: p.seat)
    if not seated:
        return None
    later = [p for p in seated if seat is not None and p.seat > seat]
    return (later or seated)[0].user_id


def join(state: GameState, user_id: int, name: str) -> GameState:
    """Sit down at the end of the table and take a rack from the pool (the rules' ``deal``); someone who
    left comes back with a new rack."""
    ensure_playing(state)
    old = state.player(user_id)
    if old is not None and old.active:
        raise errors.AlreadyJoined(N_("{name} already plays in this game"), name=old.name)
    deal = state.rules.deal
    if state.pool < deal:
        raise errors.TooManyTiles(
            N_("only {pool} tiles are left in the pool, and a new player takes {deal}"), pool=state.pool, deal=deal
        )
    seat = max((p.seat for p in state.players), default=-1) + 1
    player = PlayerState(
        user_id=user_id,
        name=clean_name(name, user_id),
        seat=seat,
        rack=(),
        melded=old.melded if old else False,
        tiles_played=old.tiles_played if old else 0,
        active=True,
        rack_size=deal,
    )
    state = with_player(state, player)
    return replace(state, turn=state.turn if state.turn is not None else user_id)


def turn_to_a_seat(state: GameState, before: GameState) -> GameState:
    """``state`` with the turn on a seated player: when the player whose turn it is no longer sits at the
    table (an undo of their joining took the seat), the turn goes to the next seat after theirs."""
    turn = state.player(state.turn) if state.turn is not None else None
    if state.turn is None or (turn is not None and turn.active):
        return state
    gone = before.player(state.turn)
    return replace(state, turn=_seated_after(state, gone.seat if gone is not None else None))


def leave(state: GameState, user_id: int) -> GameState:
    """Stand up: the rack goes back to the pool, the turn moves on if it was theirs."""
    ensure_playing(state)
    p = active_player(state, user_id)
    after = with_player(state, replace(p, active=False, rack=(), rack_size=0, unnamed=0))
    turn = next_turn(after, user_id) if state.turn == user_id else state.turn
    adding = None if state.adding is not None and state.adding.player == user_id else state.adding
    return replace(after, turn=turn, adding=adding)
