"""Solving from several threads at once (the bot's worker threads): same answers as one at a time."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from solver import STANDARD, make_set, parse_tiles
from solver.solve import solve
from tests.positions import load_positions


def answer(position: dict[str, Any]) -> dict[str, Any]:
    rack = parse_tiles(" ".join(position["rack"]), STANDARD)
    table = [make_set(parse_tiles(" ".join(s), STANDARD), STANDARD) for s in position["table"]]
    return solve(rack, table, STANDARD).to_json() | {"solve_ms": 0}


def test_threads_give_the_same_answers_as_one_thread() -> None:
    positions = load_positions()[:24]
    alone = [answer(p) for p in positions]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(answer, positions))
    assert together == alone
