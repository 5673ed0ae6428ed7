"""`python -m bot selfplay`: complete games between two policies on mirrored deals, and the table of results.

    python -m bot selfplay --players 2 --games 2000 --seed 1 --policies greedy,holdback --processes 2

``--policies BASELINE,TESTED``: each deal is played once per seat, TESTED in that seat and BASELINE in the
others (two players: each deal twice, the seats swapped); ``--games`` is rounded up to whole deals. The
table gives each policy's win rate with its 95% Wilson interval and its mean score per game by the box.
``--opening-hands N`` instead counts how many of N joker-free dealt racks can open on the first turn.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.selfplay.measure import Summary, measure, table
from bot.selfplay.opening import opening_rate
from bot.selfplay.policies import POLICIES
from solver.rules import STANDARD


def register(commands: Any) -> None:
    p: argparse.ArgumentParser = commands.add_parser(
        "selfplay",
        help="play complete games between policies (the hold-back advice against the solver as it is)",
        description="Play mirrored deals between two policies through the game core and print the results.",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--games", type=int, default=20, help="games to play (rounded up to whole deals)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--policies",
        default="greedy,holdback",
        metavar="BASELINE,TESTED",
        help=f"the baseline and the tested policy (known: {', '.join(POLICIES)})",
    )
    p.add_argument("--processes", type=int, default=1, help="worker processes (each plays whole deals)")
    p.add_argument("--time-limit", type=float, default=5.0, metavar="SECONDS", help="per solve")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--opening-hands", type=int, metavar="N", help="count first-turn openings of N dealt racks instead")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.opening_hands:
        rate = opening_rate(STANDARD, args.opening_hands, args.seed)
        low, high = rate.interval
        if args.json:
            print(json.dumps({"hands": rate.hands, "can_open": rate.can, "rate": rate.rate, "interval": [low, high]}))
        else:
            print(
                f"{rate.can} of {rate.hands} joker-free 14-tile racks can open on the first turn: "
                f"{rate.rate:.1%} (95% interval {low:.1%}-{high:.1%}; published 34.9%)"
            )
        return 0
    names = [n.strip() for n in args.policies.split(",")]
    if len(names) != 2 or any(n not in POLICIES for n in names):
        print(f"--policies takes two of {', '.join(POLICIES)}, like greedy,holdback", file=sys.stderr)
        return 2
    if args.games < 1 or args.processes < 1:
        print("--games and --processes take a positive number", file=sys.stderr)
        return 2
    every = max(1, args.games // 20)

    def progress(summary: Summary) -> None:
        done = len(summary.games)
        if not args.quiet and (done % (every * args.players) < args.players or done >= args.games):
            s = summary.tested_side
            print(
                f"{done} games, {summary.seconds:.0f} s: {s.name} won {s.wins} of {s.seats} ({s.win_rate:.1%})",
                file=sys.stderr,
                flush=True,
            )

    summary = measure(
        args.players, args.games, args.seed, names[0], names[1],
        processes=args.processes, time_limit=args.time_limit, progress=progress,
    )  # fmt: skip
    print(json.dumps(as_json(summary)) if args.json else table(summary))
    return 0


def as_json(summary: Summary) -> dict[str, Any]:
    sides = {}
    for name in (summary.tested, summary.baseline):
        s = summary.side(name)
        sides[name] = {
            "seat_games": s.seats,
            "wins": s.wins,
            "win_rate": s.win_rate,
            "interval": list(s.interval),
            "mean_score": s.mean_score,
            "decisions": s.decisions,
            "holds": s.holds,
        }
    every, some, none = summary.pairs()
    return {
        "players": summary.players,
        "games": len(summary.games),
        "seed": summary.seed,
        "baseline": summary.baseline,
        "tested": summary.tested,
        "policies": sides,
        "fair_share": summary.fair,
        "ships": summary.ships,
        "deals_won": {"every": every, "some": some, "none": none},
        "blocked": summary.blocked,
        "games_per_minute_one_core": summary.games_per_minute(),
        "seconds": summary.seconds,
    }
