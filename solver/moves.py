"""Moves a person can follow at the table, and replaying them.

Set numbers: the old table's sets are set 1, 2, … in their order. A set a
move creates gets the next number never used before (n+1, n+2, … in the order
the moves create them). Numbers never shift: a set emptied by a move (joined
onto another, or all its tiles taken) retires its number, and a split run
keeps its number for the part that stays. So "set 3" means the same pile of
tiles in every move that names it.

Each move is a list of transfers (tiles from the rack or a set into a set);
the kind only says how to phrase it. Replaying the transfers is all a move
does, so the replayer needs no knowledge of kinds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from solver.errors import RummikubError
from solver.sets import TileSet
from solver.tiles import JOKER, Tile


class MoveError(RummikubError):
    """A move that cannot be made on the table as it is (a tile that is not there, a set that does not exist)."""


class MoveKind(Enum):
    EXTEND = "extend"  # rack tiles into an existing set (usually on a run's end)
    INSERT_SPLIT = "insert_split"  # a rack tile into a run, splitting it in two
    TAKE_PUT = "take_put"  # tiles taken from one set and put in another existing set
    JOIN = "join"  # a whole run put onto another run; the first set is gone
    SPLIT = "split"  # a run split in two, nothing added
    NEW_SET = "new_set"  # a new set laid from the rack and/or tiles taken from sets
    MOVE_JOKER = "move_joker"  # a tile takes the joker's place, the joker goes elsewhere


@dataclass(frozen=True, slots=True)
class Transfer:
    """``tiles`` picked up from ``source`` (a set number, None for the rack) and put in set ``target``."""

    tiles: tuple[Tile, ...]
    source: int | None
    target: int

    def to_json(self) -> dict[str, Any]:
        return {"tiles": [str(t) for t in self.tiles], "from": self.source, "to": self.target}


@dataclass(frozen=True, slots=True)
class Move:
    """One step at the table.

    ``result`` lists every set the move touches as it is afterwards (tiles in
    display order; empty when the set is gone). ``table_valid`` says whether
    every set on the table is a valid set after this move.
    """

    kind: MoveKind
    transfers: tuple[Transfer, ...]
    result: tuple[tuple[int, tuple[Tile, ...]], ...]
    created: int | None = None
    table_valid: bool = True
    #: For MOVE_JOKER: the tile that takes the joker's place.
    in_place_of_joker: Tile | None = None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(t for tr in self.transfers for t in tr.tiles)

    @property
    def sets(self) -> tuple[int, ...]:
        """The set numbers this move touches, ascending."""
        numbers = {tr.target for tr in self.transfers} | {tr.source for tr in self.transfers if tr.source is not None}
        return tuple(sorted(numbers))

    def after(self, number: int) -> tuple[Tile, ...]:
        return dict(self.result).get(number, ())

    def describe(self) -> str:
        """One line in the game's words."""
        text = _PHRASES[self.kind](self)
        return text if self.table_valid else text + " (the table is not valid yet)"

    def to_json(self) -> dict[str, Any]:
        """``kind``; ``tiles`` moved; ``sets`` touched; ``created`` (the new set's number or null);
        ``transfers`` (``tiles``, ``from``: a set number or null for the rack, ``to``); ``result`` (each touched
        set afterwards, ``set`` and ``tiles``, empty when gone); ``table_valid``; ``in_place_of_joker``; ``text``."""
        return {
            "kind": self.kind.value,
            "tiles": [str(t) for t in self.tiles],
            "sets": list(self.sets),
            "created": self.created,
            "transfers": [tr.to_json() for tr in self.transfers],
            "result": [{"set": n, "tiles": [str(t) for t in tiles]} for n, tiles in self.result],
            "table_valid": self.table_valid,
            "in_place_of_joker": None if self.in_place_of_joker is None else str(self.in_place_of_joker),
            "text": self.describe(),
        }


def _tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


def _from(source: int | None) -> str:
    return "from your rack" if source is None else f"from set {source}"


def _now(move: Move, number: int) -> str:
    return f"set {number}: {_tiles(move.after(number))}"


def _extend(m: Move) -> str:
    tr = m.transfers[0]
    return f"Put {_tiles(tr.tiles)} from your rack on set {tr.target} ({_now(m, tr.target)})"


def _insert_split(m: Move) -> str:
    rack = [t for tr in m.transfers if tr.source is None for t in tr.tiles]
    split = next(tr for tr in m.transfers if tr.source is not None)
    old, new = split.source, m.created
    assert old is not None and new is not None
    return f"Put {_tiles(rack)} from your rack into set {old}, splitting it ({_now(m, old)}; {_now(m, new)})"


def _take_put(m: Move) -> str:
    tr = m.transfers[0]
    rest = f"; set {tr.source} is gone" if not m.after(tr.source or 0) else ""
    it = "it" if len(tr.tiles) == 1 else "them"
    return f"Take {_tiles(tr.tiles)} from set {tr.source} and put {it} on set {tr.target} ({_now(m, tr.target)}{rest})"


def _join(m: Move) -> str:
    tr = m.transfers[0]
    return f"Join set {tr.source} onto set {tr.target} ({_now(m, tr.target)})"


def _split(m: Move) -> str:
    tr = m.transfers[0]
    assert tr.source is not None
    return f"Split set {tr.source}: {_tiles(tr.tiles)} becomes set {tr.target} ({_now(m, tr.source)})"


def _sources(transfers: Sequence[Transfer]) -> str:
    parts = [f"{_tiles(tr.tiles)} {_from(tr.source)}" for tr in transfers]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _new_set(m: Move) -> str:
    if all(tr.source is None for tr in m.transfers):
        return f"Lay {_tiles(m.tiles)} from your rack as new set {m.created}"
    return f"Take {_sources(m.transfers)} and lay them as new set {m.created} ({_now(m, m.created or 0)})"


def _move_joker(m: Move) -> str:
    first, *rest = m.transfers
    joker = next(tr for tr in rest if JOKER in tr.tiles)
    others = [tr for tr in rest if tr is not joker]
    extra = [t for t in joker.tiles if not t.is_joker]
    what, it = ("the joker", "it") if not extra else (f"the joker and {_tiles(extra)}", "them")
    if joker.target == m.created:
        where = f"lay {it}" + (f" with {_sources(others)}" if others else "") + f" as new set {joker.target}"
    else:
        where = f"put {it} on set {joker.target}"
    swap = m.in_place_of_joker or first.tiles[0]
    if len(first.tiles) == 1:
        put = f"Put {swap} {_from(first.source)} in place of the joker in set {first.target}"
    else:
        put = f"Put {_tiles(first.tiles)} {_from(first.source)} in set {first.target}, {swap} in place of the joker"
    return f"{put}; take {what} from set {joker.source} and {where} ({_now(m, joker.target)})"


_PHRASES = {
    MoveKind.EXTEND: _extend,
    MoveKind.INSERT_SPLIT: _insert_split,
    MoveKind.TAKE_PUT: _take_put,
    MoveKind.JOIN: _join,
    MoveKind.SPLIT: _split,
    MoveKind.NEW_SET: _new_set,
    MoveKind.MOVE_JOKER: _move_joker,
}


def apply_moves(
    before: Sequence[TileSet], moves: Iterable[Move], rack: Iterable[Tile] | None = None
) -> dict[int, Counter[Tile]]:
    """Replay ``moves`` on the old table; the sets left, by number.

    Checks every transfer: the tiles must be in the source set (or in ``rack``,
    when given), and the target must exist or be created by this move.
    """
    table: dict[int, Counter[Tile]] = {i: Counter(s.tiles) for i, s in enumerate(before, start=1)}
    hand: Counter[Tile] | None = Counter(rack) if rack is not None else None
    used = len(table)
    for number, move in enumerate(moves, start=1):
        if move.created is not None:
            if move.created != used + 1:
                raise MoveError(f"move {number} creates set {move.created}, but the next new set is {used + 1}")
            used += 1
            table[move.created] = Counter()
        for tr in move.transfers:
            want = Counter(tr.tiles)
            if tr.source is None:
                if hand is not None:
                    if want - hand:
                        raise MoveError(f"move {number}: {_tiles(want - hand)} not on the rack")
                    hand -= want
            else:
                have = table.get(tr.source)
                if have is None or want - have:
                    raise MoveError(f"move {number}: {_tiles(tr.tiles)} not in set {tr.source}")
                have -= want
            if tr.target not in table:
                raise MoveError(f"move {number}: there is no set {tr.target}")
            table[tr.target] += want
        for n in [n for n, tiles in table.items() if not tiles]:
            del table[n]
    return table
