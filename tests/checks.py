"""The answer check every solver test runs: a play must be legal whatever else it is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.rules import Rules
from solver.sets import Kind, TileSet, make_set, tiles_of
from solver.solution import Objective, Solution
from solver.tiles import Tile
from tests.oracle import kept_count


def check_solution(solution: Solution, rack: Sequence[Tile], table: Sequence[TileSet], rules: Rules) -> None:
    """Assert the new table is valid sets only, keeps every old tile, and the counts add up."""
    for s in solution.table:
        laid = make_set(list(s.tiles), rules)  # raises on an invalid set
        assert laid.kind is s.kind or len(set(laid.tiles) - {Tile()}) == 1, f"{s} changed kind"
        for t, st in zip(s.tiles, s.stands_for, strict=True):
            assert t.is_joker or t == st, f"{s}: {t} stands for {st}"
        if s.kind is Kind.RUN:
            numbers = [st.number for st in s.stands_for]
            assert numbers == list(range(numbers[0], numbers[0] + len(s))), f"{s} is not laid low to high"
            assert len({st.colour for st in s.stands_for}) == 1
        else:
            assert len({st.number for st in s.stands_for}) == 1
            assert len({st.colour for st in s.stands_for}) == len(s), f"{s} repeats a colour"
    old, new = tiles_of(table), tiles_of(solution.table)
    placed = Counter(solution.placed)
    assert new == old + placed, "the new table is not the old table plus the placed tiles"
    assert not placed - Counter(rack), "placed tiles that are not on the rack"
    assert Counter(solution.rack_left) + placed == Counter(rack), "rack left plus placed is not the rack"
    assert solution.tiles_placed == sum(placed.values())
    from_rack = Counter(
        t
        for s, row in zip(solution.table, solution.origins, strict=True)
        for t, o in zip(s.tiles, row, strict=True)
        if o.from_rack
    )
    assert from_rack == placed, "tiles marked as from the rack are not the placed tiles"
    assert len(solution.origins) == len(solution.table) == len(solution.kept_from)
    # points are what the rack's tiles count on the table: the rack's jokers at the highest tiles jokers stand
    # for outside the old sets kept with their own jokers
    stand = sorted((f.number for s, row, home in zip(solution.table, solution.origins, solution.kept_from, strict=True)
                    for t, f, o in zip(s.tiles, s.stands_for, row, strict=True)
                    if t.is_joker and (o.old_set is None or o.old_set != home)), reverse=True)  # fmt: skip
    jokers = sum(1 for t in solution.placed if t.is_joker)
    assert solution.points_placed == sum(t.number for t in solution.placed if not t.is_joker) + sum(stand[:jokers])
    assert 0 <= solution.kept_sets <= len(table)
    # every old set the answer keeps lies on the new table as it was (or grown); one may also lie there unchanged
    # but count as changed: its joker left it and the rack's took its place (most points may credit the rack's
    # joker where the table's stood, ``solver.solve``), which a move list tells apart and a picture cannot
    assert solution.kept_sets <= kept_count(table, solution.table), "kept_sets is not the old sets that only grew"
    if not any(t.is_joker for t in rack) or solution.objective is Objective.TILES:
        assert solution.kept_sets == kept_count(table, solution.table), "kept_sets is not the old sets that grew"
    if solution.initial_meld and solution.has_play:
        assert list(solution.table[: len(table)]) == list(table), "the opening changed the table"
        fresh = solution.table[len(table) :]
        assert sum(s.value for s in fresh) >= rules.initial_meld
        assert all(o.from_rack for row in solution.origins[len(table) :] for o in row)
