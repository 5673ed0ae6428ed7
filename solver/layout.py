"""From the model's chosen columns to the table a person sees.

Joins runs the model kept short (a run of 3-5 next to another of the same
colour), puts the old sets first in their old order, and works out where every
tile of the new table came from, so pictures and move lists can tell placed,
moved and untouched tiles apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.candidates import Shape
from solver.rules import Rules
from solver.sets import Kind, TileSet
from solver.solution import Objective, Origin, Solution, table_points
from solver.tiles import JOKER, Tile


def lay_out(
    *,
    rules: Rules,
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    chosen: Sequence[tuple[int | None, TileSet]],
    objective: Objective,
    initial_meld: bool,
    optimal: bool,
    solve_ms: float,
) -> Solution:
    kept = sorted([(i, s) for i, s in chosen if i is not None], key=lambda e: (e[0], e[1].low))
    fresh = [s for i, s in chosen if i is None]
    # an opening lays new sets only: its runs may not join the table's
    kept_sets, fresh = _join_runs([] if initial_meld else kept, fresh)
    if initial_meld:
        kept_sets = kept
    fresh.sort(key=lambda s: (s.kind is Kind.GROUP, rules.tile_key(s.stands_for[0]), len(s), str(s)))
    new_table = [s for _, s in kept_sets] + fresh
    kept_from: list[int | None] = [i for i, _ in kept_sets] + [None] * len(fresh)
    origins = trace_origins(table, new_table, kept_from)
    placed = [
        t for s, row in zip(new_table, origins, strict=True) for t, o in zip(s.tiles, row, strict=True) if o.from_rack
    ]
    left = Counter(rack)
    left.subtract(placed)
    if any(n < 0 for n in left.values()):
        raise AssertionError("the play uses tiles that are not on the rack")
    return Solution(
        rules=rules,
        objective=objective,
        initial_meld=initial_meld,
        table_before=tuple(table),
        table=tuple(new_table),
        origins=tuple(tuple(row) for row in origins),
        kept_from=tuple(kept_from),
        placed=tuple(sorted(placed, key=rules.tile_key)),
        rack_left=tuple(sorted(left.elements(), key=rules.tile_key)),
        points_placed=table_points(new_table, placed, origins, kept_from),
        kept_sets=_kept(table, kept_from, origins),
        optimal=optimal,
        solve_ms=solve_ms,
    )


def place_jokers(
    picked: Sequence[tuple[int | None, Shape]], jokers: Counter[Tile], table: Sequence[TileSet]
) -> list[tuple[int | None, TileSet]]:
    """Put each joker the model used for a tile into a place that stands for that tile.

    A kept form already holds its old set's own jokers, and the old set's own
    numbered tiles stay numbered (the table holds them: that is what kept
    means), so a joker goes into a new set or a tile a kept set gained,
    high end first.
    """
    sets = [(origin, s) for origin, shape in picked for s in shape.sets]
    if not jokers:
        return sets
    left = jokers.copy()
    own = {i: Counter(t for t in table[i].tiles if not t.is_joker) for i, _ in sets if i is not None}
    out = []
    for origin, s in sets:
        mine = own.get(origin) if origin is not None else None
        tiles = list(s.tiles)
        for j in reversed(range(len(tiles))):
            t = tiles[j]
            if t.is_joker:
                continue
            if mine is not None and mine[t] > 0:
                mine[t] -= 1
            elif left[t] > 0:
                left[t] -= 1
                tiles[j] = JOKER
        out.append((origin, _laid(s, tiles)))
    assert not +left, f"jokers with no place: {dict(left)}"
    return out


def _laid(s: TileSet, tiles: Sequence[Tile]) -> TileSet:
    """The set with ``tiles`` in its places; a group as groups are laid (``make_set``): jokers last, each
    standing for a colour the group lacks, in the rules' colour order."""
    if s.kind is Kind.RUN:
        return TileSet(s.kind, tuple(tiles), s.stands_for)
    real = [(t, f) for t, f in zip(tiles, s.stands_for, strict=True) if not t.is_joker]
    stood = [f for t, f in zip(tiles, s.stands_for, strict=True) if t.is_joker]
    laid = tuple([*(t for t, _f in real), *(JOKER for _ in stood)])
    return TileSet(s.kind, laid, tuple([*(f for _t, f in real), *stood]))


def _kept(old: Sequence[TileSet], kept_from: Sequence[int | None], origins: Sequence[Sequence[Origin]]) -> int:
    """Old sets whose every tile, jokers included, is still in the set (or the two halves) laid as its form."""
    stayed = Counter(o.old_set for i, row in zip(kept_from, origins, strict=True) for o in row if o.old_set == i)
    return sum(1 for i, s in enumerate(old) if stayed[i] == len(s))


def _join_runs(
    kept: list[tuple[int, TileSet]], fresh: list[TileSet]
) -> tuple[list[tuple[int, TileSet]], list[TileSet]]:
    """Join each new run onto a run of its colour that it continues, old sets first.

    The halves of a split grow only at their outer ends: a half grown past the cut would no longer read as
    the old run with one tile inserted.
    """
    runs = sorted((s for s in fresh if s.kind is Kind.RUN), key=lambda s: (str(s.colour), s.low))
    others = [s for s in fresh if s.kind is not Kind.RUN]
    origins = Counter(i for i, _ in kept)
    seen: set[int] = set()
    outer: list[tuple[bool, bool]] = []  # (may grow down, may grow up), beside ``kept`` (sorted by origin, low)
    for i, _ in kept:
        lower = origins[i] == 2 and i not in seen
        upper = origins[i] == 2 and i in seen
        seen.add(i)
        outer.append((not upper, not lower))
    joined = True
    while joined:
        joined = False
        for r in list(runs):
            for k, (i, s) in enumerate(kept):
                down, up = outer[k]
                if (
                    s.kind is Kind.RUN
                    and s.colour == r.colour
                    and ((up and s.high + 1 == r.low) or (down and r.high + 1 == s.low))
                ):
                    kept[k] = (i, _join(s, r))
                    runs.remove(r)
                    joined = True
                    break
            else:
                for other in runs:
                    if other is not r and other.colour == r.colour and _touch(other, r):
                        runs.remove(r)
                        runs[runs.index(other)] = _join(other, r)
                        joined = True
                        break
            if joined:
                break
    return kept, runs + others


def _touch(a: TileSet, b: TileSet) -> bool:
    return a.high + 1 == b.low or b.high + 1 == a.low


def _join(a: TileSet, b: TileSet) -> TileSet:
    first, second = (a, b) if a.low < b.low else (b, a)
    return TileSet(Kind.RUN, first.tiles + second.tiles, first.stands_for + second.stands_for)


def trace_origins(
    old: Sequence[TileSet], new: Sequence[TileSet], kept_from: Sequence[int | None]
) -> list[list[Origin]]:
    """Where each new tile lay: its own old set (``kept_from``) first, then the lowest old set with one spare.

    A joker is a joker wherever it stands: a kept set's jokers are its old set's first, those standing for the
    tile they stood for before first of all (so a joker that joins a kept run beside the run's own is the one
    from the rack, as the points count it).

    Copies no old set holds came from the rack. Raises ``AssertionError`` if an old tile is missing.
    """
    spare: list[Counter[Tile]] = [s.counts() for s in old]
    rows: list[list[Origin | None]] = [[None] * len(s) for s in new]
    for k, (s, i) in enumerate(zip(new, kept_from, strict=True)):
        if i is None:
            continue
        mine = spare[i]
        stood = Counter(f for t, f in zip(old[i].tiles, old[i].stands_for, strict=True) if t.is_joker)
        for j, (t, f) in enumerate(zip(s.tiles, s.stands_for, strict=True)):
            if t.is_joker and stood[f] > 0 and mine[t] > 0:
                stood[f] -= 1
                mine[t] -= 1
                rows[k][j] = Origin(i)
        for j, t in enumerate(s.tiles):
            if rows[k][j] is not None or mine[t] == 0:
                continue
            mine[t] -= 1
            rows[k][j] = Origin(i)
    # the rest of the old tiles, lowest old set first, each copy once
    sources: dict[Tile, list[int]] = {}
    for i, counts in enumerate(spare):
        for t, n in counts.items():
            sources.setdefault(t, []).extend([i] * n)
    for queue in sources.values():
        queue.reverse()
    out: list[list[Origin]] = []
    for s, found in zip(new, rows, strict=True):
        row: list[Origin] = []
        for t, o in zip(s.tiles, found, strict=True):
            if o is None:
                waiting = sources.get(t)
                o = Origin(waiting.pop() if waiting else None)
            row.append(o)
        out.append(row)
    missing = {str(t): len(q) for t, q in sources.items() if q}
    if missing:
        raise AssertionError(f"old table tiles missing from the new table: {missing}")
    return out
