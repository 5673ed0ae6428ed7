"""The one-tile puzzle: put one goal tile on a table of numbered rows in as few actions as possible.

This module is the puzzle's text format (what ``python -m bot puzzle`` reads
and prints); the rules of the rows are in ``puzzle_rows`` and the search with
its tie-breaks in ``puzzle_search``. Colours here are B G R Y (blue, green,
red, yellow), groups are printed in that order.

Of all the shortest answers, the statement's rules choose one, each among
the answers the ones before it left: the fewest actions; COMBINE as early as
possible; lower row ids first (the COMBINEs' first); no joker move that can
be avoided; the joker's moves as early as possible (``puzzle_search`` says
each exactly, and what decides when they all tie).

Input: the goal tile; the number of rows; then one row a line, ``id tiles…``.
Output: one action a line (``TAKE 5R 2``, ``PUT 5R 1``, ``COMBINE 1 3``), then
the rows left ascending by id. No answer within the bound prints ``IMPOSSIBLE``.

Where the issue leaves room, these are the choices made (and tested):

- The goal tile is put once, by the last action; every other PUT puts the
  tile the TAKE just before it took, into any row (its own row too).
- A TAKE or PUT splits a run only when the row cannot stay one valid row;
  a PUT splits at the tile's twin (3 4 5 6 7 + 5 gives 3 4 5 | 5 6 7).
- In a split, a joker that fills a gap goes with the half around the gap;
  one that could go either way goes to the higher half (it lies at the
  right end). A joker taken from a gap splits the run at that gap.
- A joker in a group is printed last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from solver.errors import RummikubError
from solver.puzzle_rows import JOKER_CODE, Limits, Row, code, colour_of, is_valid, layout, number_of
from solver.puzzle_search import Action, ActionKind, Found, search, start_state
from solver.text import N_, Text, say
from solver.whole import TOO_BIG, shown, whole

COLOURS = "BGRY"
LIMITS = Limits(numbers=13, colours=len(COLOURS), smallest=3)
IMPOSSIBLE = "IMPOSSIBLE"
MAX_ACTIONS = 40

_WHOLE = re.compile(r"[0-9]+")
_TILE = re.compile(r"(?P<n1>[0-9]+)(?P<c1>[A-Z])|(?P<c2>[A-Z])(?P<n2>[0-9]+)|(?P<j>J|JOKER|\*)", re.IGNORECASE)


class PuzzleError(RummikubError):
    """Puzzle text that cannot be read; the message names the line and what is wrong."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """The goal tile and the rows by id (tiles as codes, see ``puzzle_rows``)."""

    goal: int
    rows: dict[int, Row]


def parse_tile(token: str, where: str | Text = "") -> int:
    """The tile's code; ``where`` it stands ("line 3") goes in an error."""
    m = _TILE.fullmatch(token.strip())
    if m is None:
        raise PuzzleError(
            _at(
                token,
                where,
                say("not a tile; write a number and a colour of {colours}, like 3R, or J", colours=COLOURS),
            )
        )
    if m.group("j"):
        return JOKER_CODE
    digits, letter = (m.group("n1"), m.group("c1")) if m.group("n1") else (m.group("n2"), m.group("c2"))
    number, colour = whole(digits) or 0, letter.upper()
    if colour not in COLOURS:
        raise PuzzleError(_at(token, where, say("the colours are {colours}", colours=" ".join(COLOURS))))
    if not 1 <= number <= LIMITS.numbers:
        raise PuzzleError(_at(token, where, say("numbers go 1-{most}", most=LIMITS.numbers)))
    return code(number, COLOURS.index(colour))


def _at(token: str, where: str | Text, what: Text) -> Text:
    if where:
        return say("`{token}` ({where}): {what}", token=shown(token), where=where, what=what)
    return say("`{token}`: {what}", token=shown(token), what=what)


def parse_puzzle(text: str) -> Puzzle:
    """Read the puzzle; every row must already be a valid run or group and at most one joker may lie on the table."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if len(lines) < 2:
        raise PuzzleError(N_("expected the goal tile on line 1 and the number of rows on line 2"))
    goal = parse_tile(lines[0], say("line 1, the goal tile"))
    if not _WHOLE.fullmatch(lines[1]):
        raise PuzzleError(N_("line 2: `{text}` is not a number of rows"), text=shown(lines[1]))
    count = whole(lines[1]) or 0
    body = [line for line in lines[2:] if line]
    if len(body) != count:
        raise PuzzleError(N_("line 2 says {said} rows, but {count} follow"), said=shown(lines[1]), count=len(body))
    rows: dict[int, Row] = {}
    for number, line in enumerate(body, start=3):
        rid_text, *tokens = line.split()
        rid = whole(rid_text) if _WHOLE.fullmatch(rid_text) else None
        if rid is None or not 1 <= rid < TOO_BIG:
            raise PuzzleError(
                N_("line {number}: a row starts with its id, a whole number from 1, not `{text}`"),
                number=number,
                text=shown(rid_text),
            )
        if rid in rows:
            raise PuzzleError(N_("line {number}: row id {row} is used twice"), number=number, row=rid)
        row = tuple(sorted(parse_tile(tok, say("line {number}", number=number)) for tok in tokens))
        if not is_valid(row, LIMITS):
            raise PuzzleError(N_("line {number}: row {row} is not a valid run or group"), number=number, row=rid)
        rows[rid] = row
    if sum(r.count(JOKER_CODE) for r in rows.values()) > 1:
        raise PuzzleError(N_("at most one joker may lie on the table"))
    return Puzzle(goal, rows)


def format_tile(c: int) -> str:
    return "J" if c == JOKER_CODE else f"{number_of(c)}{COLOURS[colour_of(c)]}"


def format_action(a: Action) -> str:
    if a.kind is ActionKind.COMBINE:
        return f"COMBINE {a.row} {a.other}"
    return f"{a.kind.value} {format_tile(a.tile)} {a.row}"


def format_answer(found: Found) -> str:
    lines = [format_action(a) for a in found.actions]
    lines += [" ".join([str(rid), *(format_tile(t) for t in layout(row, LIMITS))]) for rid, row in found.rows]
    return "\n".join(lines)


def solve(
    puzzle: Puzzle, max_actions: int = MAX_ACTIONS, max_states: int = 400_000, time_limit: float | None = None
) -> Found | None:
    """The best action list (see ``puzzle_search`` for the tie-breaks), or None when there is none.

    Raises ``PuzzleLimitError`` past ``max_states`` table states or ``time_limit`` seconds.
    """
    return search(start_state(puzzle.rows), puzzle.goal, LIMITS, max_actions, max_states, time_limit)


def solve_puzzle(text: str, max_actions: int = MAX_ACTIONS, time_limit: float | None = None) -> str:
    """The puzzle's answer as text, exactly as ``python -m bot puzzle`` prints it (without the final newline)."""
    found = solve(parse_puzzle(text), max_actions, time_limit=time_limit)
    return IMPOSSIBLE if found is None else format_answer(found)
