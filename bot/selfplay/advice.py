"""When to hold back: the coach's advice to keep tiles of the best play on the rack, in one sentence.

The best play lays the most tiles (the solver as it is). Laying everything at once is not always best: tiles
on the table are everyone's to rearrange once they have opened, while tiles on the rack are the player's
alone, and a rack that grows keeps more ways to lay it all later. Self-play measured what to keep against
players who lay the most every turn (``BENCHMARKS.md``, self-play; ``bot.selfplay``), and the advice as it
ships (``HOLD_BACK``) is what won:

- the opening lays the fewest tiles that make the initial meld (of the best opening's sets), the other sets
  stay on the rack;
- after it, nothing goes down until it all goes down: the player draws and keeps the play back, and lays
  the play that empties the rack when there is one. The others never get a tile of the player's to play
  with, and every draw gives the player more ways to lay the whole rack at once.

It never holds back the play that goes out, nor once the pool is empty (a blocked game is won by the lowest
rack). Gentler leanings were measured too and stay here for the record (``Leaning``): keeping only the sets
made of one's own tiles (a new set with no table tile in it can be laid on any later turn), with or without
a draw when nothing else goes down, the joker, only while no one else has opened. Each piece of advice says
why in one sentence (``Advice.text``, a template and its values for the chat to translate), to be shown
under the best play when the two differ. The advice is a pure function of what the player sees (``View``):
their own rack, the table, the others' rack counts and whether they have opened, and the pool's count.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from bot.game.plays import opening_due
from bot.game.state import GameState
from solver.notation import format_tiles
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Solution, table_points
from solver.solve import DEFAULT_TIME_LIMIT, solve
from solver.text import Text, say
from solver.tiles import Tile


@dataclass(frozen=True, slots=True)
class Other:
    """Another player as everyone sees them: how many tiles their rack holds, and whether they have opened."""

    rack_size: int
    melded: bool


@dataclass(frozen=True, slots=True)
class View:
    """A position as the player to move sees it. ``others``: the other players in turn order (the next one
    first); ``melded``: the player has made the initial meld (what they lay now is not an opening)."""

    rules: Rules
    rack: tuple[Tile, ...]
    table: tuple[TileSet, ...]
    melded: bool
    others: tuple[Other, ...]
    pool: int

    @property
    def others_opened(self) -> bool:
        """Whether any other player has made their initial meld."""
        return any(o.melded for o in self.others)


def view_of(state: GameState, user_id: int, rack: Sequence[Tile] | None = None) -> View:
    """The game as ``user_id`` sees it: their rack (the one the bot knows, or ``rack``), the table, the other
    seated players from the next seat on, and the pool's count."""
    me = state.player(user_id)
    if me is None:
        raise ValueError(f"{user_id} does not play in this game")
    seated = sorted(state.active_players, key=lambda p: p.seat)
    at = next(k for k, p in enumerate(seated) if p.user_id == user_id)
    others = tuple(Other(p.rack_size, p.melded) for p in seated[at + 1 :] + seated[:at])
    return View(
        rules=state.rules,
        rack=tuple(me.rack if rack is None else rack),
        table=state.table,
        melded=not opening_due(state, user_id),
        others=others,
        pool=state.pool,
    )


class Reason(Enum):
    """Why the advice keeps tiles back (each reason is one sentence)."""

    #: an opening: the meld needs only some of the sets
    OPENING = "opening"
    #: the whole play, until it goes out: a draw instead
    HOARD = "hoard"
    #: sets of one's own tiles while nobody else has opened (a gentler leaning)
    UNOPENED = "unopened"
    #: sets of one's own tiles (a gentler leaning)
    SETS = "sets"
    #: sets of one's own tiles, and a draw as nothing else goes down (a gentler leaning)
    DRAW = "draw"
    #: the joker, the rest of the play going down without it (a gentler leaning)
    JOKER = "joker"


@dataclass(frozen=True, slots=True)
class Advice:
    """Keep ``keep`` (tiles the best play lays) on the rack and lay ``play`` instead (None: draw), because of
    ``reason``, said in ``text`` (the chat translates it)."""

    keep: tuple[Tile, ...]
    play: Solution | None
    reason: Reason
    text: Text


@dataclass(frozen=True, slots=True)
class Leaning:
    """What the advice holds back (the self-play measured each; ``HOLD_BACK`` is the advice as it ships).

    ``opening``: open with the fewest tiles that make the meld; ``hoard``: after the opening keep the whole
    play back (draw) until it goes out; ``closed``: keep the opening back too, until it goes out. The gentler
    leanings, when not hoarding: ``sets``: keep the sets of one's own tiles while something else goes down
    (with nothing else, the smallest goes down); ``draw``: draw rather than lay a kept set; ``unopened_only``:
    keep sets only while no one else has opened; ``joker``: keep the joker where the rest goes down without
    it. And for all: ``danger``: lay everything once another rack holds at most this many tiles (0: never);
    ``pool``: lay everything once the pool holds at most this many tiles (0: once it is empty).
    """

    opening: bool = True
    hoard: bool = True
    closed: bool = False
    sets: bool = False
    draw: bool = False
    unopened_only: bool = False
    joker: bool = False
    danger: int = 0
    pool: int = 0


HOLD_BACK = Leaning()
#: the gentlest leaning measured: keep the sets of one's own tiles while something else goes down
KEEP_SETS = Leaning(hoard=False, sets=True)


def best_play(view: View, time_limit: float = DEFAULT_TIME_LIMIT) -> Solution:
    """The solver's play for the view: the most tiles (an opening while the player has not melded)."""
    return solve(view.rack, view.table, view.rules, initial_meld=not view.melded, time_limit=time_limit)


def hold_back(
    view: View,
    best: Solution | None = None,
    leaning: Leaning = HOLD_BACK,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Advice | None:
    """The hold-back advice for ``view``, or None when the best play (``best``, solved when not given) is the
    play to make: lay it all."""
    if best is None:
        best = best_play(view, time_limit)
    if not best.has_play or not best.rack_left or view.pool <= leaning.pool:
        return None
    if leaning.danger and any(o.rack_size <= leaning.danger for o in view.others):
        return None
    if leaning.closed or (leaning.hoard and view.melded):
        return _advice(best.placed, None, Reason.HOARD, view)
    if not view.melded:
        return _opening(view, best) if leaning.opening else None
    own = own_sets(best)
    held = own if leaning.sets and not (leaning.unopened_only and view.others_opened) else []
    if leaning.joker:
        advice = _without_joker(view, best, held, time_limit)
        if advice is not None:
            return advice
    if not held:
        return None
    play = without(best, held)
    if not play.has_play:
        if leaning.draw:
            return _advice(best.placed, None, Reason.DRAW, view)
        if len(held) == 1:
            return None
        # nothing else goes down: lay the smallest set (the least for the others), keep the rest
        lay = min(held, key=lambda i: (len(best.table[i]), -best.table[i].value))
        held = [i for i in held if i != lay]
        play = without(best, held)
    reason = Reason.SETS if view.others_opened else Reason.UNOPENED
    return _advice(_tiles(best, held), play, reason, view)


def own_sets(best: Solution) -> list[int]:
    """The new sets of the play made of rack tiles alone (their positions in ``best.table``)."""
    return [
        i
        for i, (origin, row) in enumerate(zip(best.kept_from, best.origins, strict=True))
        if origin is None and all(o.from_rack for o in row)
    ]


def without(best: Solution, drop: Sequence[int]) -> Solution:
    """``best`` without the new sets at ``drop`` (sets of rack tiles alone): their tiles stay on the rack. It is
    the best play of the rack less those tiles (no play of it could lay more, or ``best`` would)."""
    gone = set(drop)
    keep = [i for i in range(len(best.table)) if i not in gone]
    table = tuple(best.table[i] for i in keep)
    back: Counter[Tile] = Counter()
    for i in gone:
        back.update(best.table[i].tiles)
    placed = Counter(best.placed) - back
    rules = best.rules
    origins = tuple(best.origins[i] for i in keep)
    kept_from = tuple(best.kept_from[i] for i in keep)
    return replace(
        best,
        table=table,
        origins=origins,
        kept_from=kept_from,
        placed=tuple(sorted(placed.elements(), key=rules.tile_key)),
        rack_left=tuple(sorted((Counter(best.rack_left) + back).elements(), key=rules.tile_key)),
        points_placed=table_points(table, list(placed.elements()), origins, kept_from),
    )


def _opening(view: View, best: Solution) -> Advice | None:
    """The opening with the fewest tiles that still make the meld (of the best opening's sets), the others
    kept: fewest tiles, then the fewest jokers, then the most points (what is kept costs less at the end)."""
    fresh = [i for i, origin in enumerate(best.kept_from) if origin is None]
    needed = view.rules.initial_meld
    choices = [
        lay
        for size in range(1, len(fresh))
        for lay in itertools.combinations(fresh, size)
        if sum(best.table[i].value for i in lay) >= needed
    ]
    if not choices:
        return None
    lay = min(
        choices,
        key=lambda c: (
            sum(len(best.table[i]) for i in c),
            sum(best.table[i].jokers for i in c),
            -sum(best.table[i].value for i in c),
        ),
    )
    held = [i for i in fresh if i not in lay]
    play = without(best, held)
    return _advice(_tiles(best, held), play, Reason.OPENING, view, points=play.points_placed)


def _without_joker(view: View, best: Solution, held: list[int], time_limit: float) -> Advice | None:
    """Keep the jokers the play lays outside the kept sets, where the rest still goes down without them."""
    kept = _tiles(best, held)
    loose = [t for t in best.placed if t.is_joker]
    for t in kept:
        if t.is_joker:
            loose.remove(t)
    if not loose:
        return None
    rest = Counter(view.rack) - Counter(kept) - Counter(loose)
    reduced = solve(tuple(rest.elements()), view.table, view.rules, time_limit=time_limit)
    if not reduced.has_play:
        return None
    keep = Counter(best.placed) - Counter(reduced.placed)
    return _advice(tuple(keep.elements()), reduced, Reason.JOKER, view)


def _tiles(best: Solution, sets: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(t for i in sets for t in best.table[i].tiles)


def _advice(keep: Sequence[Tile], play: Solution | None, reason: Reason, view: View, points: int = 0) -> Advice:
    kept = tuple(sorted(keep, key=view.rules.tile_key))
    return Advice(kept, play, reason, _sentence(reason, format_tiles(kept, view.rules), points))


def _sentence(reason: Reason, tiles: str, points: int) -> Text:
    """The advice in one sentence (English; the chat translates the template and fills in the values)."""
    if reason is Reason.OPENING:
        return say(
            "Keep {tiles} back: {points} points are enough to open, and you can lay the rest on any later turn",
            tiles=tiles,
            points=points,
        )
    if reason is Reason.HOARD:
        return say(
            "Keep {tiles} back and draw: on your rack the others cannot play with them, "
            "and with more tiles you can lay them all at once to go out",
            tiles=tiles,
        )
    if reason is Reason.UNOPENED:
        return say("Keep {tiles} back: no one else has opened and you can still lay them later", tiles=tiles)
    if reason is Reason.SETS:
        return say(
            "Keep {tiles} back: you can still lay them later, and on the table the others could play with them",
            tiles=tiles,
        )
    if reason is Reason.JOKER:
        return say(
            "Keep {tiles} back: the joker fits almost anywhere later, and on the table the others could take it",
            tiles=tiles,
        )
    return say(
        "Keep {tiles} back and draw: you can still lay them later, and on the table the others could play with them",
        tiles=tiles,
    )
