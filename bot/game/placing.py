"""What a play says: the new table it leaves.

People type a play as they see it at the table. A set written as it already lies on the table is that set,
unchanged; a set written longer grows it (or joins two); any other valid set is new. Tiles that make no set
of their own are loose: each goes onto a set it fits (at an end of a run, into a group); with exactly one
way they go there, with several the player picks one. A play written as the whole new table (every tile of
the old one and more) is that table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game.tiles import table_key, table_tiles
from solver.errors import RummikubError
from solver.rules import Rules
from solver.sets import SetError, TileSet, make_set
from solver.text import N_, Text, counted, say
from solver.tiles import Tile

#: At most this many ways to place loose tiles are offered; more means the play must be written as sets.
MAX_CHOICES = 6
#: Loose tiles placed one by one onto the table's sets: more than this is a play to write as sets.
MAX_LOOSE = 4
#: Lays loose tiles out as valid sets of their own (the solver's ``arrange``), or raises a ``RummikubError``.
Arrange = Callable[[Sequence[Tile], Rules], list[TileSet]]


@dataclass(frozen=True, slots=True)
class Placement:
    """One reading of a play: the whole new table, and where each loose tile went (the set it joined)."""

    table: tuple[TileSet, ...]
    onto: tuple[tuple[Tile, TileSet], ...] = ()

    def describe(self) -> str:
        """ "10B onto 7B 8B 9B", for the button that picks this reading (in English: see ``said``)."""
        return ", ".join(str(where) for where in self.said())

    def said(self) -> tuple[Text, ...]:
        """Where each loose tile went ("10B onto 7B 8B 9B"), for the chat to say and join with ", "."""
        return tuple(say("{tile} onto {set}", tile=str(t), set=str(s)) for t, s in self.onto)


class NoPlace(SetError):
    """Loose tiles that fit nowhere on the table (the message says how to write the play)."""


def read_play(
    table: Sequence[TileSet], chunks: Sequence[Sequence[Tile]], rules: Rules, arrange: Arrange
) -> list[Placement]:
    """Every reading of the typed ``chunks`` (sets as typed) on ``table``: one, or several to choose from.

    Raises ``NoPlace`` (a ``SetError``) when loose tiles fit nowhere, or fit in too many ways to offer.
    """
    sets, loose = _split(chunks, rules, arrange)
    if not loose and table and not table_tiles(table) - table_tiles(sets) and table_key(sets) != table_key(table):
        return [Placement(tuple(sets))]  # the whole new table
    base = _onto_table(table, sets)
    if not loose:
        return [Placement(base)]
    found = _placements(base, loose, rules)
    if not found:
        raise NoPlace(
            N_(
                "{tiles} fits onto no set of the table; to rearrange sets, write each changed set as it is now, "
                "like /play 1R 2R 3R 4R for 4R onto 1R 2R 3R"
            ),
            tiles=" ".join(map(str, loose)),
        )
    if len(found) > MAX_CHOICES:
        ways = counted(
            "{tiles} could go onto the table in {n} or more way; write the sets they go into, like /play 1R 2R 3R 4R",
            "{tiles} could go onto the table in {n} or more ways; write the sets they go into, like /play 1R 2R 3R 4R",
            len(found),
            tiles=" ".join(map(str, loose)),
        )
        raise NoPlace(ways)
    return found


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


def _onto_table(table: Sequence[TileSet], sets: Sequence[TileSet]) -> tuple[TileSet, ...]:
    """The table after the typed sets: each set as it lies is that set; a longer one grows the sets inside
    it; the rest are new sets, put after the table's."""
    free = list(range(len(table)))
    taken: dict[int, TileSet | None] = {}  # old set -> the set that took its place (None: joined into another)
    pending: list[TileSet] = []
    for s in sets:
        same = next((i for i in free if table_key([table[i]]) == table_key([s])), None)
        if same is None:
            pending.append(s)
        else:
            free.remove(same)
            taken[same] = table[same]
    added = []
    for s in pending:
        inside = _grown_from(s, free, table)
        if inside:
            for i in inside:
                free.remove(i)
                taken[i] = None
            taken[min(inside)] = s
        else:
            added.append(s)
    kept = (taken.get(i, old) for i, old in enumerate(table))
    return (*(s for s in kept if s is not None), *added)


#: How many sets of the table that fit in one set put down are weighed against each other (more is absurd).
_GROWN_CANDIDATES = 12


def _grown_from(put: TileSet, free: Sequence[int], table: Sequence[TileSet]) -> list[int]:
    """The old sets ``put`` grew from or joined: the disjoint sets inside it that cover most of its tiles,
    when that is two or more sets, or one smaller than ``put``; else none (``put`` is a new set)."""
    room = Counter(put.tiles)
    fits = [i for i in free if not Counter(table[i].tiles) - room][:_GROWN_CANDIDATES]
    best: list[int] = []
    best_size = 0

    def search(at: int, chosen: list[int], left: Counter[Tile], size: int) -> None:
        nonlocal best, best_size
        if size > best_size:
            best, best_size = list(chosen), size
        for k in range(at, len(fits)):
            held = Counter(table[fits[k]].tiles)
            if not held - left:
                search(k + 1, [*chosen, fits[k]], left - held, size + sum(held.values()))

    search(0, [], room, 0)
    if len(best) >= 2 or (best and best_size < len(put.tiles)):
        return best
    return []


def _placements(table: tuple[TileSet, ...], loose: Sequence[Tile], rules: Rules) -> list[Placement]:
    """Every way to add the loose tiles to the table's sets (each set stays valid), up to one more than
    ``MAX_CHOICES``; the same table reached twice counts once."""
    if len(loose) > MAX_LOOSE:
        return []
    candidates = [[i for i, s in enumerate(table) if _may_join(t, s, len(loose))] for t in loose]
    found: dict[tuple[tuple[str, ...], ...], Placement] = {}

    def search(k: int, chosen: list[int]) -> None:
        if len(found) > MAX_CHOICES:
            return
        if k == len(loose):
            placement = _placed(table, loose, chosen, rules)
            if placement is not None:
                found.setdefault(tuple(table_key(placement.table)), placement)
            return
        for i in candidates[k]:
            search(k + 1, [*chosen, i])

    search(0, [])
    return list(found.values())


def _may_join(tile: Tile, s: TileSet, spread: int) -> bool:
    """A quick test that ``tile`` could belong in ``s`` once up to ``spread`` loose tiles join it."""
    if tile.is_joker:
        return True
    if s.colour is not None:  # a run
        return tile.colour == s.colour and s.low - spread <= tile.number <= s.high + spread
    return all(t.number == tile.number for t in s.stands_for)


def _placed(table: tuple[TileSet, ...], loose: Sequence[Tile], chosen: Sequence[int], rules: Rules) -> Placement | None:
    """The table with each loose tile added to its chosen set, or None if a set would not stay valid."""
    joining: dict[int, list[Tile]] = {}
    for tile, i in zip(loose, chosen, strict=True):
        joining.setdefault(i, []).append(tile)
    new = list(table)
    for i, tiles in joining.items():
        try:
            new[i] = make_set([*table[i].tiles, *tiles], rules)
        except SetError:
            return None
    onto = tuple((tile, table[i]) for tile, i in zip(loose, chosen, strict=True))
    return Placement(tuple(new), onto)
