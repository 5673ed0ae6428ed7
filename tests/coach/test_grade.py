"""How did I do (issue 24, part 3): a play graded against the solver's best for the same rack and table."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.coach.errors import CoachError
from bot.coach.grade import Grade, Graded, TurnRecord, grade_of, grade_play, grade_turn, review, turn_just_played
from bot.game.plays import play
from solver import STANDARD
from solver.solve import solve
from tests.game_support import ALICE, BOB, game
from tests.oracle import best_play, laid
from tests.solver.test_solve_properties import SMALL_RULES, deal, with_jokers
from tests.storage_support import table, tiles


def test_the_grades_by_tiles_missed() -> None:
    assert [grade_of(n, False) for n in range(5)] == [
        Grade.BEST,
        Grade.COULD_BE_BETTER,
        Grade.MISTAKE,
        Grade.BLUNDER,
        Grade.BLUNDER,
    ]
    assert grade_of(1, True) is Grade.BLUNDER


def test_words() -> None:
    before = table("1R 2R 3R | 5B 6B 7B")
    rack = tiles("4R 5R 8B 9B 1K 13O")
    best = solve(rack, before, STANDARD)
    assert best.tiles_placed == 4
    all_of_it = grade_play(tiles("4R 5R 8B 9B"), best)
    assert all_of_it.grade is Grade.BEST and str(all_of_it.text()) == "Best play: you laid all 4 you could"
    two_short = grade_play(tiles("4R 5R"), best)
    assert two_short.grade is Grade.MISTAKE and two_short.missed == 2
    assert str(two_short.text()) == "A mistake: 2 more tiles were possible: 4R 5R 8B 9B"
    one_short = grade_play(tiles("4R 8B 9B"), best)
    assert str(one_short.text()) == "Could be better: 1 more tile was possible: 4R 5R 8B 9B"
    drew = grade_play([], best)
    assert drew.grade is Grade.BLUNDER and drew.laid == 0 and drew.missed == 4
    nothing = solve(tiles("1K 13O"), before, STANDARD)
    assert str(grade_play([], nothing).text()) == "Best play: there was no play, so drawing was right"
    one = solve(tiles("4R 13O"), before, STANDARD)
    assert str(grade_play(tiles("4R"), one).text()) == "Best play: you laid the 1 tile you could"
    with pytest.raises(CoachError, match="which the rack did not hold"):
        grade_play(tiles("4R 4R"), best)


def test_a_missed_chance_to_go_out_is_a_blunder() -> None:
    before = table("1R 2R 3R")
    best = solve(tiles("4R 5R 9K 9B 9O"), before, STANDARD)
    assert not best.rack_left
    short = grade_play(tiles("9K 9B 9O 4R"), best)
    assert short.missed == 1 and short.could_go_out and not short.went_out and short.grade is Grade.BLUNDER
    assert str(short.text()) == "A blunder: you could have gone out, laying all 5 tiles: 4R 5R 9B 9K 9O"
    out = grade_play(tiles("4R 5R 9K 9B 9O"), best)
    assert out.grade is Grade.BEST and out.went_out


def test_a_play_beyond_the_answer_compared_is_best_and_says_so() -> None:
    rack = tiles("10R 11R 12R 1B")
    found_nothing = replace(solve(rack, [], STANDARD), placed=(), rack_left=tuple(rack), optimal=False)
    beyond = grade_play(tiles("10R 11R 12R"), found_nothing)
    assert beyond.grade is Grade.BEST and beyond.missed == 0 and not beyond.proven
    assert str(beyond.text()) == "Best play: you laid 3 tiles, more than I found"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), sets=st.integers(0, 3), rack_size=st.integers(1, 5), jokers=st.integers(0, 1))
def test_the_grade_against_the_best_for_the_recorded_rack_and_table(
    seed: int, sets: int, rack_size: int, jokers: int
) -> None:
    """A recorded play (a real play of part of the rack) is graded by the tiles it fell short of the best play
    for that rack and table: the solver's, which exhaustive search confirms."""
    rack, before = deal(seed, sets, rack_size, SMALL_RULES)
    rack = with_jokers(seed, rack, before, SMALL_RULES, jokers)
    best = solve(rack, before, SMALL_RULES)
    oracle = best_play(rack, [laid(s) for s in before], SMALL_RULES)
    assert best.tiles_placed == oracle.tiles
    rng = random.Random(seed)
    part = rng.sample(rack, rng.randint(0, len(rack)))
    recorded = solve(part, before, SMALL_RULES).placed  # a play that could really be made from that rack
    graded = grade_play(recorded, best)
    missed = oracle.tiles - len(recorded)
    assert graded.missed == missed >= 0 and graded.laid == len(recorded) and graded.best == oracle.tiles
    going_out = oracle.tiles == len(rack) > 0
    assert graded.could_go_out == going_out
    assert graded.grade is grade_of(missed, going_out and len(recorded) < len(rack))
    assert graded == grade_turn(TurnRecord(tuple(rack), tuple(before), tuple(recorded), SMALL_RULES, False))


def test_a_play_in_two_parts_is_graded_on_the_whole_turn() -> None:
    state = game(table_text="1R 2R 3R | 5B 6B 7B", racks={ALICE: "4R 5R 8B 9B 9K 9O 2K", BOB: "1O"})
    first = play(state, ALICE, ALICE, table("1R 2R 3R 4R 5R | 5B 6B 7B")).state
    record = turn_just_played(first, ALICE)
    assert record is not None and Counter(record.placed) == Counter(tiles("4R 5R"))
    second = play(first, ALICE, ALICE, table("1R 2R 3R 4R 5R | 5B 6B 7B 8B 9B")).state
    record = turn_just_played(second, ALICE)
    assert record is not None
    assert Counter(record.placed) == Counter(tiles("4R 5R 8B 9B"))
    assert Counter(record.rack) == Counter(tiles("4R 5R 8B 9B 9K 9O 2K"))
    assert [str(s) for s in record.table] == ["1R 2R 3R", "5B 6B 7B"] and not record.opening
    graded = grade_turn(record)  # 8B alone on the run, and 9B with 9K 9O: six tiles were possible
    assert graded.grade is Grade.MISTAKE and graded.laid == 4 and graded.best == 6
    # nobody's turn just played, or another player's
    assert turn_just_played(state, ALICE) is None and turn_just_played(second, BOB) is None


def test_a_review() -> None:
    def g(grade: Grade, missed: int, turn: int, out: bool = False) -> Graded:
        return Graded(grade, 3, 3 + missed, missed, out, False, (), True, turn)

    turns = [
        g(Grade.BEST, 0, 1),
        g(Grade.MISTAKE, 2, 2),
        g(Grade.BEST, 0, 3),
        g(Grade.BLUNDER, 1, 4, out=True),
        g(Grade.COULD_BE_BETTER, 1, 5),
        g(Grade.BLUNDER, 4, 6),
    ]
    r = review(turns)
    assert r.turns == 6 and r.best == 2 and r.share == Fraction(1, 3)
    assert [x.turn for x in r.worst] == [6, 2, 4]
    assert [str(x) for x in r.lines()] == [
        "Best plays: 2 of your 6 turns (33%)",
        "Turn 6: 4 tiles missed (A blunder)",
        "Turn 2: 2 tiles missed (A mistake)",
        "Turn 4: you could have gone out (1 more tile)",
    ]
    perfect = review(turns[:1])
    assert [str(x) for x in perfect.lines()] == ["Best plays: 1 of your 1 turn (100%)", "No turn missed a tile"]
    assert review([]).share == 0


def test_grading_a_turn_on_a_big_table() -> None:
    """A big table: half of the best play's tiles, laid as well as they can be, missed the other half."""
    rack, before = deal(3, 14, 14, STANDARD)
    best = solve(rack, before, STANDARD)
    assert best.tiles_placed >= 4
    half = solve(list(best.placed[: best.tiles_placed // 2]), before, STANDARD).placed
    graded = grade_play(half, best)
    assert graded.missed == best.tiles_placed - len(half) and graded.grade is grade_of(graded.missed, False)
