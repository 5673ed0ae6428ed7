"""Reading a typed play: the new table it leaves, and where every tile of that table came from.

People type the play they made at a real table in one of three ways, and each is read here:

- the whole new table (every tile of the old one, and more): that table;
- the sets that changed or are new: ``/play 3R 4R 5R 6R | 4O 5O 6O`` after taking 4R from a group and 5O 6O from
  a run. Tiles of the typed sets that lie on the table may have been taken from where they lie; what an old set
  keeps stays in place and must still be valid sets (a group what is left of it, a run each piece left between
  the tiles taken). A typed set holding a whole old set continues it (grown, or joined with others);
- tiles laid off: chunks that are no set are loose tiles from the rack, each added to a set it fits.

A reading never puts a tile into the game that was neither on the table nor on the rack, nor more of a tile
than the deck holds, and it places at least one tile. So with a stored (complete) rack, typed tiles the rack
lacks come from the table. Of the readings that fit, a typed set continues an old set it holds whenever some
reading lets it (see ``read_play``); when several readings are left they are asked about, one step at a time,
rather than guessed: a tile the rack may hold could as well have come from the table.

Interface (pure and deterministic):

- ``Rack``: what the bot knows of the player's rack (``known`` tiles, ``size`` at the real table).
- ``read_play(table, chunks, rules, arrange, rack) -> list[Reading]``: every reading left, one or several; raises
  ``NoReading`` (a ``SetError`` with a ``Text``) when none fits, saying what is wrong.
- ``Reading``: the whole new table, ``origins`` (``solver.solution.Origin`` per tile: old set or rack),
  ``kept_from`` (per new set: the old set it continues, or None), ``placed`` (rack tiles), ``steps`` (per typed
  tile where it came from, per loose tile which set it joined) and ``solution`` (the play as a ``Solution``, for
  pictures and points: the one tracing of where every tile came from).
- ``next_question(readings) -> Question | None``: the first step where readings differ, each ``Option`` with its
  words and the readings it keeps; None when there is nothing to ask.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from solver.deck import DeckError, check_deck
from solver.errors import RummikubError
from solver.recorded import recorded_play, traced_play
from solver.rules import Rules
from solver.sets import Kind, SetError, TileSet, make_set, tiles_of
from solver.solution import Origin, Solution
from solver.text import N_, Text, counted, say
from solver.tiles import JOKER, Tile

#: At most this many ways to place loose tiles are offered; more means the play must be written as sets.
MAX_CHOICES = 6
#: Loose tiles placed one by one onto the table's sets: more than this is a play to write as sets.
MAX_LOOSE = 4
#: At most this many readings are asked about; more means the play must be written as the whole new table.
MAX_READINGS = 64
#: Ways of taking tiles from the table weighed before a play counts as too tangled to read (a fraction of a
#: second in the worst case).
NODE_BUDGET = 60_000
#: Lays loose tiles out as valid sets of their own (the solver's ``arrange``), or raises a ``RummikubError``.
Arrange = Callable[[Sequence[Tile], Rules], list[TileSet]]
#: Readings that fit the rack and the deck held at once while searching; more is absurd.
_MAX_FOUND = 4_000

RACK = Origin(None)


@dataclass(frozen=True, slots=True)
class Rack:
    """What the bot knows of the player's rack: ``known`` tiles (a Counter, not to be changed) and ``size``, the
    number of tiles on the rack at the real table. ``size - len(known)`` tiles are unknown: any tile may be among
    them. A rack the bot knows nothing of is ``Rack.unknown(size)``; a stored rack is ``Rack.complete(tiles)``."""

    known: Counter[Tile]
    size: int

    @classmethod
    def unknown(cls, size: int) -> Rack:
        return cls(Counter(), size)

    @classmethod
    def complete(cls, tiles: Iterable[Tile]) -> Rack:
        known = Counter(tiles)
        return cls(known, known.total())

    @property
    def unknown_tiles(self) -> int:
        """How many tiles of the rack could be anything."""
        return max(0, self.size - self.known.total())

    @property
    def is_complete(self) -> bool:
        return self.unknown_tiles == 0

    def beyond(self, placed: Counter[Tile]) -> int:
        """How many of ``placed`` the known tiles do not account for: they must be among the unknown ones."""
        return sum(max(0, n - self.known[t]) for t, n in placed.items())

    def fits(self, placed: Counter[Tile]) -> bool:
        """The rack could have held ``placed``."""
        return placed.total() <= max(self.size, self.known.total()) and self.beyond(placed) <= self.unknown_tiles


@dataclass(frozen=True, slots=True)
class Step:
    """One thing a reading says, and what a question tells readings apart by: for a typed tile where it lay
    (``origin``: the old set, the first of identical ones, or the rack; ``stood_for``: for a joker taken from a
    run, the tile it stood for there), for a loose tile the set of the new table it joined (``joined``)."""

    tile: Tile
    origin: Origin
    said: Text = field(compare=False)
    stood_for: Tile | None = None
    joined: int | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a play: the whole new table and where each of its tiles came from.

    ``origins[i][j]`` says where ``table[i].tiles[j]`` lay before (an old set's index, or the rack);
    ``kept_from[i]`` is the old set ``table[i]`` continues (the typed set holding it whole, or what it kept in
    place; a run split in two: both pieces), None for a new set. ``placed`` are the rack's tiles
    (``rules.tile_key`` order); ``steps`` are what a question asks about (see ``next_question``).
    """

    table: tuple[TileSet, ...]
    origins: tuple[tuple[Origin, ...], ...]
    kept_from: tuple[int | None, ...]
    placed: tuple[Tile, ...]
    steps: tuple[Step, ...]

    def solution(self, before: Sequence[TileSet], rules: Rules) -> Solution:
        """The play as a solution (pictures, points, kept sets), traced as read: not traced again."""
        return traced_play(before, self.table, self.origins, self.kept_from, rules)

    def said(self) -> tuple[Text, ...]:
        """Where each loose tile went ("10B onto 7B 8B 9B"), for the chat to say and join with ", "."""
        return tuple(step.said for step in self.steps if step.joined is not None)


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a question: its words ("4R from 4R 4B 4K 4O") and the readings it keeps (indices)."""

    said: Text
    readings: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Question:
    """What to ask next: where ``tile`` (the ``step``-th step of every reading) came from or went to."""

    tile: Tile
    step: int
    asked: Text
    options: tuple[Option, ...]


class NoReading(SetError):
    """No reading of the play fits: the message says what is wrong (an old set left broken, tiles the rack lacks,
    loose tiles that fit nowhere) and how to write the play."""


def read_play(
    table: Sequence[TileSet], chunks: Sequence[Sequence[Tile]], rules: Rules, arrange: Arrange, rack: Rack
) -> list[Reading]:
    """Every reading of the typed ``chunks`` on ``table`` that the player's ``rack`` allows: one is the play;
    several are asked about (``next_question``).

    Of the readings that fit, those where a typed set continues an old set it holds are kept when there are
    any (``11R 12R 13R | 1B 2B 3B 4B`` on ``11R 12R 13R | 1B 2B 3B`` adds only 4B; ``1R 2R 3R | 1R 2R 3R`` on
    ``1R 2R 3R`` is a second copy). The readings come in a fixed order, those taking more from the table first.
    Raises ``NoReading`` when none fits.
    """
    typed, loose = _split(chunks, rules, arrange)
    if not typed and not loose:
        raise NoReading(NOTHING_NEW)
    if not loose and table and _holds(tiles_of(typed), tiles_of(table)) and _key(typed) != _key(table):
        return [_whole_table(table, typed, rules, rack)]
    reader = _Reader(table, typed, loose, rules, rack)
    bases = reader.readings()
    return _laid_off(bases, loose, rules)


def next_question(readings: Sequence[Reading]) -> Question | None:
    """The first step where ``readings`` differ: its tile and one option per answer (the readings each keeps),
    in the readings' order. None when they do not differ (one reading: that is the play)."""
    if len(readings) < 2:
        return None
    for at, first in enumerate(readings[0].steps):
        answers: dict[Step, list[int]] = {}
        for index, reading in enumerate(readings):
            answers.setdefault(reading.steps[at], []).append(index)
        if len(answers) > 1:
            options = tuple(Option(step.said, tuple(kept)) for step, kept in answers.items())
            if first.joined is not None:
                asked = say("Which set did {tile} join?", tile=str(first.tile))
            else:
                asked = say("Where did {tile} come from?", tile=str(first.tile))
            return Question(first.tile, at, asked, options)
    return None


#: What a play needs to be read when typing the whole table is the way out (the problem is a ``Text``).
WHOLE_TABLE = N_("{problem}; to record the play, type the whole new table: /play and every set on the table after it")
NOTHING_NEW = N_("every set typed lies on the table as it is: type the sets you changed or made, or the tiles laid off")


def _split(chunks: Sequence[Sequence[Tile]], rules: Rules, arrange: Arrange) -> tuple[list[TileSet], list[Tile]]:
    """The chunks that are valid sets, and the loose tiles of the others (laid out as sets of their own when
    they make some: ``3R 4R 5R 7B 8B 9B`` typed without a separator)."""
    sets: list[TileSet] = []
    loose: list[Tile] = []
    for chunk in chunks:
        try:
            sets.append(make_set(list(chunk), rules))
        except SetError:
            loose.extend(chunk)
    if len(loose) >= rules.smallest_set:
        try:
            return [*sets, *arrange(loose, rules)], []
        except RummikubError:  # no arrangement of their own: they are tiles to put onto the table's sets
            pass
    return sets, sorted(loose, key=rules.tile_key)


def _key(table: Iterable[TileSet]) -> list[tuple[str, ...]]:
    """A table as its sets' tiles, the sets in any order."""
    return sorted(tuple(str(t) for t in s.tiles) for s in table)


def _set_key(s: TileSet) -> tuple[str, ...]:
    return tuple(sorted(map(str, s.tiles)))


def _holds(more: Counter[Tile], less: Counter[Tile]) -> bool:
    return not less - more


# --- the whole new table -------------------------------------------------------------------------------------


def _whole_table(table: Sequence[TileSet], typed: Sequence[TileSet], rules: Rules, rack: Rack) -> Reading:
    """The typed whole new table, traced as a recorded play is; its new tiles must fit the rack and deck."""
    play = recorded_play(table, typed, rules)
    placed = Counter(play.placed)
    _check_fits(placed, tiles_of(table), rules, rack)
    steps = tuple(
        _step(t, o.old_set, None, table)
        for s, row in zip(play.table, play.origins, strict=True)
        for t, o in zip(s.tiles, row, strict=True)
    )
    return Reading(play.table, play.origins, play.kept_from, play.placed, steps)


def _check_fits(placed: Counter[Tile], on_table: Counter[Tile], rules: Rules, rack: Rack) -> None:
    """Refuse new tiles beyond the deck, or that the rack cannot have held."""
    try:
        check_deck(rules, on_table.elements(), placed.elements())
    except DeckError as why:
        raise NoReading(WHOLE_TABLE, problem=why.text) from None
    if not rack.fits(placed):
        raise NoReading(_rack_lacks(placed, rack, rules))


def _rack_lacks(placed: Counter[Tile], rack: Rack, rules: Rules) -> Text:
    """Why ``placed`` cannot have come from ``rack``: the tiles it lacks, or too many tiles."""
    lacking = _words(placed - rack.known, rules)
    if rack.is_complete:
        return say("the rack, as the bot knows it, lacks {tiles}", tiles=lacking)
    if placed.total() <= rack.size:
        return say("the rack, as the bot knows it, cannot hold all of {tiles}", tiles=lacking)
    return _too_many_tiles(placed.total())


def _too_many_tiles(count: int) -> Text:
    return counted(
        "the play puts down {n} tile, more than the rack can hold",
        "the play puts down {n} tiles, more than the rack can hold",
        count,
    )


def _words(tiles: Counter[Tile], rules: Rules) -> str:
    return " ".join(str(t) for t in sorted(tiles.elements(), key=rules.tile_key))


def _step(tile: Tile, old: int | None, stood_for: Tile | None, table: Sequence[TileSet]) -> Step:
    """A typed tile's step, with its words."""
    if old is None:
        return Step(tile, RACK, say("{tile} from the rack", tile=str(tile)))
    if stood_for is not None:
        said = say("{tile} (as {stood_for}) from {set}", tile=str(tile), stood_for=str(stood_for), set=str(table[old]))
    else:
        said = say("{tile} from {set}", tile=str(tile), set=str(table[old]))
    return Step(tile, Origin(old), said, stood_for)


# --- the sets that changed -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Take:
    """What an old set gives the typed sets: the positions taken, and the pieces it keeps in place."""

    taken: tuple[int, ...]
    left: tuple[TileSet, ...]


#: What one reading does with one old set: which of its takes, and the typed set each taken tile goes into.
_Pick = tuple[int, tuple[int, ...]]
_Choice = tuple[_Pick, ...]


@dataclass(slots=True)
class _Base:
    """A reading before loose tiles are laid off: the new table, where its tiles came from, the rack's tiles."""

    table: list[TileSet]
    origins: list[tuple[Origin, ...]]
    kept_from: list[int | None]
    placed: Counter[Tile]
    steps: list[Step]


class _TooMany(Exception):
    """The play has more readings than are weighed."""


class _Reader:
    """The search for readings of typed sets on a table: for each old set, which of its tiles went into which
    typed set, the rest staying in place as valid sets."""

    def __init__(
        self, table: Sequence[TileSet], typed: Sequence[TileSet], loose: Sequence[Tile], rules: Rules, rack: Rack
    ) -> None:
        self.table = tuple(table)
        self.typed = tuple(typed)
        self.rules = rules
        self.rack = rack
        self.loose = Counter(loose)
        self.on_table = tiles_of(table)
        self.wanted = tiles_of(typed)
        # the search counts tiles in lists, one entry per kind of tile typed (``kinds``): a node is then cheap
        self.kinds = sorted(set(self.wanted) | set(self.loose), key=rules.tile_key)
        kind = {t: i for i, t in enumerate(self.kinds)}
        self.kind_at = [[kind.get(t, -1) for t in s.tiles] for s in table]
        self.room = [[s.counts()[t] for t in self.kinds] for s in typed]
        self.left = [self.wanted[t] for t in self.kinds]  # typed tiles no old set has given yet
        self.takes = [_takes(s, self.wanted, rules, self.loose) for s in table]
        self.supply = self._supply()
        #: how many of each kind the deck leaves for typed tiles from the rack
        self.spare = [rules.copies_of(t) - self.on_table[t] - self.loose[t] for t in self.kinds]
        self.loose_n = [self.loose[t] for t in self.kinds]
        self.known_n = [rack.known[t] for t in self.kinds]
        self.most = max(rack.size, rack.known.total())
        self.same = _first_of_equal(table)
        self.nodes = 0
        #: the readings found, by which old sets they continue; none continues fewer than another does
        self.found: dict[frozenset[int], list[_Choice]] = {}
        self.count = 0
        self.fewest: int | None = None  # the fewest tiles any reading found puts down

    # the search

    def readings(self) -> list[_Base]:
        """The readings preferred (see ``read_play``), deduplicated, or ``NoReading`` saying why there is none."""
        try:
            self._walk(0, [], ())
        except _TooMany:
            raise NoReading(WHOLE_TABLE, problem=say("the play can be read in too many ways")) from None
        if not self.found:
            raise self._why_none()
        bases: dict[object, _Base] = {}
        for choice in (c for choices in self.found.values() for c in choices):
            base = self._built(choice)
            bases.setdefault(self._same_key(base), base)
            if len(bases) > MAX_READINGS:
                raise NoReading(WHOLE_TABLE, problem=say("the play can be read in too many ways"))
        return list(bases.values())

    def _walk(self, j: int, chosen: list[_Pick], kept: tuple[bool, ...]) -> None:
        """Each reading of the old sets from ``j`` on, after ``chosen`` for those before (``kept``: which of
        them a typed set continues). A reading is dropped when another continues every old set it continues and
        more: a typed set holding an old set is that set, grown, whenever some reading lets it be; readings
        that continue different old sets (a run grown, or two runs joined) are all kept, to be asked about."""
        self.nodes += 1
        if self.nodes > NODE_BUDGET:
            raise _TooMany
        if not self._may_fit(j):
            return
        if j == len(self.table):
            self._leaf(tuple(chosen), kept)
            return
        for index, take in enumerate(self.takes[j]):
            for into in self._assigned(j, take.taken, 0, []):
                chosen.append((index, into))
                self._walk(j + 1, chosen, (*kept, self._continued(j, (index, into)) is not None))
                chosen.pop()

    def _assigned(self, j: int, taken: Sequence[int], at: int, into: list[int]) -> Iterator[tuple[int, ...]]:
        """Each way to put the taken tiles into typed sets with room for them (the room is spent meanwhile)."""
        if at == len(taken):
            yield tuple(into)
            return
        i = self.kind_at[j][taken[at]]
        for k, room in enumerate(self.room):
            if room[i] > 0:
                room[i] -= 1
                self.left[i] -= 1
                into.append(k)
                yield from self._assigned(j, taken, at + 1, into)
                into.pop()
                self.left[i] += 1
                room[i] += 1

    def _supply(self) -> list[list[int]]:
        """For each old set, how many of each kind it and the sets after it could still give the typed sets."""
        out = [[0] * len(self.kinds) for _ in range(len(self.table) + 1)]
        for j in reversed(range(len(self.table))):
            out[j] = list(out[j + 1])
            for i in self.kind_at[j]:
                if i >= 0:
                    out[j][i] += 1
        return out

    def _may_fit(self, j: int) -> bool:
        """The rack and the deck can still allow the tiles the old sets from ``j`` on cannot give."""
        supply = self.supply[j]
        total = beyond = 0
        for i, left in enumerate(self.left):
            n = max(0, left - supply[i])
            if n > self.spare[i]:
                return False
            n += self.loose_n[i]
            total += n
            beyond += max(0, n - self.known_n[i])
        return total <= self.most and beyond <= self.rack.unknown_tiles

    def _leaf(self, choice: _Choice, kept: tuple[bool, ...]) -> None:
        """A reading that fits the rack and the deck (``_may_fit``): kept if it places a tile."""
        count = sum(self.left) + self.loose.total()
        if count == 0:
            return
        self.fewest = count if self.fewest is None else min(self.fewest, count)
        continued = frozenset(j for j, k in enumerate(kept) if k)
        if continued not in self.found:
            if any(continued < other for other in self.found):
                return
            for other in [other for other in self.found if other < continued]:
                self.count -= len(self.found.pop(other))
        self.found.setdefault(continued, []).append(choice)
        self.count += 1
        if self.count > _MAX_FOUND:
            raise _TooMany

    def _continued(self, j: int, pick: _Pick) -> int | None:
        """The typed set old set ``j`` continues into: every tile of it taken, its numbered tiles into that one
        set, and any joker taken elsewhere replaced there by the tile it stood for."""
        old = self.table[j]
        index, into = pick
        take = self.takes[j][index]
        if len(take.taken) != len(old) or not into:
            return None
        homes = {k for p, k in zip(take.taken, into, strict=True) if not old.tiles[p].is_joker}
        if len(homes) != 1:
            return None
        k = homes.pop()
        new = self.typed[k]
        if all(k == home for home in into):
            return k
        if old.kind is Kind.RUN:
            return k if not Counter(old.stands_for) - Counter(new.stands_for) else None
        return k if new.kind is Kind.GROUP and len(new) >= len(old) else None

    # the table a reading leaves

    def _built(self, choice: _Choice) -> _Base:
        """The new table of ``choice``: old sets in place (continued, or what they kept), then the new sets."""
        sources: list[dict[Tile, list[tuple[int, int]]]] = [{} for _ in self.typed]
        into_of: dict[int, list[int]] = {}
        for j, pick in enumerate(choice):
            index, into = pick
            for p, k in zip(self.takes[j][index].taken, into, strict=True):
                sources[k].setdefault(self.table[j].tiles[p], []).append((j, p))
            k_home = self._continued(j, pick)
            if k_home is not None:
                into_of.setdefault(k_home, []).append(j)
        rows = [self._typed_row(k, sources[k]) for k in range(len(self.typed))]
        continues = {min(js): k for k, js in into_of.items()}
        joined = {j for js in into_of.values() for j in js}
        base = _Base([], [], [], +self.wanted - self._given(choice), [])
        for j, (index, _into) in enumerate(choice):
            if j in continues:
                k = continues[j]
                self._add(base, self.typed[k], rows[k][0], j)
            elif j not in joined:
                for piece in self.takes[j][index].left:
                    self._add(base, piece, tuple(Origin(j) for _ in piece.tiles), j)
        homeless = set(range(len(self.typed))) - set(continues.values())
        for k in sorted(homeless):
            self._add(base, self.typed[k], rows[k][0], None)
        base.steps = [step for row in rows for step in row[1]]
        return base

    def _given(self, choice: _Choice) -> Counter[Tile]:
        given: Counter[Tile] = Counter()
        for j, (index, _into) in enumerate(choice):
            given.update(self.table[j].tiles[p] for p in self.takes[j][index].taken)
        return given

    def _typed_row(self, k: int, sources: dict[Tile, list[tuple[int, int]]]) -> tuple[tuple[Origin, ...], list[Step]]:
        """Where each tile of typed set ``k`` came from, and its steps (the first of equal old sets named)."""
        origins: list[Origin] = []
        steps: list[Step] = []
        for t in self.typed[k].tiles:
            waiting = sources.get(t)
            if not waiting:
                origins.append(RACK)
                steps.append(_step(t, None, None, self.table))
                continue
            j, p = waiting.pop(0)
            old = self.table[j]
            stood_for = old.stands_for[p] if t.is_joker and old.kind is Kind.RUN else None
            origins.append(Origin(j))
            steps.append(_step(t, self.same[j], stood_for, self.table))
        return tuple(origins), steps

    @staticmethod
    def _add(base: _Base, s: TileSet, origins: tuple[Origin, ...], kept_from: int | None) -> None:
        base.table.append(s)
        base.origins.append(origins)
        base.kept_from.append(kept_from)

    def _same_key(self, base: _Base) -> object:
        """Readings that leave the same table with the same rack tiles and the same provenance (equal old sets
        counting as one) are one reading."""

        def named(old: int | None) -> int:
            return -1 if old is None else self.same[old]

        sets = sorted(
            (
                tuple(map(str, s.tiles)),
                tuple(map(str, s.stands_for)),
                named(kept),
                tuple(named(o.old_set) for o in row),
            )
            for s, kept, row in zip(base.table, base.kept_from, base.origins, strict=True)
        )
        return (tuple(sets), tuple(sorted(base.placed.items(), key=lambda e: self.rules.tile_key(e[0]))))

    # why nothing fits

    def _why_none(self) -> NoReading:
        """What stops every reading: nothing new, tiles beyond the deck or the rack, or an old set left broken."""
        if not self.loose and not Counter(map(_set_key, self.typed)) - Counter(map(_set_key, self.table)):
            return NoReading(NOTHING_NEW)
        every = self.wanted + self.loose
        try:
            check_deck(self.rules, every.elements())
        except DeckError as why:
            return NoReading(WHOLE_TABLE, problem=why.text)
        can = self.wanted & self.on_table
        need = self._from_table()
        short = +(need - can)
        if short and self.rack.is_complete:
            return NoReading(_rack_lacks(short, self.rack, self.rules))
        if short:
            try:
                check_deck(self.rules, self.on_table.elements(), (every - can).elements())
            except DeckError as why:
                return NoReading(WHOLE_TABLE, problem=why.text)
        broken = self._broken(need & can)
        if broken is not None:
            return NoReading(WHOLE_TABLE, problem=broken)
        fewest = self._fewest_without_the_rack()
        if fewest is not None and fewest > self.rack.size:
            return NoReading(WHOLE_TABLE, problem=_too_many_tiles(fewest))
        return NoReading(
            WHOLE_TABLE,
            problem=say("no reading of the play keeps every set on the table valid with tiles the rack can hold"),
        )

    def _fewest_without_the_rack(self) -> int | None:
        """The fewest tiles a reading puts down when the rack could hold anything (None: no reading, or too
        many to weigh)."""
        free = _Reader(self.table, self.typed, list(self.loose.elements()), self.rules, Rack.unknown(10**6))
        try:
            free._walk(0, [], ())
        except _TooMany:
            return None
        return free.fewest

    def _from_table(self) -> Counter[Tile]:
        """The typed tiles that must have come from the table: beyond the deck, or beyond a complete rack."""
        every = self.wanted + self.loose
        need: Counter[Tile] = Counter()
        for t, n in every.items():
            deck = self.on_table[t] + n - self.rules.copies_of(t)
            rack = n - self.rack.known[t] if self.rack.is_complete else 0
            need[t] = max(0, deck, rack)
        return +need

    def _broken(self, need: Counter[Tile]) -> Text | None:
        """The first old set that taking the ``need``-ed tiles would leave broken, in words; each tile is taken
        from a set it leaves valid when there is one, else from the first set holding it."""
        taking = [Counter[Tile]() for _ in self.table]
        for t in sorted(need, key=self.rules.tile_key):
            holders = [j for j, s in enumerate(self.table) if t in s.tiles]
            holders.sort(key=lambda j: (not self._gives(j, taking[j] + Counter({t: 1})), j))
            for _ in range(need[t]):
                for j in holders:
                    if taking[j][t] < self.table[j].tiles.count(t):
                        taking[j][t] += 1
                        break
        for j, taken in enumerate(taking):
            if taken and not self._gives(j, taken):
                return say(
                    "taking {tiles} from {set} would leave {left}, which is no set",
                    tiles=_words(taken, self.rules),
                    set=str(self.table[j]),
                    left=_left_words(self.table[j], taken, self.rules),
                )
        return None

    def _gives(self, j: int, tiles: Counter[Tile]) -> bool:
        """Old set ``j`` can give ``tiles`` and keep valid sets in place."""
        old = self.table[j]
        return any(Counter(old.tiles[p] for p in take.taken) == tiles for take in self.takes[j])


def _first_of_equal(table: Sequence[TileSet]) -> list[int]:
    """For each old set, the first old set equal to it (the same tiles in the same places): taking from one or
    the other is the same play."""
    first: dict[tuple[tuple[Tile, ...], tuple[Tile, ...]], int] = {}
    return [first.setdefault((s.tiles, s.stands_for), j) for j, s in enumerate(table)]


def _left_words(old: TileSet, taken: Counter[Tile], rules: Rules) -> str:
    """What taking ``taken`` from ``old`` leaves in place, for a refusal: the piece that is no set."""
    rest = Counter(taken)
    kept: list[int] = []
    for p in reversed(range(len(old))):  # a joker is taken from the high end first
        t = old.tiles[p]
        if rest[t] > 0:
            rest[t] -= 1
        else:
            kept.append(p)
    kept.reverse()
    if old.kind is Kind.GROUP or not kept:
        return " ".join(str(old.tiles[p]) for p in kept) or "nothing"
    pieces = _pieces(kept)
    bad = [piece for piece in pieces if not _valid_piece(old, piece, rules)]
    return " ".join(str(old.tiles[p]) for p in (bad or pieces)[0])


def _pieces(positions: Sequence[int]) -> list[list[int]]:
    """Positions split where they are not consecutive."""
    out: list[list[int]] = []
    for p in positions:
        if out and out[-1][-1] + 1 == p:
            out[-1].append(p)
        else:
            out.append([p])
    return out


def _valid_piece(old: TileSet, piece: Sequence[int], rules: Rules) -> bool:
    return len(piece) >= rules.smallest_set and any(not old.tiles[p].is_joker for p in piece)


def _takes(old: TileSet, wanted: Counter[Tile], rules: Rules, loose: Counter[Tile]) -> list[_Take]:
    """Every way the typed sets may take tiles from ``old`` and leave valid sets in place, the most taken first,
    taking nothing last. A piece too short to be a set may stay when loose tiles could mend it (a tile taken
    from a group, another laid in its place: ``3B 4B 5B | 4R`` on ``4B 4K 4O``); it is a set again once they are
    laid off, or the reading is dropped (``_laid_off``)."""
    takes = _run_takes if old.kind is Kind.RUN else _group_takes
    found = takes(old, wanted, rules, loose)
    found.sort(key=lambda take: -len(take.taken))
    return found


def _run_takes(old: TileSet, wanted: Counter[Tile], rules: Rules, loose: Counter[Tile]) -> list[_Take]:
    """A run keeps in place the pieces between the tiles taken, each a valid run (jokers where they stood), or
    a shorter piece that loose tiles of its colour could lengthen."""
    n = len(old)
    out: list[_Take] = []
    reach = loose.total()
    mending = [t.number for t in loose if t.colour == old.colour and not t.is_joker] if reach else []

    shortest = rules.smallest_set if not mending and not loose[JOKER] else 1

    def may_stay(a: int, b: int) -> bool:
        piece = old.stands_for[a:b]
        if b - a >= rules.smallest_set:
            return True
        low, high = piece[0].number, piece[-1].number
        return b - a + reach >= rules.smallest_set and (
            bool(loose[JOKER]) or any(low - reach <= m <= high + reach for m in mending)
        )

    def walk(at: int, may_keep: bool, taken: list[int], left: list[tuple[int, int]]) -> None:
        if at == n:
            if taken:
                pieces = tuple(TileSet(Kind.RUN, old.tiles[a:b], old.stands_for[a:b]) for a, b in left)
                out.append(_Take(tuple(taken), pieces))
            return
        if wanted[old.tiles[at]]:
            walk(at + 1, True, [*taken, at], left)
        if may_keep:
            for end in range(at + shortest, n + 1):
                if any(not t.is_joker for t in old.tiles[at:end]) and may_stay(at, end):
                    walk(end, False, taken, [*left, (at, end)])

    walk(0, True, [], [])
    out.append(_Take((), (old,)))
    return out


def _group_takes(old: TileSet, wanted: Counter[Tile], rules: Rules, loose: Counter[Tile]) -> list[_Take]:
    """A group keeps in place the tiles not taken, a valid group (or none, or fewer that loose tiles of its
    number could make a group again); its jokers are alike, so they are taken from the last."""
    numbered = [p for p, t in enumerate(old.tiles) if not t.is_joker and wanted[t]]
    jokers = [p for p, t in enumerate(old.tiles) if t.is_joker]
    most_jokers = min(len(jokers), wanted[old.tiles[jokers[0]]]) if jokers else 0
    out: list[_Take] = []
    for size in range(len(numbered) + 1):
        for some in itertools.combinations(numbered, size):
            for j in range(most_jokers + 1):
                taken = tuple(sorted((*some, *jokers[len(jokers) - j :])))
                if not taken:
                    continue
                left = _group_left(old, taken, rules, loose)
                if left is not None:
                    out.append(_Take(taken, left))
    out.append(_Take((), (old,)))
    return out


def _group_left(
    old: TileSet, taken: tuple[int, ...], rules: Rules, loose: Counter[Tile]
) -> tuple[TileSet, ...] | None:
    """What a group keeps in place when ``taken`` leave it: nothing, a valid group, a piece loose tiles could
    make a group again (laid as it lies), or None (no set)."""
    rest = [t for p, t in enumerate(old.tiles) if p not in taken]
    if not rest:
        return ()
    real = [t for t in rest if not t.is_joker]
    if not real:
        return None
    if len(rest) < rules.smallest_set:
        number, present = real[0].number, {t.colour for t in real}
        menders = sum(n for t, n in loose.items() if t.is_joker or (t.number == number and t.colour not in present))
        if len(rest) + menders < rules.smallest_set:
            return None
        stands = tuple(t if not t.is_joker else old.stands_for[old.tiles.index(t)] for t in rest)
        return (TileSet(Kind.GROUP, tuple(rest), stands),)
    colours = [c for c in rules.colour_order if any(t.colour is c for t in real)]
    missing = [c for c in rules.colour_order if c not in colours][: len(rest) - len(real)]
    return (TileSet.group(real[0].number, colours, missing),)


# --- loose tiles laid off ------------------------------------------------------------------------------------


def _laid_off(bases: Sequence[_Base], loose: Sequence[Tile], rules: Rules) -> list[Reading]:
    """Each reading with the loose tiles laid off onto its sets, every way they fit (the same table reached
    twice counts once)."""
    if not loose:
        return [_reading(base, base.table, base.origins, (), rules) for base in bases]
    out: list[Reading] = []
    seen: set[object] = set()
    for base in bases:
        ways = _placements(base, loose, rules)
        if len(ways) > MAX_CHOICES:
            raise NoReading(_too_many_ways(loose, len(ways)))
        for reading in ways:
            key = (tuple(map(str, reading.table)), reading.origins, reading.kept_from, reading.placed)
            if key not in seen:
                seen.add(key)
                out.append(reading)
    out = [reading for reading in out if all(_valid(s, rules) for s in reading.table)]  # every piece mended
    if not out:
        raise NoReading(
            N_(
                "{tiles} fits onto no set of the table; to rearrange sets, write each changed set as it is now, "
                "like /play 1R 2R 3R 4R for 4R onto 1R 2R 3R"
            ),
            tiles=" ".join(map(str, loose)),
        )
    if len(out) > MAX_READINGS:
        raise NoReading(WHOLE_TABLE, problem=say("the play can be read in too many ways"))
    return out


def _valid(s: TileSet, rules: Rules) -> bool:
    """A set of the new table as it lies is a valid set (a piece left too short, not mended, is not)."""
    try:
        return make_set(s.tiles, rules).tiles == s.tiles
    except SetError:
        return False


def _too_many_ways(loose: Sequence[Tile], ways: int) -> Text:
    return counted(
        "{tiles} could go onto the table in {n} or more way; write the sets they go into, like /play 1R 2R 3R 4R",
        "{tiles} could go onto the table in {n} or more ways; write the sets they go into, like /play 1R 2R 3R 4R",
        ways,
        tiles=" ".join(map(str, loose)),
    )


def _reading(
    base: _Base,
    table: Sequence[TileSet],
    origins: Sequence[tuple[Origin, ...]],
    onto: Sequence[Step],
    rules: Rules,
) -> Reading:
    placed = base.placed + Counter(step.tile for step in onto)
    return Reading(
        tuple(table),
        tuple(origins),
        tuple(base.kept_from),
        tuple(sorted(placed.elements(), key=rules.tile_key)),
        (*base.steps, *onto),
    )


def _placements(base: _Base, loose: Sequence[Tile], rules: Rules) -> list[Reading]:
    """Every way to add the loose tiles to the reading's sets (each set stays valid), up to one more than
    ``MAX_CHOICES``; the same table reached twice counts once."""
    if len(loose) > MAX_LOOSE:
        return []
    candidates = [[i for i, s in enumerate(base.table) if _may_join(t, s, len(loose))] for t in loose]
    found: dict[tuple[tuple[str, ...], ...], Reading] = {}
    for chosen in itertools.product(*candidates):
        if len(found) > MAX_CHOICES:
            break
        reading = _placed(base, loose, chosen, rules)
        if reading is not None:
            found.setdefault(tuple(tuple(map(str, s.tiles)) for s in reading.table), reading)
    return list(found.values())


def _may_join(tile: Tile, s: TileSet, spread: int) -> bool:
    """A quick test that ``tile`` could belong in ``s`` once up to ``spread`` loose tiles join it."""
    if tile.is_joker:
        return True
    if s.colour is not None:  # a run
        return tile.colour == s.colour and s.low - spread <= tile.number <= s.high + spread
    return all(t.number == tile.number for t in s.stands_for)


def _placed(base: _Base, loose: Sequence[Tile], chosen: Sequence[int], rules: Rules) -> Reading | None:
    """The reading with each loose tile added to its chosen set, or None if a set would not stay valid."""
    joining: dict[int, list[Tile]] = {}
    for tile, i in zip(loose, chosen, strict=True):
        joining.setdefault(i, []).append(tile)
    table = list(base.table)
    origins = list(base.origins)
    for i, tiles in joining.items():
        try:
            grown = make_set([*base.table[i].tiles, *tiles], rules)
        except SetError:
            return None
        table[i] = grown
        origins[i] = _moved_origins(base.table[i], base.origins[i], tiles, grown)
    onto = tuple(
        Step(t, RACK, say("{tile} onto {set}", tile=str(t), set=str(base.table[i])), joined=i)
        for t, i in zip(loose, chosen, strict=True)
    )
    return _reading(base, table, origins, onto, rules)


def _moved_origins(old: TileSet, origins: Sequence[Origin], added: Sequence[Tile], new: TileSet) -> tuple[Origin, ...]:
    """The origins of ``new`` (``old`` with ``added`` rack tiles, laid out again): each tile keeps its own, the
    jokers theirs in order."""
    waiting: dict[Tile, list[Origin]] = {}
    for t, o in zip(old.tiles, origins, strict=True):
        waiting.setdefault(t, []).append(o)
    for t in added:
        waiting.setdefault(t, []).append(RACK)
    return tuple(waiting[t].pop(0) for t in new.tiles)


__all__ = [
    "MAX_CHOICES",
    "MAX_LOOSE",
    "MAX_READINGS",
    "Arrange",
    "NoReading",
    "Option",
    "Question",
    "Rack",
    "Reading",
    "Step",
    "next_question",
    "read_play",
]
