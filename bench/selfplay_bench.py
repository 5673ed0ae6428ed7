"""The simulator's speed: two-player games a minute on one core (issue 24: at least 20).

    python bench/selfplay_bench.py [--games N] [--seed S] [--policies greedy,holdback]

Plays ``--games`` mirrored two-player games (rounded up to whole deals) in this one process, as one worker
of ``python -m bot selfplay --processes 2`` plays them, every step through the game core and its checks,
and prints games a minute by the clock on the wall and by the process's CPU time (a machine shared with
other work stretches the first, not the second), the mean turns a game, the share of the time in the solver,
and the time a 2,000-game measurement would take on two such cores.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.selfplay.measure import measure  # noqa: E402

#: issue 24: two-player games a minute on one core
TARGET = 20.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--policies", default="greedy,holdback", metavar="BASELINE,TESTED")
    args = parser.parse_args()
    baseline, tested = args.policies.split(",")
    print(f"python {platform.python_version()}, {platform.machine()}, load before: {_load()}", flush=True)
    began, cpu = time.perf_counter(), time.process_time()
    summary = measure(2, args.games, args.seed, baseline, tested, processes=1)
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    games = summary.games
    per_game = [g.seconds for g in games]
    turns = statistics.mean(g.turns for g in games)
    solving = sum(g.solve_s for g in games) / sum(per_game)
    by_clock, by_cpu = summary.games_per_minute(), summary.games_per_minute(cpu=True)
    print(f"{len(games)} games ({baseline} against {tested}), seed {args.seed}: {wall:.1f} s by the clock, "
          f"{used:.1f} s of CPU; load after: {_load()}")  # fmt: skip
    print(f"games a minute on one core: {by_clock:.1f} by the clock, {by_cpu:.1f} by CPU time (target {TARGET:.0f})")
    print(f"a game: median {statistics.median(per_game):.2f} s, max {max(per_game):.2f} s, {turns:.1f} turns; "
          f"{solving:.0%} of the time in the solver")  # fmt: skip
    minutes = 2000 / (2 * by_clock)
    print(f"2,000 games on two such cores: about {minutes:.0f} min by this clock, "
          f"{2000 / (2 * by_cpu):.0f} min on two free cores")  # fmt: skip
    return 0 if by_cpu >= TARGET else 1


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
