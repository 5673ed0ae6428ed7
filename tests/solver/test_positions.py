"""The 60 shared positions: our solver matches their proven best answers, with legal tables."""

from __future__ import annotations

from typing import Any

import pytest

from solver import STANDARD, make_set, parse_tiles
from solver.solve import solve
from tests.checks import check_solution
from tests.positions import load_positions

POSITIONS = load_positions()


def read(position: dict[str, Any]):  # type: ignore[no-untyped-def]
    rack = parse_tiles(" ".join(position["rack"]), STANDARD)
    table = [make_set(parse_tiles(" ".join(s), STANDARD), STANDARD) for s in position["table"]]
    return rack, table


@pytest.mark.parametrize("position", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_most_tiles_matches_the_proven_best(position: dict[str, Any]) -> None:
    rack, table = read(position)
    solution = solve(rack, table, STANDARD)
    check_solution(solution, rack, table, STANDARD)
    assert solution.optimal
    assert solution.tiles_placed == position["best_tiles"]


MELDS = [p for p in POSITIONS if p.get("best_tiles_initial_meld30") is not None]


@pytest.mark.parametrize("position", MELDS, ids=[p["id"] for p in MELDS])
def test_opening_matches_the_proven_best(position: dict[str, Any]) -> None:
    rack, table = read(position)
    solution = solve(rack, table, STANDARD, initial_meld=True)
    check_solution(solution, rack, table, STANDARD)
    assert solution.optimal
    assert solution.tiles_placed == position["best_tiles_initial_meld30"]
