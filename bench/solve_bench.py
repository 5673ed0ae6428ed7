"""Solver speed on the benchmark positions (``tests/data/positions``), ours against the `rummikub-solver` package.

    python bench/solve_bench.py [POSITIONS.json] [--repeat N] [--no-reference] [--cold]

Two passes: most tiles (ours against `rummikub-solver`, answers checked
against ``best_tiles``), then most points (ours alone: `rummikub-solver`
scores a joker differently; every answer must be proven best). Each prints
its figures for all positions and for those with a joker on the table.

Each position is solved once to warm up (and the answer checked), then
``--repeat`` times back to back, warm, in one process, model building
included; the two solvers take turns position by position so both meet the
same machine (``--cold``: run by run, so each run finds the other solver's
memory in the caches). The script prints median, p90 and max in
milliseconds for both solvers and the ratio of the medians. `rummikub-solver`
is not a dependency: when it is missing the script installs it into a cache
folder of its own (bench/.cache) and loads it from there.
"""

from __future__ import annotations

import argparse
import gc
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
from solver.solution import Objective  # noqa: E402
from solver.solve import solve  # noqa: E402
from solver.tiles import Colour  # noqa: E402

#: the benchmark positions, kept in the repo (tests/data/positions/README.md says where they come from)
DEFAULT_POSITIONS = ROOT / "tests" / "data" / "positions" / "positions.json"
CACHE = ROOT / "bench" / ".cache" / "rummikub-solver"
TARGETS = {"median": 10.0, "p90": 25.0, "max": 100.0}
#: our median at most this fraction of `rummikub-solver`'s (issue 15: ten times faster)
RATIO = 10.0


def figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "max": ordered[-1],
    }


Prepared = Callable[[], int]
Runner = Callable[[dict[str, Any]], Prepared]


def measure(
    positions: list[dict[str, Any]], repeat: int, runners: list[Runner], *, cold: bool = False
) -> list[tuple[list[float], int]]:
    """Time each runner on each position, the runners taking turns position by position.

    Reading the position's text is done before the clock starts; each timed
    call builds its model and solves. A runner's warm-up and timed runs of one
    position come back to back (warm, as a person asking again would find it),
    garbage from the other runner is collected before its turn, and the runner
    that goes first alternates, so both meet the same machine.
    """
    if cold:
        return measure_cold(positions, repeat, runners)
    times: list[list[float]] = [[] for _ in runners]
    wrong = [0] * len(runners)
    for n, p in enumerate(positions):
        order = list(range(len(runners)))
        if n % 2:
            order.reverse()
        for k in order:
            run = runners[k](p)
            wrong[k] += run() != p["best_tiles"]  # the warm-up run is checked
            gc.collect()  # neither solver pays for the other's garbage
            for _ in range(repeat):
                started = time.perf_counter()
                run()
                times[k].append((time.perf_counter() - started) * 1000)
    return list(zip(times, wrong, strict=True))


def measure_cold(positions: list[dict[str, Any]], repeat: int, runners: list[Runner]) -> list[tuple[list[float], int]]:
    """``--cold``: the runners take turns run by run, with a full garbage collection before every run.

    Every timed run then starts with the other runner's memory in the CPU's caches, which costs a
    solve of a few milliseconds more (in share) than one of a few hundred.
    """
    times: list[list[float]] = [[] for _ in runners]
    wrong = [0] * len(runners)
    for p in positions:
        prepared = [prepare(p) for prepare in runners]
        for k, run in enumerate(prepared):
            wrong[k] += run() != p["best_tiles"]
        for _ in range(repeat):
            for k, run in enumerate(prepared):
                gc.collect()
                started = time.perf_counter()
                run()
                times[k].append((time.perf_counter() - started) * 1000)
    return list(zip(times, wrong, strict=True))


def ours(p: dict[str, Any]) -> Prepared:
    rack = parse_tiles(" ".join(p["rack"]), STANDARD)
    table = [make_set(parse_tiles(" ".join(s), STANDARD), STANDARD) for s in p["table"]]
    return lambda: solve(rack, table, STANDARD).tiles_placed


def ours_points(p: dict[str, Any]) -> Prepared:
    """Most points; the answer checked is ``best_tiles`` when proven best (so a non-proven answer counts wrong)."""
    rack = parse_tiles(" ".join(p["rack"]), STANDARD)
    table = [make_set(parse_tiles(" ".join(s), STANDARD), STANDARD) for s in p["table"]]

    def run() -> int:
        return p["best_tiles"] if solve(rack, table, STANDARD, objective=Objective.POINTS).optimal else -1

    return run


def table_jokers(p: dict[str, Any]) -> bool:
    return any("J" in s for s in p["table"])


def subset(times: list[float], positions: list[dict[str, Any]], repeat: int) -> list[float]:
    """The times of the positions with a joker on the table (times come position by position)."""
    return [t for n, p in enumerate(positions) if table_jokers(p) for t in times[n * repeat : (n + 1) * repeat]]


def line(name: str, times: list[float], wrong: int | None = None) -> str:
    row = "  ".join(f"{k} {v:7.2f} ms" for k, v in figures(times).items())
    return f"{name:25s}{row}" + ("" if wrong is None else f"   wrong answers: {wrong}")


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


def reference(rs: Any) -> Runner:
    """A runner for `rummikub-solver`: a fresh game state per call, tile-count mode."""
    rules = rs.RuleSet()
    order = [Colour.BLACK, Colour.BLUE, Colour.ORANGE, Colour.RED]  # its colour order
    numbers = 13

    def index(t: Tile) -> int:
        if t.is_joker:
            return numbers * len(order) + 1
        assert t.colour is not None
        return order.index(t.colour) * numbers + t.number

    def prepare(p: dict[str, Any]) -> Prepared:
        table = [index(t) for s in p["table"] for t in parse_tiles(" ".join(s), STANDARD)]
        rack = [index(t) for t in parse_tiles(" ".join(p["rack"]), STANDARD)]

        def run() -> int:
            state = rules.new_game()
            if table:
                state.add_table(*table)
            state.add_rack(*rack)
            state.initial = False
            answer = rules.solve(state, rs.SolverMode.TILE_COUNT)
            return 0 if answer is None else len(answer.tiles)

        return run

    return prepare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", nargs="?", type=Path, default=DEFAULT_POSITIONS)
    parser.add_argument("--repeat", type=int, default=5, help="timed solves per position (default 5)")
    parser.add_argument("--no-reference", action="store_true", help="skip rummikub-solver")
    parser.add_argument("--cold", action="store_true", help="take turns run by run, collecting garbage before each")
    args = parser.parse_args()
    positions = json.loads(args.positions.read_text())
    print(
        f"{len(positions)} positions x {args.repeat} runs, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}"
    )
    runners: list[Runner] = [ours]
    rs = None if args.no_reference else load_reference()
    if rs is not None:
        runners.append(reference(rs))
    jokers = sum(table_jokers(p) for p in positions)
    print(f"most tiles ({jokers} of the positions with a joker on the table):")
    results = measure(positions, args.repeat, runners, cold=args.cold)
    times, wrong = results[0]
    mine = figures(times)
    print(line("  ours (SCIP)", times, wrong))
    print(line("    table jokers", subset(times, positions, args.repeat)))
    met = all(mine[k] <= limit for k, limit in TARGETS.items())
    if rs is not None:
        theirs_times, theirs_wrong = results[1]
        theirs = figures(theirs_times)
        print(line(f"  rummikub-solver {rs.__version__}", theirs_times, theirs_wrong))
        print(line("    table jokers", subset(theirs_times, positions, args.repeat)))
        ratio = theirs["median"] / mine["median"]
        print(f"  median ratio: theirs / ours = {ratio:.1f}x (target at least {RATIO:g}x)")
        met = met and ratio >= RATIO
        wrong += theirs_wrong
    print("most points (ours alone; wrong: not proven best):")
    (points_times, points_wrong), *_ = measure(positions, args.repeat, [ours_points], cold=args.cold)
    print(line("  ours (SCIP)", points_times, points_wrong))
    print(line("    table jokers", subset(points_times, positions, args.repeat)))
    met = met and figures(points_times)["max"] <= TARGETS["max"]
    wrong += points_wrong
    limits = "median <= 10, p90 <= 25, max <= 100 ms" + (f", ratio >= {RATIO:g}x" if rs is not None else "")
    print(f"targets (most tiles: {limits}; most points: max <= 100 ms):", "met" if met else "NOT met")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
