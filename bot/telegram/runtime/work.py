"""The CPU work behind a reply (solve, plan the moves, draw), run in the worker pool as one call.

Everything here is plain synchronous code over domain values, so it can run
in a thread: SCIP releases the GIL while it searches (``optimizeNogil``) and
Pillow while it encodes, which keeps the event loop answering other chats.
"""

from __future__ import annotations

import logging
import resource
import signal
from collections.abc import Sequence
from dataclasses import dataclass

from bot.game.numbering import renumber
from bot.game.trace import Trace
from bot.telegram.runtime import collector
from render import ENGLISH, Wording, render_solution, render_table, warm_up
from render.scores import ScoreSheet, render_scores
from solver.kept import warm_forms
from solver.planner import numbered, plan_of
from solver.recorded import recorded_play, traced_play
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.solution import Objective, Solution
from solver.solve import solve
from solver.text import Text
from solver.tiles import Tile

log = logging.getLogger(__name__)

#: Orders the move planner may try per reply. Its search is pure Python (it holds the GIL). On the shared
#: benchmark positions, when some order keeps every set valid after every move, the search found it within
#: 14 orders (as many as the moves); the rest of any budget only goes to proving that no such order exists
#: (then the greedy order is used), at 0.03-0.07 ms an order. 60 found the same moves and numbers as 5000
#: on all 55 positions with a play, in at most 10 ms a plan (300: up to 20 ms; 5000: up to 0.2 s).
PLAN_BUDGET = 60


@dataclass(frozen=True, slots=True)
class Answer:
    """A solve ready to send: the solution, its moves in words, and the picture (None without a play)."""

    solution: Solution
    moves: tuple[Text, ...]
    picture: bytes | None


def solve_position(
    rack: Sequence[Tile],
    table: Sequence[TileSet],
    rules: Rules,
    objective: Objective,
    initial_meld: bool,
    time_limit: float,
    *,
    numbers: Sequence[int] | None = None,
    wording: Wording = ENGLISH,
) -> Answer:
    solution = solve(rack, table, rules, objective=objective, initial_meld=initial_meld, time_limit=time_limit)
    return answer_for(solution, numbers=numbers, wording=wording)


def answer_for(
    solution: Solution, *, numbers: Sequence[int] | None = None, show_rack: bool = True, wording: Wording = ENGLISH
) -> Answer:
    """Moves and picture for a solution (a cached one, or one just solved).

    The picture shows the sets in the order the moves leave them (``solver.planner.numbered``), under the
    numbers the game gives them (``numbers``: the old table's; the sets a play makes take the next ones, as
    ``bot.game.numbering`` will number them once played), and the moves say the same numbers: "set 5" in the
    caption is the set labelled 5, in private and in the group. ``show_rack`` False is the group's picture:
    no rack. The picture's words come from ``wording`` (the reader's language).
    """
    if not solution.has_play:
        return Answer(solution, (), None)
    old = list(numbers) if numbers is not None else list(range(1, len(solution.table_before) + 1))
    try:
        plan = plan_of(solution, budget=PLAN_BUDGET)
    except Exception:  # the picture and summary are still right; log and send them without moves
        log.exception("planning the moves failed for table %s", [str(s) for s in solution.table])
        labels = [str(n) for n in renumber(old, solution.kept_from)]
        return Answer(solution, (), render_solution(solution, show_rack=show_rack, labels=labels, wording=wording))
    shown, plan_numbers = numbered(solution, plan)
    game_numbers = renumber(old, shown.kept_from)
    called = dict(zip(plan_numbers, game_numbers, strict=True)) | {i + 1: n for i, n in enumerate(old)}
    moves = tuple(m.renumbered(called).text() for m in plan.moves)
    picture = render_solution(shown, show_rack=show_rack, labels=[str(n) for n in game_numbers], wording=wording)
    return Answer(solution, moves, picture)


def shown(solution: Solution) -> Solution:
    """The solution with its sets in the order the moves leave them, each tracing the old set it continues
    (``solver.planner.numbered``): the play as the answer showed it, which "I played this" records."""
    if not solution.has_play:
        return solution
    try:
        plan = plan_of(solution, budget=PLAN_BUDGET)
    except Exception:
        log.exception("planning the moves failed for table %s", [str(s) for s in solution.table])
        return solution
    return numbered(solution, plan)[0]


def group_picture(solution: Solution, *, numbers: Sequence[int] | None = None, wording: Wording = ENGLISH) -> bytes:
    """The group's picture of a suggestion someone played: the same sets and numbers, no rack."""
    picture = answer_for(solution, numbers=numbers, show_rack=False, wording=wording).picture
    assert picture is not None, "only a play is posted to the group"
    return picture


def table_picture(
    table: Sequence[TileSet],
    rules: Rules,
    rack: Sequence[Tile] | None = None,
    header: str | None = None,
    *,
    labels: Sequence[int] | None = None,
    wording: Wording = ENGLISH,
) -> bytes:
    """A table as it lies, its sets under the game's numbers (``labels``)."""
    names = [str(n) for n in labels] if labels is not None else None
    return render_table(table, rules, rack=rack, header=header, labels=names, wording=wording)


def play_picture(
    before: Sequence[TileSet],
    after: Sequence[TileSet],
    rules: Rules,
    *,
    trace: Trace | None = None,
    labels: Sequence[int] | None = None,
    wording: Wording = ENGLISH,
) -> tuple[bytes, Solution]:
    """The new table with the tiles just put down highlighted (and tiles moved between sets marked), and the
    play as a solution, so its points and tiles agree with the picture. ``trace``: where each tile came from,
    as the game recorded it (else traced the way the solver's own answers are, ``solver.recorded``);
    ``labels``: the sets' numbers in the game."""
    if trace is not None:
        play = traced_play(before, after, trace.origins, trace.kept_from, rules)
    else:
        play = recorded_play(before, after, rules)
    names = [str(n) for n in labels] if labels is not None else None
    return render_solution(play, show_rack=False, labels=names, wording=wording), play


def scores_picture(sheet: ScoreSheet) -> bytes:
    """A chat's scores as a small table (``render.scores``)."""
    return render_scores(sheet)


def worker_start(memory_mib: int = 0) -> None:
    """A solver process: Ctrl-C is the bot's to handle (it stops the pool), then warm up, settle and cap memory."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm()
    collector.settle()
    cap_memory(memory_mib)


def cap_memory(mib: int) -> None:
    """Limit this process's address space to ``mib`` MiB (0: no limit), so a solve that would outgrow it
    fails with ``MemoryError`` here (answered as too large) instead of taking the machine's memory."""
    if mib > 0:
        limit = mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def warm(*, table_forms: bool = True) -> None:
    """Pay the first picture's and the first solve's cost at start-up, not on a user's first message.

    ``table_forms``: also work out every table set's grown forms (0.15 s), which only a process that solves
    positions on a table needs (a solver process, or the bot's own when it has none).
    """
    warm_up()
    if table_forms:
        warm_forms(STANDARD)
    three = [Tile(n, STANDARD.colour_order[0]) for n in (3, 4, 5)]
    solve(three, [], STANDARD, time_limit=5.0)
