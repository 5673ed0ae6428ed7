"""The tiles a player has not seen, and their outs: which tiles, drawn, would let them play (or play more).

Unseen: the deck less the table less the player's own rack, by tile; they are in the pool or on the other
racks (``GameState.pool`` and the others' ``rack_size``), and to the player each unseen tile is as likely as
any other to be the next one drawn (a player cannot tell the pool's tiles from the other racks').

Outs: for each unseen kind of tile, the best play with that tile added to the rack is solved (``solver.solve``,
most tiles; before the opening, the best initial meld). A kind is an out when it lets more tiles down than the
rack does now (before the opening: any meld, when there is none now). One solve per kind, and one for the
rack as it is (or the chat's answer, when it has one). They go in batches (``Probe``, a plain picklable value;
one batch a process), and ``probe`` (a module function) solves one, so the chat can run them in its process
pool (``map_with``: any ``map``-like function, ``ProcessPoolExecutor.map`` included; ``parts``: the batches).

The odds are hypergeometric over the unseen tiles: with ``K`` of the ``U`` unseen tiles outs and ``d`` draws
(no more than the pool holds), P(at least one out) = 1 - C(U-K, d) / C(U, d). Drawn by the player alone,
turn after turn, as the player sees it: what the others draw and lay between two turns is not known to them.
Every solve is time-limited: one that is not proven best (``Probed.optimal``) marks the answer as "best found".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.coach.errors import CoachError
from bot.coach.words import COLOUR_LINE, either, percent
from bot.game.plays import opening_due
from bot.game.state import GameState
from solver.deck import check_deck
from solver.rules import Rules
from solver.sets import TileSet, tiles_of
from solver.solution import Objective, Solution
from solver.solve import solve
from solver.text import N_, Text, counted, say
from solver.tiles import JOKER, Colour, Tile

#: the time one solve of the outs may take (the answer is marked "best found" past it)
PROBE_TIME_LIMIT = 2.0

#: ``map``, or a pool's: applies ``probe`` to each batch and yields the results in order
MapWith = Callable[[Callable[["Probe"], tuple["Probed", ...]], Sequence["Probe"]], Iterable[tuple["Probed", ...]]]


def unseen_tiles(rules: Rules, table: Iterable[TileSet], rack: Iterable[Tile]) -> Counter[Tile]:
    """The deck less the table's tiles less the rack's, by tile (jokers included); ``DeckError`` if the table
    and rack hold more of a tile than the deck."""
    seen = tiles_of(table)
    seen.update(rack)
    check_deck(rules, seen.elements())
    out: Counter[Tile] = Counter()
    for t in [*rules.tiles(), JOKER]:
        left = rules.copies_of(t) - seen[t]
        if left > 0:
            out[t] = left
    return out


@dataclass(frozen=True, slots=True)
class Unseen:
    """The tiles a player has not seen: each kind and how many (``tiles``, in the rules' order), and where
    they are: ``pool`` face down, ``on_racks`` on the other players' racks."""

    rules: Rules
    tiles: tuple[tuple[Tile, int], ...]
    pool: int
    on_racks: int

    @property
    def total(self) -> int:
        return sum(n for _, n in self.tiles)

    def counter(self) -> Counter[Tile]:
        return Counter(dict(self.tiles))

    def by_colour(self) -> tuple[tuple[Colour | None, tuple[tuple[int, int], ...]], ...]:
        """For a picture: each colour in the rules' order, then the joker (None), with (number, copies) unseen;
        a colour with none unseen is left out (the joker's number is 0)."""
        out: list[tuple[Colour | None, tuple[tuple[int, int], ...]]] = []
        for colour in (*self.rules.colour_order, None):
            row = tuple((t.number, n) for t, n in self.tiles if t.colour is colour)
            if row:
                out.append((colour, row))
        return tuple(out)

    def text(self) -> Text:
        """ "61 tiles unseen: 40 in the pool, 21 on the other racks"."""
        return counted(
            "{n} tile unseen: {pool} in the pool, {racks} on the other racks",
            "{n} tiles unseen: {pool} in the pool, {racks} on the other racks",
            self.total,
            pool=self.pool,
            racks=self.on_racks,
        )

    def lines(self) -> tuple[Text, ...]:
        """The unseen tiles in words, a line a colour ("red: 1R 2R 2R 5R"), the jokers last ("jokers: J")."""
        out = []
        for colour, row in self.by_colour():
            tiles = " ".join(str(Tile(number, colour)) for number, n in row for _ in range(n))
            if colour is None:
                jokers = sum(n for _, n in row)
                out.append(counted("joker: {tiles}", "jokers: {tiles}", jokers, tiles=tiles))
            else:
                out.append(say(COLOUR_LINE[colour], tiles=tiles))
        return tuple(out)


def unseen_of(state: GameState, player: int) -> Unseen:
    """What ``player`` has not seen in this game: the deck less the table less their rack, with the pool's count
    and the other racks' (``CoachError`` when the bot does not know their whole rack: then it cannot tell)."""
    p = state.player(player)
    if p is None or not p.active:
        raise CoachError(N_("you are not playing in this game"))
    if not p.rack_known:
        raise CoachError(
            counted(
                "I know only {known} of the {n} tile on your rack: send your rack (/rack) and ask again",
                "I know only {known} of the {n} tiles on your rack: send your rack (/rack) and ask again",
                p.rack_size,
                known=len(p.rack),
            )
        )
    tiles = unseen_tiles(state.rules, state.table, p.rack)
    others = sum(q.rack_size for q in state.active_players if q.user_id != player)
    order = sorted(tiles, key=state.rules.tile_key)
    return Unseen(state.rules, tuple((t, tiles[t]) for t in order), state.pool, others)


@dataclass(frozen=True, slots=True)
class Probe:
    """A batch of the outs' solves: for each of ``tiles``, the rack with that tile added (None: the rack as it
    is), on ``table``. A plain value that pickles with its table once, whatever the batch's size."""

    rack: tuple[Tile, ...]
    table: tuple[TileSet, ...]
    rules: Rules
    initial_meld: bool
    tiles: tuple[Tile | None, ...]
    time_limit: float = PROBE_TIME_LIMIT


@dataclass(frozen=True, slots=True)
class Probed:
    """What a solve found: the most tiles the rack (with ``tile``) lays, and whether that is proven best."""

    tile: Tile | None
    tiles: int
    optimal: bool


def probe(job: Probe) -> tuple[Probed, ...]:
    """Solve a batch (most tiles), tile by tile. A module function of plain values: it runs in a process pool."""
    out = []
    for t in job.tiles:
        rack = job.rack if t is None else (*job.rack, t)
        found = solve(
            rack,
            job.table,
            job.rules,
            objective=Objective.TILES,
            initial_meld=job.initial_meld,
            time_limit=job.time_limit,
        )
        out.append(Probed(t, found.tiles_placed, found.optimal))
    return tuple(out)


def probes(
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    rules: Rules,
    unseen: Unseen,
    *,
    initial_meld: bool,
    now: bool = True,
    parts: int = 1,
    time_limit: float = PROBE_TIME_LIMIT,
) -> list[Probe]:
    """The solves the outs need, in at most ``parts`` batches (one a process: a pool then gets as many calls as
    it has processes): the rack as it is (unless ``now`` is False: the caller has it), then one per unseen kind
    of tile, in the rules' order, dealt round the batches in turn (the jokers, the slowest, last)."""
    kinds: list[Tile | None] = [None] if now else []
    kinds.extend(t for t, _ in unseen.tiles)
    parts = max(1, min(parts, len(kinds)))
    base = (tuple(rack), tuple(table), rules, initial_meld)
    return [Probe(*base, tiles=tuple(kinds[k::parts]), time_limit=time_limit) for k in range(parts)]


@dataclass(frozen=True, slots=True)
class Out:
    """A kind of tile that, drawn, lets ``tiles`` tiles down; ``copies`` of it are unseen."""

    tile: Tile
    copies: int
    tiles: int


@dataclass(frozen=True, slots=True)
class Outs:
    """The outs of a rack and table for a player.

    ``now``: the tiles the rack lays as it is; ``opening``: the play must be an initial meld; ``outs``: each
    kind of tile that would let more down (best first, then in the rules' order); ``unseen`` and ``pool`` as
    counted; ``next_draw`` and ``two_draws``: the chance of at least one out on the next draw and within two;
    ``proven``: every solve was proven best (otherwise the figures are the best found in the time).
    """

    now: int
    opening: bool
    outs: tuple[Out, ...]
    unseen: int
    pool: int
    next_draw: Fraction
    two_draws: Fraction
    proven: bool

    @property
    def count(self) -> int:
        """The unseen tiles that are outs (each copy counts)."""
        return sum(o.copies for o in self.outs)

    @property
    def best(self) -> tuple[Out, ...]:
        """The outs that let the most tiles down (more than one when they tie)."""
        if not self.outs:
            return ()
        most = self.outs[0].tiles
        return tuple(o for o in self.outs if o.tiles == most)

    def lines(self) -> tuple[Text, ...]:
        """ "9 of 61 unseen tiles would let you play; 15% on your next draw, 28% within two draws", the best out,
        and (when a solve ran out of time) that these are the best found."""
        out: list[Text] = []
        if self.pool == 0:
            out.append(say("The pool is empty: there is no tile to draw"))
        elif not self.outs:
            out.append(self._none())
        else:
            out.append(self._some())
        if self.outs and self.pool:
            best = self.best
            tiles = either([str(o.tile) for o in best])
            n = best[0].tiles
            if self.opening:
                out.append(
                    counted(
                        "Best: {tiles}, to open with {n} tile", "Best: {tiles}, to open with {n} tiles", n, tiles=tiles
                    )
                )
            else:
                out.append(counted("Best: {tiles}, to lay {n} tile", "Best: {tiles}, to lay {n} tiles", n, tiles=tiles))
        if not self.proven:
            out.append(say("Not every draw was worked out to the end in the time allowed: these are the best found"))
        return tuple(out)

    def _none(self) -> Text:
        if self.opening and self.now:
            return counted(
                "None of the {n} unseen tile would let you open with more tiles",
                "None of the {n} unseen tiles would let you open with more tiles",
                self.unseen,
            )
        if self.opening:
            return counted(
                "None of the {n} unseen tile would let you open",
                "None of the {n} unseen tiles would let you open",
                self.unseen,
            )
        if self.now:
            return counted(
                "None of the {n} unseen tile would let you lay more",
                "None of the {n} unseen tiles would let you lay more",
                self.unseen,
            )
        return counted(
            "None of the {n} unseen tile would let you play",
            "None of the {n} unseen tiles would let you play",
            self.unseen,
        )

    def _some(self) -> Text:
        """The outs and the odds; the words agree with the number of outs ({n})."""
        values = {"unseen": self.unseen, "next": percent(self.next_draw), "two": percent(self.two_draws)}
        if self.opening and self.now:
            return counted(
                "{n} of {unseen} unseen tiles would let you open with more tiles; {next}% on your next draw, "
                "{two}% within two draws",
                "{n} of {unseen} unseen tiles would let you open with more tiles; {next}% on your next draw, "
                "{two}% within two draws",
                self.count,
                **values,
            )
        if self.opening:
            return counted(
                "{n} of {unseen} unseen tiles would let you open; {next}% on your next draw, {two}% within two draws",
                "{n} of {unseen} unseen tiles would let you open; {next}% on your next draw, {two}% within two draws",
                self.count,
                **values,
            )
        if self.now:
            return counted(
                "{n} of {unseen} unseen tiles would let you lay more; {next}% on your next draw, "
                "{two}% within two draws",
                "{n} of {unseen} unseen tiles would let you lay more; {next}% on your next draw, "
                "{two}% within two draws",
                self.count,
                **values,
            )
        return counted(
            "{n} of {unseen} unseen tiles would let you play; {next}% on your next draw, {two}% within two draws",
            "{n} of {unseen} unseen tiles would let you play; {next}% on your next draw, {two}% within two draws",
            self.count,
            **values,
        )


def chance(unseen: int, outs: int, pool: int, draws: int) -> Fraction:
    """P(at least one out in ``draws`` draws), the draws uniform over the ``unseen`` tiles without replacement and
    no more of them than the ``pool`` holds: 1 - C(unseen - outs, d) / C(unseen, d)."""
    d = min(draws, pool, unseen)
    if d <= 0 or outs <= 0:
        return Fraction(0)
    return 1 - Fraction(math.comb(unseen - outs, d), math.comb(unseen, d))


def summarise(unseen: Unseen, found: Sequence[Probed], *, initial_meld: bool, now: Probed | None = None) -> Outs:
    """The outs from the probes' results (the rack as it is among them, or given as ``now``)."""
    base = now if now is not None else next((p for p in found if p.tile is None), None)
    if base is None:
        raise ValueError("the rack as it is was not probed")
    copies = dict(unseen.tiles)
    rules = unseen.rules
    outs = [
        Out(p.tile, copies[p.tile], p.tiles)
        for p in found
        if p.tile is not None and p.tiles > base.tiles and copies.get(p.tile, 0) > 0
    ]
    outs.sort(key=lambda o: (-o.tiles, rules.tile_key(o.tile)))
    count = sum(o.copies for o in outs)
    return Outs(
        now=base.tiles,
        opening=initial_meld,
        outs=tuple(outs),
        unseen=unseen.total,
        pool=unseen.pool,
        next_draw=chance(unseen.total, count, unseen.pool, 1),
        two_draws=chance(unseen.total, count, unseen.pool, 2),
        proven=base.optimal and all(p.optimal for p in found),
    )


def outs(
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    rules: Rules,
    unseen: Unseen,
    *,
    initial_meld: bool,
    now: Solution | None = None,
    map_with: MapWith = map,
    parts: int = 1,
    time_limit: float = PROBE_TIME_LIMIT,
) -> Outs:
    """Every unseen kind of tile tried by solving with it added (and the rack as it is, unless ``now``, the
    chat's answer for this rack and table solved for most tiles, is given), in ``parts`` batches run by
    ``map_with`` (``map`` here; in the chat a process pool's ``map``, ``parts`` its processes)."""
    if now is not None and (now.initial_meld != initial_meld or now.objective is not Objective.TILES):
        now = None  # another question's answer: the tiles it lays are not this one's
    jobs = probes(
        rack, table, rules, unseen, initial_meld=initial_meld, now=now is None, parts=parts, time_limit=time_limit
    )
    found = [p for batch in map_with(probe, jobs) for p in batch]
    base = None if now is None else Probed(None, now.tiles_placed, now.optimal)
    return summarise(unseen, found, initial_meld=initial_meld, now=base)


def outs_of(
    state: GameState,
    player: int,
    *,
    now: Solution | None = None,
    map_with: MapWith = map,
    parts: int = 1,
    time_limit: float = PROBE_TIME_LIMIT,
) -> tuple[Unseen, Outs]:
    """``unseen_of`` and ``outs`` for a player of a game: their rack, the table, the opening as the game says."""
    seen = unseen_of(state, player)
    p = state.player(player)
    assert p is not None
    meld = opening_due(state, player)
    found = outs(
        p.rack,
        state.table,
        state.rules,
        seen,
        initial_meld=meld,
        now=now,
        map_with=map_with,
        parts=parts,
        time_limit=time_limit,
    )
    return seen, found
