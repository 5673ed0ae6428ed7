"""`python -m bot solve`: the best play from the terminal, as text, JSON or a picture."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from solver.errors import RummikubError
from solver.notation import format_tiles, parse_tiles
from solver.planner import Plan, numbered, plan_of
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Objective, Origin, Solution
from solver.solve import DEFAULT_TIME_LIMIT, solve
from solver.table import read_table

RULE_OPTIONS = {
    "numbers": "numbers per colour (default 13)",
    "colours": "how many colours (default 4: R B K O)",
    "copies": "copies of each tile (default 2)",
    "jokers": "jokers in the deck (default 2)",
    "smallest_set": "fewest tiles in a set (default 3)",
    "initial_meld": "points the opening must reach (default 30)",
    "joker_value": "what a joker is worth leaving the rack, as at the end's scoring (default 30)",
}


def register(commands: Any) -> None:
    p: argparse.ArgumentParser = commands.add_parser(
        "solve",
        help="find the best play for a rack and a table",
        description="Find the best play. Tiles: 3R, r3, red 3, J; runs 3-6R; groups 7RBK; sets separated by |.",
    )
    p.add_argument("--rack", default="", help='your tiles, e.g. "3R 4R 5R 7B J 11K"')
    p.add_argument("--table", default="", help='the table, sets separated by |, e.g. "6R 7R 8R | 7K 7O 7R"')
    p.add_argument("--objective", choices=[o.value for o in Objective], default="tiles", help="what to maximise")
    p.add_argument("--initial-meld", action="store_true", help="you have not made your opening yet")
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--image", metavar="FILE", help="also write a PNG picture of the play")
    rules = p.add_argument_group("rule variant")
    for name, text in RULE_OPTIONS.items():
        flag = "--meld" if name == "initial_meld" else "--" + name.replace("_", "-")
        rules.add_argument(flag, dest=f"rule_{name}", type=int, help=text)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        if not args.time_limit > 0:
            raise RummikubError("--time-limit must be more than 0 seconds")
        changes = {k: getattr(args, f"rule_{k}") for k in RULE_OPTIONS}
        rules = Rules().replace(**{k: v for k, v in changes.items() if v is not None})
        rack = parse_tiles(args.rack, rules)
        table = read_table(args.table, rules, time_limit=args.time_limit)
        solution = solve(
            rack,
            table,
            rules,
            objective=Objective(args.objective),
            initial_meld=args.initial_meld,
            time_limit=args.time_limit,
        )
        plan = plan_of(solution)
        if args.image:
            write_image(solution, plan, args.image)
    except RummikubError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: cannot write {args.image}: {error.strerror}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(solution, plan)))
    else:
        print(as_text(solution, plan))
    return 0


def write_image(solution: Solution, plan: Plan, path: str) -> None:
    """The picture, its sets in the order and with the numbers the moves use."""
    from render import render_solution

    shown, numbers = numbered(solution, plan)
    with open(path, "wb") as f:
        f.write(render_solution(shown, labels=[str(n) for n in numbers]))


def as_json(solution: Solution, plan: Plan | None = None) -> dict[str, Any]:
    plan = plan or plan_of(solution)
    answer = solution.to_json()
    answer["moves"] = [move.to_json() for move in plan.moves]
    answer["set_numbers"] = list(plan.numbers)
    return answer


def as_text(solution: Solution, plan: Plan | None = None) -> str:
    """The play in a few lines a player can follow; sets carry the numbers the moves use."""
    plan = plan or plan_of(solution)
    rules = solution.rules
    lines = []
    if not solution.has_play:
        lines.append("No play: draw a tile.")
    else:
        what = "opening" if solution.initial_meld else "play"
        lines.append(
            f"Best {what}: {solution.tiles_placed} tile{'s' * (solution.tiles_placed != 1)}, "
            f"{solution.points_placed} points: {format_tiles(solution.placed, rules)}"
        )
    if not solution.optimal:
        lines.append("(best found within the time limit; there may be better)")
    if solution.table:
        lines.append("Table after:" if solution.has_play else "Table:")
        rows = zip(plan.numbers, solution.table, solution.kept_from, solution.origins, strict=True)
        for number, s, old, row in sorted(rows, key=lambda r: r[0]):
            note = _note(solution, number, s, old, row)
            lines.append(f"  {number:>2}. {s}   ({note})")
    if plan.moves:
        lines.append("Moves:")
        lines.extend(f"  {n:>2}. {move.describe()}" for n, move in enumerate(plan.moves, 1))
    lines.append(f"Rack left: {format_tiles(solution.rack_left, rules) or '(empty)'}")
    return "\n".join(lines)


def _note(solution: Solution, number: int, s: TileSet, old: int | None, row: Sequence[Origin]) -> str:
    """How a set of the new table came about, in a word or three."""
    if number > len(solution.table_before):
        return "new" if old is None else f"split from set {old + 1}"
    if old != number - 1:
        return "changed"
    if any(o.old_set != old for o in row) or len(s) != len(solution.table_before[old]):
        return "grown"
    return "as before"
