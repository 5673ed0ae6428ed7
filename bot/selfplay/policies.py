"""The players the simulator seats: each turn, from what the player sees, a play or a draw.

``greedy`` is the solver as it is: the most tiles every turn (the opening as soon as there is one), a draw
when there is no play. ``holdback`` plays the best play unless the hold-back advice (``advice.hold_back``)
says to keep some of it back (and draws when it keeps it all). The other names are the leanings of the
advice the measurement tried (``advice.Leaning``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from bot.selfplay.advice import HOLD_BACK, Leaning, View, best_play, hold_back
from solver.solution import Solution
from solver.solve import DEFAULT_TIME_LIMIT
from solver.tiles import Tile


@dataclass(frozen=True, slots=True)
class Decision:
    """What a player does: lay ``play`` (None: draw, or pass on an empty pool). ``best``: the most tiles the
    player could lay; ``held``: tiles of it kept back on purpose."""

    play: Solution | None
    best: Solution
    held: tuple[Tile, ...] = ()


class Policy(Protocol):
    @property
    def name(self) -> str: ...

    def decide(self, view: View, time_limit: float = DEFAULT_TIME_LIMIT) -> Decision: ...


@dataclass(frozen=True, slots=True)
class Greedy:
    """Lay the most tiles every turn."""

    name: str = "greedy"

    def decide(self, view: View, time_limit: float = DEFAULT_TIME_LIMIT) -> Decision:
        best = best_play(view, time_limit)
        return Decision(best if best.has_play else None, best)


@dataclass(frozen=True, slots=True)
class HoldBack:
    """Lay the best play, or what the hold-back advice leaves of it."""

    name: str = "holdback"
    leaning: Leaning = HOLD_BACK

    def decide(self, view: View, time_limit: float = DEFAULT_TIME_LIMIT) -> Decision:
        best = best_play(view, time_limit)
        if not best.has_play:
            return Decision(None, best)
        advice = hold_back(view, best, self.leaning, time_limit=time_limit)
        if advice is None:
            return Decision(best, best)
        return Decision(advice.play, best, advice.keep)


def _variants() -> dict[str, Policy]:
    sets = Leaning(hoard=False, sets=True)
    named: dict[str, Leaning] = {
        "holdback": HOLD_BACK,
        # the leanings measured on the way (BENCHMARKS.md, self-play)
        "holdback-closed": Leaning(closed=True),
        "keep-opening": Leaning(hoard=False),
        "keep-sets": sets,
        "keep-sets-fullopening": replace(sets, opening=False),
        "keep-sets-joker": replace(sets, joker=True),
        "keep-sets-unopened": replace(sets, unopened_only=True),
        "keep-sets-draw": replace(sets, draw=True),
        "keep-sets-draw-joker": replace(sets, draw=True, joker=True),
        "keep-sets-draw-unopened": replace(sets, draw=True, unopened_only=True),
        "keep-sets-draw-fullopening": replace(sets, draw=True, opening=False),
        "keep-sets-draw-danger3": replace(sets, draw=True, danger=3),
        "keep-sets-draw-danger5": replace(sets, draw=True, danger=5),
    }
    policies: dict[str, Policy] = {"greedy": Greedy()}
    policies.update({name: HoldBack(name, leaning) for name, leaning in named.items()})
    return policies


POLICIES: dict[str, Policy] = _variants()


def policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"no policy {name!r} (known: {', '.join(POLICIES)})") from None
