"""The one-tile puzzle on long cases: each case of ``bench/puzzles`` solved several times, each time in a new process.

    python bench/puzzle_bench.py [--runs N] [--limit SECONDS] [CASE.txt ...]

Every case has 17 rows and an answer of 20 to 30 actions; its file name starts with the answer's length
(``24-long17.txt``), which each run checks. Each run is a Python process of its own that imports the solver, reads
the case and times ``solve_puzzle`` alone (wall clock and CPU time), so no run finds the caches of another warm;
starting Python and importing are not counted (``python -m bot puzzle`` imports the whole bot first, about a second
more). The runs of the cases take turns (case 1, case 2, ..., then again), so a busy moment of the machine does not
land on one case only.

The script prints the machine (cores, load average before and after), then for each case the answer's length and
the wall times (least, median, most) and the most CPU time; it ends with status 1 if a run took longer than
``--limit`` seconds of wall clock (2 by default) or found an answer of another length.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "bench" / "puzzles"

#: Run in a new process: solve the case read from stdin, print the answer's length and the times as JSON.
RUN = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from solver.puzzle import IMPOSSIBLE, solve_puzzle
text = sys.stdin.read()
wall, cpu = time.perf_counter(), time.process_time()
answer = solve_puzzle(text, max_actions=int(sys.argv[2]))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
kinds = ("TAKE", "PUT", "COMBINE")
actions = 0 if answer == IMPOSSIBLE else sum(1 for line in answer.splitlines() if line.split()[0] in kinds)
print(json.dumps({"actions": actions, "wall": wall, "cpu": cpu}))
"""


def run_once(case: Path, max_actions: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(ROOT), str(max_actions)],
        input=case.read_text(),
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(done.stdout)
    return found


def machine() -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, load average {load}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", type=Path, help="puzzle files (default: bench/puzzles/*.txt)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each case (default 3)")
    parser.add_argument("--limit", type=float, default=2.0, help="most seconds a run may take (default 2)")
    parser.add_argument("--max-actions", type=int, default=40, help="the search's bound (default 40, as the CLI)")
    args = parser.parse_args()
    cases = args.cases or sorted(CASES.glob("*.txt"))
    print(time.strftime("%Y-%m-%d %H:%M %Z"), f"python {platform.python_version()}", sep=", ")
    print("before:", machine())
    runs: dict[Path, list[dict[str, float]]] = {case: [] for case in cases}
    for _ in range(args.runs):
        for case in cases:
            runs[case].append(run_once(case, args.max_actions))
    print("after: ", machine())
    print(f"{'case':<22} {'rows':>4} {'actions':>7} {'wall least':>10} {'median':>7} {'most':>7} {'cpu most':>8}")
    failed = False
    for case, found in runs.items():
        rows = int(case.read_text().splitlines()[1])
        expected = int(case.name.split("-")[0])
        actions = {int(r["actions"]) for r in found}
        walls = [r["wall"] for r in found]
        slow = max(walls) > args.limit
        wrong = actions != {expected}
        failed = failed or slow or wrong
        shown = ",".join(str(a) for a in sorted(actions))
        print(
            f"{case.name:<22} {rows:>4} {shown:>7} {min(walls):>9.2f}s {statistics.median(walls):>6.2f}s "
            f"{max(walls):>6.2f}s {max(r['cpu'] for r in found):>7.2f}s"
            + ("  SLOW" if slow else "")
            + (f"  WRONG (expected {expected})" if wrong else "")
        )
    every = [r["wall"] for found in runs.values() for r in found]
    slowest, median = max(every), statistics.median(every)
    print(f"{len(cases)} cases, {len(every)} runs: the slowest {slowest:.2f}s, median {median:.2f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
