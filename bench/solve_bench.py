"""Solver speed on the shared positions, ours against the `rummikub-solver` package.

    python bench/solve_bench.py [POSITIONS.json] [--repeat N] [--no-reference]

Each position is solved once to warm up, then ``--repeat`` times, in one
process, model building included; the script prints median, p90 and max in
milliseconds for both solvers and the ratio of the medians. `rummikub-solver`
is not a dependency: when it is missing the script installs it into a cache
folder of its own (bench/.cache) and loads it from there.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import STANDARD, Tile, make_set, parse_tiles  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.tiles import Colour  # noqa: E402

DEFAULT_POSITIONS = ROOT.parent / "shared" / "bench" / "positions.json"
CACHE = ROOT / "bench" / ".cache" / "rummikub-solver"
TARGETS = {"median": 10.0, "p90": 25.0, "max": 100.0}


def figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "max": ordered[-1],
    }


def measure(
    positions: list[dict[str, Any]], repeat: int, run: Callable[[dict[str, Any]], int]
) -> tuple[list[float], int]:
    times: list[float] = []
    wrong = 0
    for p in positions:
        got = run(p)
        wrong += got != p["best_tiles"]
        for _ in range(repeat):
            started = time.perf_counter()
            run(p)
            times.append((time.perf_counter() - started) * 1000)
    return times, wrong


def ours(p: dict[str, Any]) -> int:
    rack = parse_tiles(" ".join(p["rack"]), STANDARD)
    table = [make_set(parse_tiles(" ".join(s), STANDARD), STANDARD) for s in p["table"]]
    return solve(rack, table, STANDARD).tiles_placed


def load_reference() -> Any:
    try:
        import rummikub_solver
    except ImportError:
        if not CACHE.exists():
            print(f"installing rummikub-solver into {CACHE.relative_to(ROOT)} (benchmark only) ...", file=sys.stderr)
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(CACHE), "rummikub-solver"],
                check=True,
            )
        sys.path.append(str(CACHE))
        import rummikub_solver
    return rummikub_solver


def reference(rs: Any) -> Callable[[dict[str, Any]], int]:
    """A runner for `rummikub-solver`: a fresh game state per call, tile-count mode."""
    rules = rs.RuleSet()
    order = [Colour.BLACK, Colour.BLUE, Colour.ORANGE, Colour.RED]  # its colour order
    numbers = 13

    def index(t: Tile) -> int:
        if t.is_joker:
            return numbers * len(order) + 1
        assert t.colour is not None
        return order.index(t.colour) * numbers + t.number

    def run(p: dict[str, Any]) -> int:
        state = rules.new_game()
        table = [index(t) for s in p["table"] for t in parse_tiles(" ".join(s), STANDARD)]
        if table:
            state.add_table(*table)
        state.add_rack(*[index(t) for t in parse_tiles(" ".join(p["rack"]), STANDARD)])
        state.initial = False
        answer = rules.solve(state, rs.SolverMode.TILE_COUNT)
        return 0 if answer is None else len(answer.tiles)

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", nargs="?", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--repeat", type=int, default=5, help="timed solves per position (default 5)")
    parser.add_argument("--no-reference", action="store_true", help="skip rummikub-solver")
    args = parser.parse_args()
    positions = json.loads(args.positions.read_text())
    print(
        f"{len(positions)} positions x {args.repeat} runs, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}"
    )
    times, wrong = measure(positions, args.repeat, ours)
    mine = figures(times)
    row = "  ".join(f"{k} {v:7.2f} ms" for k, v in mine.items())
    print(f"ours (SCIP)           {row}   wrong answers: {wrong}")
    met = all(mine[k] <= limit for k, limit in TARGETS.items())
    if not args.no_reference:
        rs = load_reference()
        theirs_times, theirs_wrong = measure(positions, args.repeat, reference(rs))
        theirs = figures(theirs_times)
        row = "  ".join(f"{k} {v:7.2f} ms" for k, v in theirs.items())
        print(f"rummikub-solver {rs.__version__:6s}{row}   wrong answers: {theirs_wrong}")
        ratio = theirs["median"] / mine["median"]
        print(f"median ratio: theirs / ours = {ratio:.1f}x (target at least 5x)")
        met = met and ratio >= 5
    print("targets (median <= 10, p90 <= 25, max <= 100 ms):", "met" if met else "NOT met")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
