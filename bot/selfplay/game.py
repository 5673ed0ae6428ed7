"""One complete game between policies, played through the game core (``bot.game``) and the solver.

The game lives in a ``GameState`` in memory, changed only by the core's own functions, as the chat changes
it: the players sit down (``seats.join``) and tell their racks (``racks.set_rack``), each turn is a play
(``plays.play``, the opening judged by the core), a draw naming its tile (``turns.draw``) or a pass on an
empty pool (``turns.pass_turn``), and at the end every other rack is told (``ending.declare``) and the game
scored by the box (``ending.scored``). The simulator keeps what the core only counts: the true racks and the
shuffled pool. After every step the core's invariants must hold (``invariants.broken``), its pool count must
be the true pool's and every rack the core knows must be the true rack; anything else is a ``SelfPlayError``.

``play_game`` returns an ``Outcome`` with the steps taken, and ``replay`` plays those steps again through the
core from the deal (checking the invariants after each), for tests.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum

from bot.game import ending, invariants, plays, racks, seats, turns
from bot.game.state import Finish, GameState, GameStatus
from bot.game.trace import Trace
from bot.selfplay.advice import view_of
from bot.selfplay.deal import Deal
from bot.selfplay.policies import Policy
from solver.rules import Rules
from solver.sets import TileSet
from solver.solve import DEFAULT_TIME_LIMIT
from solver.tiles import Tile

#: the simulated games' clock: the core dates a game's end, and a fixed date keeps the games reproducible
EPOCH = datetime(2026, 11, 26, tzinfo=UTC)


class SelfPlayError(AssertionError):
    """The game core and the simulated table disagree (a bug in one of them)."""


class StepKind(Enum):
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class Step:
    """One turn: the seat that took it, a play (the table after it and the tiles it laid), a draw (the tile)
    or a pass. ``held``: tiles of the best play the player kept back."""

    seat: int
    kind: StepKind
    table: tuple[TileSet, ...] = ()
    tiles: tuple[Tile, ...] = ()
    held: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """A game played out: who sat where (policy names by seat), how it ended, the scores by the box and the
    racks left, by seat; per seat the turns with a play on offer (``decisions``) and those where tiles of it
    were kept back (``holds``); the steps, and the solver's time."""

    lineup: tuple[str, ...]
    finish: Finish
    winner: int
    scores: tuple[int, ...]
    left: tuple[tuple[Tile, ...], ...]
    decisions: tuple[int, ...]
    holds: tuple[int, ...]
    steps: tuple[Step, ...] = field(repr=False)
    solve_s: float = 0.0
    final: GameState | None = field(default=None, repr=False, compare=False)

    @property
    def turns(self) -> int:
        return len(self.steps)


def user(seat: int) -> int:
    """The user id of the player in ``seat``."""
    return seat + 1


def start(rules: Rules, dealt: Deal) -> GameState:
    """A new game with a seat for each rack of the deal, every rack told."""
    state = GameState(
        id=0, chat_id=-1, status=GameStatus.RUNNING, rules=rules, table=(), players=(), turn=None,
        invite="selfplay", version=0, created_at=EPOCH, ended_at=None,
    )  # fmt: skip
    for seat in range(dealt.players):
        state = seats.join(state, user(seat), f"seat {seat + 1}")
    for seat, rack in enumerate(dealt.racks):
        state, _ = racks.set_rack(state, user(seat), rack)
    return state


def check(state: GameState, hands: Sequence[Counter[Tile]], pool: int, what: str) -> None:
    """The core's game is sound and agrees with the true table: the pool's count, every rack."""
    broken = invariants.broken(state)
    if broken:
        raise SelfPlayError(f"after {what}: {'; '.join(broken)}")
    if state.pool != pool:
        raise SelfPlayError(f"after {what}: the core counts {state.pool} tiles in the pool, the pool holds {pool}")
    for seat, hand in enumerate(hands):
        p = state.player(user(seat))
        if p is None or not p.rack_known or Counter(p.rack) != hand:
            raise SelfPlayError(f"after {what}: the core's rack of seat {seat + 1} is not the true rack")


def play_game(
    rules: Rules,
    dealt: Deal,
    lineup: Sequence[Policy],
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_turns: int = 2000,
) -> Outcome:
    """Play the deal to its end, ``lineup[k]`` in seat ``k`` (seat 1 moves first)."""
    if len(lineup) != dealt.players:
        raise ValueError(f"{len(lineup)} policies for {dealt.players} seats")
    state = start(rules, dealt)
    hands = [Counter(rack) for rack in dealt.racks]
    pool = list(reversed(dealt.pool))  # drawn from the end: the deal's front first
    check(state, hands, len(pool), "the deal")
    steps: list[Step] = []
    decisions = [0] * dealt.players
    holds = [0] * dealt.players
    solving = 0.0
    while state.playing:
        if len(steps) >= max_turns:
            raise SelfPlayError(f"no end after {max_turns} turns")
        uid = state.turn
        assert uid is not None
        seat = uid - 1
        view = view_of(state, uid, tuple(hands[seat].elements()))
        began = time.perf_counter()
        decision = lineup[seat].decide(view, time_limit)
        solving += time.perf_counter() - began
        if decision.best.has_play:
            decisions[seat] += 1
            holds[seat] += bool(decision.held)
        if decision.play is not None:
            sol = decision.play
            played = plays.play(state, uid, uid, sol.table, trace=Trace(sol.kept_from, sol.origins), now=EPOCH)
            if Counter(played.placed) != Counter(sol.placed):
                raise SelfPlayError(f"seat {seat + 1} laid {sol.placed}, the core counted {played.placed}")
            hands[seat] -= Counter(played.placed)
            state = played.state
            steps.append(Step(seat, StepKind.PLAY, state.table, played.placed, decision.held))
        elif pool:
            tile = pool.pop()
            state = turns.draw(state, uid, [tile]).state
            hands[seat][tile] += 1
            steps.append(Step(seat, StepKind.DRAW, tiles=(tile,), held=decision.held))
        else:
            state = turns.pass_turn(state, uid).state
            steps.append(Step(seat, StepKind.PASS, held=decision.held))
        check(state, hands, len(pool), f"turn {len(steps)}")
    state = finish(state, hands)
    check(state, hands, len(pool), "the scoring")
    return _outcome(state, lineup, hands, steps, decisions, holds, solving)


def finish(state: GameState, hands: Sequence[Counter[Tile]]) -> GameState:
    """Every rack but the winner's told, and so the game scored by the box."""
    for seat, hand in enumerate(hands):
        if user(seat) != state.winner and state.status is GameStatus.RUNNING:
            state, _ = ending.declare(state, user(seat), tuple(hand.elements()), EPOCH)
    if state.status is not GameStatus.ENDED or state.winner is None:
        raise SelfPlayError("the game was not scored once every rack was told")
    return state


def _outcome(
    state: GameState,
    lineup: Sequence[Policy],
    hands: Sequence[Counter[Tile]],
    steps: list[Step],
    decisions: list[int],
    holds: list[int],
    solving: float,
) -> Outcome:
    assert state.winner is not None and state.finish is not None
    scores = []
    for seat in range(len(hands)):
        p = state.player(user(seat))
        assert p is not None and p.score is not None
        scores.append(p.score)
    return Outcome(
        lineup=tuple(p.name for p in lineup),
        finish=state.finish,
        winner=state.winner - 1,
        scores=tuple(scores),
        left=tuple(tuple(sorted(h.elements(), key=state.rules.tile_key)) for h in hands),
        decisions=tuple(decisions),
        holds=tuple(holds),
        steps=tuple(steps),
        solve_s=solving,
        final=state,
    )


def replay(rules: Rules, dealt: Deal, steps: Sequence[Step]) -> GameState:
    """Play recorded steps again through the core from the deal, each checked as the simulator checks it
    (the plays given as whole tables, traced by the core as a typed table is), and score the game."""
    state = start(rules, dealt)
    hands = [Counter(rack) for rack in dealt.racks]
    pool = list(reversed(dealt.pool))
    check(state, hands, len(pool), "the deal")
    for n, step in enumerate(steps, start=1):
        uid = user(step.seat)
        if state.turn != uid:
            raise SelfPlayError(f"step {n} is seat {step.seat + 1}'s, but the turn is {state.turn}'s")
        if step.kind is StepKind.PLAY:
            played = plays.play(state, uid, uid, step.table, now=EPOCH)
            hands[step.seat] -= Counter(played.placed)
            state = played.state
        elif step.kind is StepKind.DRAW:
            tile = pool.pop()
            if (tile,) != step.tiles:
                raise SelfPlayError(f"step {n} drew {step.tiles}, the pool gives {tile}")
            state = turns.draw(state, uid, [tile]).state
            hands[step.seat][tile] += 1
        else:
            state = turns.pass_turn(state, uid).state
        check(state, hands, len(pool), f"step {n}")
    if state.playing:
        raise SelfPlayError("the steps end before the game does")
    state = finish(state, hands)
    check(state, hands, len(pool), "the scoring")
    return state
