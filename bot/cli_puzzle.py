"""`python -m bot puzzle`: the one-tile puzzle, read from standard input, answered on standard output.

Exit status: 0 with the answer; 1 when there is no answer (``IMPOSSIBLE``, or
the search gave up, said on stderr); 2 for input that cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from solver.errors import RummikubError
from solver.puzzle import IMPOSSIBLE, MAX_ACTIONS, PuzzleError, solve_puzzle
from solver.puzzle_search import PuzzleLimitError


def register(commands: Any) -> None:
    p: argparse.ArgumentParser = commands.add_parser(
        "puzzle",
        help="solve the one-tile puzzle read from stdin",
        description=(
            "Put the goal tile on the table in the fewest actions. Input: the goal tile, the number of rows, "
            "then one row a line (id tiles...), colours B G R Y, joker J."
        ),
    )
    p.add_argument("--max-actions", type=int, default=MAX_ACTIONS, help=f"search bound (default {MAX_ACTIONS})")
    p.add_argument("--time-limit", type=float, metavar="SECONDS", help="give up after this long (default: no limit)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.max_actions < 1:
            raise PuzzleError("--max-actions must be at least 1")
        if args.time_limit is not None and not args.time_limit > 0:
            raise PuzzleError("--time-limit must be more than 0 seconds")
        answer = solve_puzzle(sys.stdin.read(), args.max_actions, args.time_limit)
    except PuzzleLimitError as why:
        print(f"puzzle: {why}", file=sys.stderr)
        return 1
    except (RummikubError, UnicodeDecodeError) as why:
        print(f"puzzle: {why}", file=sys.stderr)
        return 2
    print(answer)
    return 1 if answer == IMPOSSIBLE else 0
