"""How did I do: a recorded play against the best play open to the same rack and table, and a game's review.

A play is graded by the tiles it missed: the best play's tiles less the play's (the best solved for the rack
and table as they were when the turn began, the initial meld as it was due; a play in two parts is graded on
the whole turn's tiles). None missed: the best play; 1: could be better; 2: a mistake; 3 or more, or a chance
to go out missed: a blunder. A play that lays more than the answer it is compared with (an answer not proven
best, or an opening laid under a house rule) is a best play too, and says so.

A review takes the grades of a player's turns (``grade_turn`` solves one; it runs in a process pool): the
share of best plays, and the turns that missed the most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from bot.coach.errors import CoachError
from bot.coach.words import percent, tiles_words
from bot.game.state import GameState
from bot.game.tiles import table_tiles
from solver.rules import Rules
from solver.sets import TileSet
from solver.solution import Objective, Solution
from solver.solve import DEFAULT_TIME_LIMIT, solve
from solver.text import N_, Text, counted, say
from solver.tiles import Tile

#: a review names at most this many turns
WORST_TURNS = 3


class Grade(Enum):
    """How good a play was, by the tiles it missed."""

    BEST = "best"
    COULD_BE_BETTER = "could_be_better"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def text(self) -> Text:
        return say(_GRADE_WORDS[self])


_GRADE_WORDS = {
    Grade.BEST: N_("Best play"),
    Grade.COULD_BE_BETTER: N_("Could be better"),
    Grade.MISTAKE: N_("A mistake"),
    Grade.BLUNDER: N_("A blunder"),
}


def grade_of(missed: int, missed_going_out: bool) -> Grade:
    """0 tiles missed: best; 1: could be better; 2: a mistake; 3 or more, or a chance to go out missed: a blunder."""
    if missed_going_out or missed >= 3:
        return Grade.BLUNDER
    return (Grade.BEST, Grade.COULD_BE_BETTER, Grade.MISTAKE)[max(0, missed)]


@dataclass(frozen=True, slots=True)
class Graded:
    """A play against the best one: ``laid`` tiles of ``best`` possible (``best_placed`` the best play's
    tiles), ``missed`` the difference (never below 0); ``could_go_out``: the best play empties the rack,
    ``went_out``: the play did; ``proven``: the best was proven best; ``turn``: the caller's number for the
    turn (the review names it)."""

    grade: Grade
    laid: int
    best: int
    missed: int
    could_go_out: bool
    went_out: bool
    best_placed: tuple[Tile, ...]
    proven: bool
    turn: int | None = None

    @property
    def missed_going_out(self) -> bool:
        return self.could_go_out and not self.went_out

    def text(self) -> Text:
        """ "Best play: you laid all 5 you could" / "A mistake: 2 more tiles were possible: 7R 8R 9R 5B 5K"."""
        best_tiles = " ".join(str(t) for t in self.best_placed)
        if self.grade is Grade.BEST:
            if self.laid > self.best:
                return counted(
                    "Best play: you laid {n} tile, more than I found",
                    "Best play: you laid {n} tiles, more than I found",
                    self.laid,
                )
            if self.best == 0:
                return say("Best play: there was no play, so drawing was right")
            return counted(
                "Best play: you laid the {n} tile you could", "Best play: you laid all {n} you could", self.best
            )
        if self.missed_going_out:
            detail = counted(
                "you could have gone out, laying your last {n} tile: {tiles}",
                "you could have gone out, laying all {n} tiles: {tiles}",
                self.best,
                tiles=best_tiles,
            )
        else:
            detail = counted(
                "{n} more tile was possible: {tiles}",
                "{n} more tiles were possible: {tiles}",
                self.missed,
                tiles=best_tiles,
            )
        return say("{grade}: {detail}", grade=self.grade.text, detail=detail)


def grade_play(placed: Sequence[Tile], best: Solution, *, turn: int | None = None) -> Graded:
    """Grade ``placed`` (the tiles the turn put down, all its parts; none for a draw) against ``best``, the
    best play solved for the rack and table as they were when the turn began. ``CoachError`` when the play
    laid tiles that rack did not hold (then it was not that rack's play)."""
    rack = Counter(best.placed) + Counter(best.rack_left)
    laid = Counter(placed)
    beyond = laid - rack
    if beyond:
        raise CoachError(
            N_("the play put down {tiles}, which the rack did not hold when the turn began"),
            tiles=tiles_words(beyond.elements(), best.rules),
        )
    n = laid.total()
    missed = max(0, best.tiles_placed - n)
    could_go_out = best.has_play and not best.rack_left
    went_out = n > 0 and laid == rack
    return Graded(
        grade=grade_of(missed, could_go_out and not went_out),
        laid=n,
        best=best.tiles_placed,
        missed=missed,
        could_go_out=could_go_out,
        went_out=went_out,
        best_placed=tuple(sorted(best.placed, key=best.rules.tile_key)),
        proven=best.optimal,
        turn=turn,
    )


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """A turn to grade: the ``rack`` and ``table`` as it began, the tiles it ``placed`` (all its parts; none
    for a draw), whether it had to be an ``opening`` (the initial meld), and the caller's ``turn`` number."""

    rack: tuple[Tile, ...]
    table: tuple[TileSet, ...]
    placed: tuple[Tile, ...]
    rules: Rules
    opening: bool
    turn: int | None = None


def best_for(record: TurnRecord, *, time_limit: float = DEFAULT_TIME_LIMIT) -> Solution:
    """The best play (most tiles) open to the turn's rack and table."""
    return solve(
        record.rack,
        record.table,
        record.rules,
        objective=Objective.TILES,
        initial_meld=record.opening,
        time_limit=time_limit,
    )


def grade_turn(record: TurnRecord, time_limit: float = DEFAULT_TIME_LIMIT) -> Graded:
    """Solve the turn's best play and grade the turn against it (a module function of plain values: it runs in a
    process pool, one turn a task)."""
    return grade_play(record.placed, best_for(record, time_limit=time_limit), turn=record.turn)


def turn_just_played(state: GameState, player: int) -> TurnRecord | None:
    """The turn ``player`` has just played, as it began: right after a play is recorded, and until anyone else
    acts, the game keeps the table the turn began with (``GameState.adding``); the rack then was the rack now
    and the tiles the turn put down. None when there is no such turn, or the bot does not know the rack."""
    adding = state.adding
    p = state.player(player)
    if adding is None or adding.player != player or p is None or not p.rack_known:
        return None
    placed = table_tiles(state.table) - table_tiles(adding.before)
    if not placed:
        return None
    order = state.rules.tile_key
    rack = tuple(sorted([*p.rack, *placed.elements()], key=order))
    return TurnRecord(
        rack=rack,
        table=adding.before,
        placed=tuple(sorted(placed.elements(), key=order)),
        rules=state.rules,
        opening=adding.opening,
    )


@dataclass(frozen=True, slots=True)
class Review:
    """A player's game: ``turns`` graded, ``best`` of them best plays, and the ``worst`` (those that missed the
    most, most first; only turns that missed a tile)."""

    turns: int
    best: int
    worst: tuple[Graded, ...]

    @property
    def share(self) -> Fraction:
        """The share of best plays (0 without turns)."""
        return Fraction(self.best, self.turns) if self.turns else Fraction(0)

    def lines(self) -> tuple[Text, ...]:
        out: list[Text] = [
            counted(
                "Best plays: {best} of your {n} turn ({share}%)",
                "Best plays: {best} of your {n} turns ({share}%)",
                self.turns,
                best=self.best,
                share=percent(self.share),
            )
        ]
        if not self.worst:
            out.append(say("No turn missed a tile"))
        for g in self.worst:
            number: object = g.turn if g.turn is not None else "?"
            if g.missed_going_out:
                out.append(
                    counted(
                        "Turn {turn}: you could have gone out ({n} more tile)",
                        "Turn {turn}: you could have gone out ({n} more tiles)",
                        g.missed,
                        turn=number,
                    )
                )
            else:
                out.append(
                    counted(
                        "Turn {turn}: {n} tile missed ({grade})",
                        "Turn {turn}: {n} tiles missed ({grade})",
                        g.missed,
                        turn=number,
                        grade=g.grade.text,
                    )
                )
        return tuple(out)


def review(grades: Sequence[Graded], *, worst: int = WORST_TURNS) -> Review:
    """The review of a player's graded turns: the share of best plays, and up to ``worst`` turns that missed the
    most (a missed chance to go out first among equals, then the earlier turn)."""
    missed = [(g, k) for k, g in enumerate(grades) if g.grade is not Grade.BEST]
    missed.sort(key=lambda e: (-e[0].missed, not e[0].missed_going_out, e[1]))
    return Review(
        turns=len(grades),
        best=sum(1 for g in grades if g.grade is Grade.BEST),
        worst=tuple(g for g, _ in missed[:worst]),
    )
