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
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from solver.errors import RummikubError
from solver.sets import TileSet
from solver.text import N_, Text, counted, say
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

    def renumbered(self, numbers: dict[int, int]) -> Move:
        """The same move with its sets called by other numbers (a game's own numbers for the plan's)."""

        def of(n: int) -> int:
            return numbers.get(n, n)

        return replace(
            self,
            transfers=tuple(
                Transfer(tr.tiles, None if tr.source is None else of(tr.source), of(tr.target)) for tr in self.transfers
            ),
            result=tuple((of(n), tiles) for n, tiles in self.result),
            created=None if self.created is None else of(self.created),
        )

    def text(self) -> Text:
        """One line in the game's words, as a template and its values (the chat says it in the reader's language)."""
        text = _PHRASES[self.kind](self)
        return text if self.table_valid else say("{move} (the table is not valid yet)", move=text)

    def describe(self) -> str:
        """One line in the game's words (English)."""
        return str(self.text())

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


def _from(source: int | None) -> Text:
    return say("from your rack") if source is None else say("from set {set}", set=source)


def _now(move: Move, number: int) -> Text:
    return say("set {number}: {tiles}", number=number, tiles=_tiles(move.after(number)))


def _extend(m: Move) -> Text:
    tr = m.transfers[0]
    return say(
        "Put {tiles} from your rack on set {set} ({now})", tiles=_tiles(tr.tiles), set=tr.target, now=_now(m, tr.target)
    )


def _insert_split(m: Move) -> Text:
    rack = [t for tr in m.transfers if tr.source is None for t in tr.tiles]
    split = next(tr for tr in m.transfers if tr.source is not None)
    old, new = split.source, m.created
    assert old is not None and new is not None
    return say(
        "Put {tiles} from your rack into set {set}, splitting it ({now}; {new})",
        tiles=_tiles(rack),
        set=old,
        now=_now(m, old),
        new=_now(m, new),
    )


def _take_put(m: Move) -> Text:
    tr = m.transfers[0]
    values = {"tiles": _tiles(tr.tiles), "source": tr.source, "target": tr.target, "now": _now(m, tr.target)}
    if not m.after(tr.source or 0):
        return counted(
            "Take {tiles} from set {source} and put it on set {target} ({now}; set {source} is gone)",
            "Take {tiles} from set {source} and put them on set {target} ({now}; set {source} is gone)",
            len(tr.tiles),
            **values,
        )
    return counted(
        "Take {tiles} from set {source} and put it on set {target} ({now})",
        "Take {tiles} from set {source} and put them on set {target} ({now})",
        len(tr.tiles),
        **values,
    )


def _join(m: Move) -> Text:
    tr = m.transfers[0]
    return say(
        "Join set {source} onto set {target} ({now})", source=tr.source, target=tr.target, now=_now(m, tr.target)
    )


def _split(m: Move) -> Text:
    tr = m.transfers[0]
    assert tr.source is not None
    return say(
        "Split set {source}: {tiles} becomes set {target} ({now})",
        source=tr.source,
        tiles=_tiles(tr.tiles),
        target=tr.target,
        now=_now(m, tr.source),
    )


def _sources(transfers: Sequence[Transfer]) -> Text:
    """ "3R from your rack, 7B from set 2 and 8B from set 4"."""
    parts = [
        say("{tiles} from your rack", tiles=_tiles(tr.tiles))
        if tr.source is None
        else say("{tiles} from set {set}", tiles=_tiles(tr.tiles), set=tr.source)
        for tr in transfers
    ]
    listed = parts[0]
    for part in parts[1:-1]:
        listed = say("{first}, {next}", first=listed, next=part)
    return listed if len(parts) == 1 else say("{first} and {last}", first=listed, last=parts[-1])


def _new_set(m: Move) -> Text:
    if all(tr.source is None for tr in m.transfers):
        return say("Lay {tiles} from your rack as new set {set}", tiles=_tiles(m.tiles), set=m.created)
    return say(
        "Take {sources} and lay them as new set {set} ({now})",
        sources=_sources(m.transfers),
        set=m.created,
        now=_now(m, m.created or 0),
    )


#: Moving a joker, one whole sentence per case, by (how many tiles go in its place: one or more, whether tiles
#: go with the joker, where the joker goes: "new" alone as a new set, "with" other tiles as a new set, "put" on
#: an existing set). Values: ``swap`` the tile in the joker's place, ``tiles`` and ``source`` ("from your
#: rack", "from set 2") what is put in, ``set`` the set the joker leaves, ``extra`` tiles going with the joker,
#: ``others`` ("7B from set 4 and 8B from your rack") what joins them, ``target`` where they go, ``now`` it after.
_MOVE_JOKER = {
    (1, False, "new"): N_(
        "Put {swap} {source} in place of the joker in set {set}; "
        "take the joker from set {joker_set} and lay it as new set {target} ({now})"
    ),
    (1, False, "with"): N_(
        "Put {swap} {source} in place of the joker in set {set}; "
        "take the joker from set {joker_set} and lay it with {others} as new set {target} ({now})"
    ),
    (1, False, "put"): N_(
        "Put {swap} {source} in place of the joker in set {set}; "
        "take the joker from set {joker_set} and put it on set {target} ({now})"
    ),
    (1, True, "new"): N_(
        "Put {swap} {source} in place of the joker in set {set}; "
        "take the joker and {extra} from set {joker_set} and lay them as new set {target} ({now})"
    ),
    (1, True, "with"): N_(
        "Put {swap} {source} in place of the joker in set {set}; "
        "take the joker and {extra} from set {joker_set} and lay them with {others} as new set {target} ({now})"
    ),
    (1, True, "put"): N_(
        "Put {swap} {source} in place of the joker in set {set}; "
        "take the joker and {extra} from set {joker_set} and put them on set {target} ({now})"
    ),
    (2, False, "new"): N_(
        "Put {tiles} {source} in set {set}, {swap} in place of the joker; "
        "take the joker from set {joker_set} and lay it as new set {target} ({now})"
    ),
    (2, False, "with"): N_(
        "Put {tiles} {source} in set {set}, {swap} in place of the joker; "
        "take the joker from set {joker_set} and lay it with {others} as new set {target} ({now})"
    ),
    (2, False, "put"): N_(
        "Put {tiles} {source} in set {set}, {swap} in place of the joker; "
        "take the joker from set {joker_set} and put it on set {target} ({now})"
    ),
    (2, True, "new"): N_(
        "Put {tiles} {source} in set {set}, {swap} in place of the joker; "
        "take the joker and {extra} from set {joker_set} and lay them as new set {target} ({now})"
    ),
    (2, True, "with"): N_(
        "Put {tiles} {source} in set {set}, {swap} in place of the joker; "
        "take the joker and {extra} from set {joker_set} and lay them with {others} as new set {target} ({now})"
    ),
    (2, True, "put"): N_(
        "Put {tiles} {source} in set {set}, {swap} in place of the joker; "
        "take the joker and {extra} from set {joker_set} and put them on set {target} ({now})"
    ),
}


def _move_joker(m: Move) -> Text:
    first, *rest = m.transfers
    joker = next(tr for tr in rest if JOKER in tr.tiles)
    others = [tr for tr in rest if tr is not joker]
    extra = [t for t in joker.tiles if not t.is_joker]
    where = ("with" if others else "new") if joker.target == m.created else "put"
    template = _MOVE_JOKER[(min(len(first.tiles), 2), bool(extra), where)]
    return say(
        template,
        swap=m.in_place_of_joker or first.tiles[0],
        tiles=_tiles(first.tiles),
        source=_from(first.source),
        set=first.target,
        joker_set=joker.source,
        extra=_tiles(extra),
        others=_sources(others) if others else "",
        target=joker.target,
        now=_now(m, joker.target),
    )


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
                raise MoveError(
                    N_("move {number} creates set {created}, but the next new set is {next}"),
                    number=number,
                    created=move.created,
                    next=used + 1,
                )
            used += 1
            table[move.created] = Counter()
        for tr in move.transfers:
            want = Counter(tr.tiles)
            if tr.source is None:
                if hand is not None:
                    if want - hand:
                        raise MoveError(
                            N_("move {number}: {tiles} not on the rack"), number=number, tiles=_tiles(want - hand)
                        )
                    hand -= want
            else:
                have = table.get(tr.source)
                if have is None or want - have:
                    raise MoveError(
                        N_("move {number}: {tiles} not in set {set}"),
                        number=number,
                        tiles=_tiles(tr.tiles),
                        set=tr.source,
                    )
                have -= want
            if tr.target not in table:
                raise MoveError(N_("move {number}: there is no set {set}"), number=number, set=tr.target)
            table[tr.target] += want
        for n in [n for n, tiles in table.items() if not tiles]:
            del table[n]
    return table
