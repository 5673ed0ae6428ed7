"""Hand-written positions for the rules that matter most: jokers, the opening, keeping the table."""

from __future__ import annotations

from typing import Any

import pytest

from solver import DeckError, Objective, Rules, parse_table, parse_tiles
from solver.solve import NoArrangement, arrange, solve
from tests.checks import check_solution

R = Rules()


def play(rack: str, table: str = "", rules: Rules = R, **options: object):  # type: ignore[no-untyped-def]
    r, t = parse_tiles(rack, rules), parse_table(table, rules)
    solution = solve(r, t, rules, **options)  # type: ignore[arg-type]
    check_solution(solution, r, t, rules)
    return solution


def table_text(solution) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(s) for s in solution.table]


def test_example_from_the_issue_plays_five_tiles() -> None:
    s = play("3R 4R 5R 7B J 11K", "6R 7R 8R | 7K 7O 7R")
    assert s.tiles_placed == 5
    assert sorted(map(str, s.placed)) == ["3R", "4R", "5R", "7B", "J"]
    assert [str(t) for t in s.rack_left] == ["11K"]
    assert s.kept_sets == 2
    assert s.optimal


def test_opening_with_a_joker_counts_the_joker_as_its_tile() -> None:
    s = play("10K 10B J", initial_meld=True)
    assert s.tiles_placed == 3  # the threshold counts the joker as a 10: 30 points, enough
    assert s.points_placed == 30  # what the table counts: the joker as the 10 it stands for, never its 30
    assert table_text(s) == ["10B 10K J"]


def test_opening_below_threshold_is_no_play() -> None:
    s = play("9K 9B J 1R", initial_meld=True)
    assert not s.has_play
    assert [str(t) for t in s.rack_left] == ["1R", "9B", "9K", "J"]


def test_opening_never_touches_the_table() -> None:
    s = play("11R 12R 13R 5B", "5R 5K 5O", initial_meld=True)
    assert table_text(s) == ["5R 5K 5O", "11R 12R 13R"]
    assert s.tiles_placed == 3


def test_opening_threshold_is_a_rule() -> None:
    assert not play("7R 8R 9R", initial_meld=True).has_play
    assert play("7R 8R 9R", rules=R.replace(initial_meld=24), initial_meld=True).tiles_placed == 3


def test_table_run_with_joker_takes_a_new_run_from_the_rack() -> None:
    s = play("1R 2R 3R", "5K 6K 7K J")
    assert s.tiles_placed == 3
    assert "5K 6K 7K J" in table_text(s)


def test_joker_at_the_end_of_a_set_is_allowed() -> None:
    s = play("4B 5B J")
    assert s.tiles_placed == 3
    assert table_text(s) == ["4B 5B J"]


def test_two_jokers_in_one_set_are_allowed() -> None:
    s = play("8O J J")
    assert s.tiles_placed == 3


def test_joker_can_be_freed_by_rearranging() -> None:
    # the joker standing for 7K moves into a new run once 7K is on the table
    s = play("7K 1B 2B", "5K 6K J")
    assert s.tiles_placed == 3
    assert sorted(table_text(s)) == ["1B 2B J", "5K 6K 7K"]
    assert s.kept_sets == 0  # the old set lost its joker: changed, not kept


def test_no_play_when_nothing_fits() -> None:
    s = play("1R 5B 9K", "3O 4O 5O")
    assert not s.has_play
    assert table_text(s) == ["3O 4O 5O"]
    assert s.kept_sets == 1


def test_table_is_kept_when_an_equal_play_needs_no_rearranging() -> None:
    s = play("9R", "6R 7R 8R | 9B 9K 9O")
    assert s.tiles_placed == 1
    assert s.kept_sets == 2


def test_insert_into_a_run_splits_it_and_still_counts_as_kept() -> None:
    s = play("5R", "3R 4R 5R 6R 7R")
    assert s.tiles_placed == 1
    assert s.kept_sets == 1
    assert sorted(table_text(s)) == ["3R 4R 5R", "5R 6R 7R"]


def test_points_objective_prefers_the_heavier_play() -> None:
    rack = "1B 2B 4B J 13K 13O"  # one joker: either the low run or the group of 13s
    most_tiles = play(rack)
    assert (most_tiles.tiles_placed, most_tiles.points_placed) == (4, 1 + 2 + 3 + 4)  # the joker as 3B
    most_points = play(rack, objective=Objective.POINTS)
    assert (most_points.tiles_placed, most_points.points_placed) == (3, 13 + 13 + 13)


def test_tiles_objective_breaks_ties_by_points() -> None:
    # one joker: 3 tiles either way, and the heavier run goes down, the joker as the 13B it stands for
    s = play("1R 2R J 11B 12B")
    assert s.tiles_placed == 3
    assert s.points_placed == 11 + 12 + 13


def test_same_input_gives_the_same_answer() -> None:
    a = play("3R 4R 5R 5B 5K 9O J", "6R 7R 8R | 7K 7O 7R | 1B 2B 3B")
    b = play("3R 4R 5R 5B 5K 9O J", "6R 7R 8R | 7K 7O 7R | 1B 2B 3B")
    assert a.to_json() | {"solve_ms": 0} == b.to_json() | {"solve_ms": 0}


def test_rule_variants_are_respected() -> None:
    small = Rules(numbers=8, colours=3, copies=1, jokers=1, smallest_set=3, initial_meld=10)
    s = play("6R 7R 8R", rules=small)
    assert s.tiles_placed == 3
    with pytest.raises(Exception, match="a tile's number goes from 1 to 8"):
        parse_tiles("9R", small)
    assert play("1R 2R", rules=R.replace(smallest_set=2, jokers=1)).tiles_placed == 2


def test_too_many_copies_is_refused() -> None:
    with pytest.raises(DeckError, match="3 copies of 5R"):
        solve(parse_tiles("5R 5R", R), parse_table("5R 6R 7R", R), R)
    with pytest.raises(DeckError, match="jokers"):
        solve(parse_tiles("J J J", R), [], R)
    with pytest.raises(DeckError, match=r"^1 joker in all, but the deck has none$"):
        solve(parse_tiles("J", R), [], R.replace(jokers=0))


def test_time_limit_returns_a_legal_answer() -> None:
    r = parse_tiles("1R 2R 3R 4B 5B 6B 7K 8K 9K J", R)
    s = solve(r, [], R, time_limit=0.001)
    check_solution(s, r, [], R)


def test_loose_tiles_are_arranged_into_sets() -> None:
    sets = arrange(parse_tiles("7K 6R 7O 8R 7R 7B", R), R)
    assert sorted(str(s) for s in sets) in (["6R 7R 8R", "7B 7K 7O"],)


def test_loose_tiles_that_make_no_table_are_reported() -> None:
    with pytest.raises(NoArrangement, match="no way"):
        arrange(parse_tiles("1R 2R", R), R)


def test_points_with_a_joker_already_on_the_table() -> None:
    s = play("J 13R 13B 2O", "5K 6K J", objective=Objective.POINTS)
    assert s.tiles_placed == 3
    assert s.points_placed == 13 + 13 + 13  # the rack's joker as the 13 it stands for, never its penalty
    assert s.kept_sets == 1  # and the table's joker stays where it was


def test_the_time_limit_covers_building_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.solve as solving
    from solver.model import solve_program
    from tests.cli.test_command_lines import BIG_RACK, BIG_TABLE

    given: list[float] = []

    def timed(program: Any, time_limit: float) -> Any:
        given.append(time_limit)
        return real(program, time_limit)

    real = solve_program
    monkeypatch.setattr(solving, "solve_program", timed)
    rack, table = parse_tiles(BIG_RACK, R), parse_table(BIG_TABLE, R)
    s = solve(rack, table, R, objective=Objective.POINTS, time_limit=5.0)
    assert s.optimal and given and given[0] < 5.0  # SCIP gets what building the model left
    s = solve(rack, table, R, objective=Objective.POINTS, time_limit=1e-6)
    check_solution(s, rack, table, R)
    assert given[-1] == 0.001 and not s.optimal  # no time left: the table as it lies, not proven best
