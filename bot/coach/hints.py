"""Graded hints: the least first, each level one step more, every level read off the one solved answer.

1. whether there is a play and how many tiles it lays ("You can lay 4 tiles"); an opening that needs the
   initial meld says so ("You can open with 3 tiles (33 points)", "No opening of 30 points yet: draw");
2. where to look, without the arrangement: the rack's tiles by the sets they go into (a group's number,
   "your 7s"; a run's colour, "your blue tiles"; "your joker") and the table sets the play touches, by kind and
   number ("the blue run (set 3)");
3. which rack tiles go down;
4. the whole play: not here (``hint`` answers None), the chat shows the answer as it always has.

All levels come from one ``Solution`` (solved for the player's rack and table, the initial meld as
``bot.game.plays.opening_due`` says), so a hint never promises a play that is not there, and asking again
gives the same hint. Where the tiles come from and go is the move planner's story (``solver.flows.assign``,
the first half of ``solver.planner``), so level 2 names the same sets the moves of level 4 name. It costs
no search: a fraction of a millisecond on a full table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.coach.words import colour_tiles, jokers_words, listed, number_tiles, set_words, tiles_words
from solver.flows import Flows, assign
from solver.sets import Kind
from solver.solution import Solution
from solver.text import Text, counted, say
from solver.tiles import Colour, Tile

#: the levels answered here; the next one is the whole play
LEVELS = 3


@dataclass(frozen=True, slots=True)
class Look:
    """Rack tiles named together at level 2: those of ``number`` going into groups ("your 7s"), those of
    ``colour`` going into runs ("your blue tiles"), or (neither) the jokers."""

    number: int | None = None
    colour: Colour | None = None

    @property
    def jokers(self) -> bool:
        return self.number is None and self.colour is None

    def matches(self, t: Tile) -> bool:
        """Whether ``t`` is one of the tiles this look names."""
        if self.jokers:
            return t.is_joker
        if t.is_joker:
            return False
        return t.number == self.number if self.number is not None else t.colour is self.colour

    def text(self, jokers_on_rack: int) -> Text:
        if self.number is not None:
            return number_tiles(self.number)
        if self.colour is not None:
            return colour_tiles(self.colour)
        return jokers_words(jokers_on_rack)


@dataclass(frozen=True, slots=True)
class Hint:
    """One level of a hint and what it tells.

    ``tiles``: how many tiles the play lays (0: there is none); ``opening``: it must be an initial meld, of
    ``points`` points (0 when it is not one); ``proven``: the solver proved no play lays more. From level 2:
    ``looks``, the rack's tiles by the sets they go into, and ``sets``, the table sets the play touches (the
    game's numbers). At level 3: ``placed``, the rack tiles that go down. A level holds everything the levels
    before it told (``facts``), and its ``text`` says what it adds.
    """

    level: int
    text: Text
    tiles: int
    opening: bool
    points: int
    proven: bool
    looks: tuple[Look, ...] = ()
    sets: tuple[int, ...] = ()
    placed: tuple[Tile, ...] = ()

    def facts(self) -> frozenset[tuple[object, ...]]:
        """What this hint tells, as comparable facts: each level tells all the one before it did, and more."""
        told: set[tuple[object, ...]] = {
            ("tiles", self.tiles),
            ("opening", self.opening),
            ("points", self.points),
            ("proven", self.proven),
        }
        told.update(("look", look.number, look.colour) for look in self.looks)
        told.update(("set", n) for n in self.sets)
        told.update(("placed", t, n) for t, n in Counter(self.placed).items())
        return frozenset(told)


def hints(solution: Solution, numbers: Sequence[int] | None = None) -> tuple[Hint, ...]:
    """Every level this answer has before the whole play: levels 1 to 3 with a play, level 1 alone without.

    ``numbers``: the game's numbers of the old table's sets (``GameState.numbers``, beside
    ``solution.table_before``); 1, 2, ... when not given.
    """
    first = _first(solution)
    if not solution.has_play:
        return (first,)
    flows = assign(solution.table_before, solution.table, solution.placed, solution.kept_from)
    looks = looks_of(solution, flows)
    old = _numbers(solution, numbers)
    # the sets touched, by their game numbers, each with its words ("the blue run (set 3)")
    named = sorted((old[i], set_words(solution.table_before[i], old[i])) for i in touched(flows))
    sets = tuple(n for n, _ in named)
    jokers = sum(1 for t in (*solution.placed, *solution.rack_left) if t.is_joker)
    where = listed([look.text(jokers) for look in looks] + [words for _, words in named])
    second = Hint(
        2, say("Look at {where}", where=where), first.tiles, first.opening, first.points, first.proven, looks, sets
    )
    placed = tuple(sorted(solution.placed, key=solution.rules.tile_key))
    laid = tiles_words(placed, solution.rules)
    if first.opening:
        text = say("Open with {tiles} from your rack", tiles=laid)
    elif named:
        text = say("Lay {tiles} from your rack, using {sets}", tiles=laid, sets=listed([w for _, w in named]))
    else:
        text = say("Lay {tiles} from your rack as new sets", tiles=laid)
    third = Hint(3, text, first.tiles, first.opening, first.points, first.proven, looks, sets, placed)
    return (first, second, third)


def hint(solution: Solution, level: int, numbers: Sequence[int] | None = None) -> Hint | None:
    """The hint at ``level`` (1 the least), or None past the last one: then the chat shows the whole play."""
    if level < 1:
        raise ValueError(f"hint levels start at 1, not {level}")
    levels = hints(solution, numbers)
    return levels[level - 1] if level <= len(levels) else None


def touched(flows: Flows) -> tuple[int, ...]:
    """The old sets (0-based) a play changes: tiles leave them, or come into the sets that continue them."""
    found = {f.source for f in flows.flows if f.source is not None}
    found.update(i for f in flows.flows if (i := flows.identity[f.target]) is not None)
    return tuple(sorted(found))


def looks_of(solution: Solution, flows: Flows | None = None) -> tuple[Look, ...]:
    """The rack's placed tiles by the sets they go into: a group's number, a run's colour, the jokers; in that
    order (numbers rising, colours in the rules' order, jokers last)."""
    if flows is None:
        flows = assign(solution.table_before, solution.table, solution.placed, solution.kept_from)
    found: set[Look] = set()
    for f in flows.flows:
        if f.source is not None:
            continue
        into = solution.table[f.target]
        for t in f.tiles:
            if t.is_joker:
                found.add(Look())
            elif into.kind is Kind.GROUP:
                found.add(Look(number=t.number))
            else:
                found.add(Look(colour=t.colour))
    rules = solution.rules

    def order(look: Look) -> tuple[int, int]:
        if look.number is not None:
            return (0, look.number)
        if look.colour is not None:
            return (1, rules.colour_rank(look.colour) if look.colour in rules.colour_order else len(rules.palette))
        return (2, 0)

    return tuple(sorted(found, key=order))


def _numbers(solution: Solution, numbers: Sequence[int] | None) -> Sequence[int]:
    if numbers is None:
        return range(1, len(solution.table_before) + 1)
    if len(numbers) != len(solution.table_before):
        raise ValueError(f"{len(numbers)} set numbers for a table of {len(solution.table_before)} sets")
    return numbers


def _first(solution: Solution) -> Hint:
    rules = solution.rules
    n = solution.tiles_placed
    opening = solution.initial_meld
    points = solution.points_placed if opening and n else 0
    proven = solution.optimal
    if opening and n:
        if proven:
            text = counted(
                "You can open with {n} tile ({points} points)",
                "You can open with {n} tiles ({points} points)",
                n,
                points=points,
            )
        else:
            text = counted(
                "You can open with at least {n} tile ({points} points)",
                "You can open with at least {n} tiles ({points} points)",
                n,
                points=points,
            )
    elif n:
        if proven:
            text = counted("You can lay {n} tile", "You can lay {n} tiles", n)
        else:
            text = counted("You can lay at least {n} tile", "You can lay at least {n} tiles", n)
    elif not proven:
        text = say("No play found in the time allowed; there may still be one")
    elif opening:
        text = counted("No opening of {n} point yet: draw", "No opening of {n} points yet: draw", rules.initial_meld)
    else:
        text = say("No play yet: draw")
    return Hint(1, text, n, opening, points, proven)
