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
from solver.solution import Objective, Origin, Solution
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
    old_jv = sum(s.joker_value for s in table)
    new_jv = sum(s.joker_value for s in new_table)
    placed_jokers = sum(1 for t in placed if t.is_joker)
    joker_points = min(max(0, new_jv - old_jv), rules.numbers * placed_jokers)
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
        points_placed=sum(t.number for t in placed if not t.is_joker) + joker_points,
        kept_sets=_kept(table, kept_from, origins),
        optimal=optimal,
        solve_ms=solve_ms,
    )


def place_jokers(
    picked: Sequence[tuple[int | None, Shape]], jokers: Counter[Tile], table: Sequence[TileSet]
) -> list[tuple[int | None, TileSet]]:
    """Put each joker the model used into a place that stands for its tile.

    An old set keeps its jokers where they were; then jokers go into new sets
    and the grown ends of old sets; an old set's own numbered tile is
    replaced by a joker only when nothing else fits.
    """
    sets = [(origin, s) for origin, shape in picked for s in shape.sets]
    if not jokers:
        return sets  # shapes are laid without jokers
    left = jokers.copy()
    marks = [[False] * len(s) for _, s in sets]
    own: list[Counter[Tile]] = []
    for k, (origin, s) in enumerate(sets):
        if origin is None:
            own.append(Counter())
            continue
        old = table[origin]
        was_joker = Counter(st for t, st in zip(old.tiles, old.stands_for, strict=True) if t.is_joker)
        own.append(Counter(t for t in old.tiles if not t.is_joker))
        for j, st in enumerate(s.stands_for):
            if was_joker[st] and left[st]:
                was_joker[st] -= 1
                left[st] -= 1
                marks[k][j] = True
    for last_resort in (False, True):
        for k, (_, s) in enumerate(sets):
            for j in reversed(range(len(s))):
                st = s.stands_for[j]
                if marks[k][j] or not left[st]:
                    continue
                if (own[k][st] > 0) != last_resort:
                    continue
                left[st] -= 1
                marks[k][j] = True
    out = []
    for (origin, s), row in zip(sets, marks, strict=True):
        if any(row):
            tiles = tuple(JOKER if m else t for t, m in zip(s.stands_for, row, strict=True))
            s = TileSet(s.kind, tiles, s.stands_for)
        out.append((origin, s))
    return out


def _kept(old: Sequence[TileSet], kept_from: Sequence[int | None], origins: Sequence[Sequence[Origin]]) -> int:
    """Old sets whose every tile is still in the set (or the halves) grown from it."""
    stayed = Counter(o.old_set for i, row in zip(kept_from, origins, strict=True) for o in row if o.old_set == i)
    return sum(1 for i, s in enumerate(old) if stayed[i] == len(s))


def _join_runs(
    kept: list[tuple[int, TileSet]], fresh: list[TileSet]
) -> tuple[list[tuple[int, TileSet]], list[TileSet]]:
    """Join each new run onto a run of its colour that it continues, old sets first."""
    runs = sorted((s for s in fresh if s.kind is Kind.RUN), key=lambda s: (str(s.colour), s.low))
    others = [s for s in fresh if s.kind is not Kind.RUN]
    joined = True
    while joined:
        joined = False
        for r in list(runs):
            for k, (i, s) in enumerate(kept):
                if s.kind is Kind.RUN and s.colour == r.colour and _touch(s, r):
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

    Copies no old set holds came from the rack. Raises ``AssertionError`` if an old tile is missing.
    """
    spare: list[Counter[Tile]] = [s.counts() for s in old]
    rows: list[list[Origin | None]] = [[None] * len(s) for s in new]
    for k, (s, i) in enumerate(zip(new, kept_from, strict=True)):
        if i is None:
            continue
        mine = spare[i]
        old_jokers = Counter(st for t, st in zip(old[i].tiles, old[i].stands_for, strict=True) if t.is_joker)
        for j, (t, st) in enumerate(zip(s.tiles, s.stands_for, strict=True)):
            if t.is_joker:
                if not (old_jokers[st] > 0 and mine[t] > 0):
                    continue
                old_jokers[st] -= 1
            elif mine[t] == 0:
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
