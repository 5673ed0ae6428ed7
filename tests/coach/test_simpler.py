"""A simpler play (issue 24, part 5): at most three moves, a valid play, and the most tiles such steps lay."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.coach.simpler import MOST_MOVES, moves_of, simpler, simplest_play
from solver import STANDARD, Tile, TileSet
from solver.moves import MoveKind
from solver.notation import parse_table, parse_tiles
from solver.planner import plan_of
from solver.solution import Solution
from solver.solve import solve
from tests.checks import check_solution
from tests.oracle import kept_count
from tests.solver.test_solve_properties import SMALL_RULES, deal, with_jokers
from tests.storage_support import table, tiles


def test_five_new_sets_become_three() -> None:
    rack = tiles("1R 2R 3R 4R 5B 6B 7B 9K 10K 11K 13O 13R 13B 4O 5O 6O")
    best = solve(rack, [], STANDARD)
    assert best.tiles_placed == 16 and moves_of(best) == 5
    offer = simpler(best)
    assert offer is not None
    assert offer.moves == 3 and offer.tiles == 10 and offer.fewer == 6 and offer.best_moves == 5 and offer.proven
    assert str(offer.text()) == "A simpler play, in 3 moves: 10 tiles, 6 fewer than the best play"
    check_solution(offer.solution, rack, [], STANDARD)
    assert Counter(offer.solution.placed)[tiles("4R")[0]] == 1  # the four-tile run is one of the three


def test_an_opening_in_three_sets() -> None:
    rack = tiles("11R 12R 13R 11B 12B 13B 11K 12K 13K 1O 2O 3O 7R")
    best = solve(rack, table("5O 6O 7O"), STANDARD, initial_meld=True)
    assert best.tiles_placed == 12 and moves_of(best) == 4
    offer = simpler(best)
    assert offer is not None and offer.solution.initial_meld
    assert offer.moves == 3 and offer.tiles == 9 and offer.fewer == 3
    assert offer.solution.table[0] == best.table_before[0]
    assert sum(s.value for s in offer.solution.table[1:]) >= STANDARD.initial_meld


def test_the_same_tiles_in_fewer_moves_and_the_words() -> None:
    before = table("1R 2R 3R | 5B 6B 7B | 9K 10K 11K | 4O 5O 6O")
    rack = tiles("4R 8B 12K 7O")
    best = solve(rack, before, STANDARD)
    assert best.tiles_placed == 4 and moves_of(best) == 4
    # four single tiles on four sets: no three moves lay all four
    offer = simpler(best)
    assert offer is not None and offer.tiles == 3 and offer.fewer == 1
    assert str(offer.text()) == "A simpler play, in 3 moves: 3 tiles, 1 fewer than the best play"


def test_nothing_to_offer() -> None:
    short = solve(tiles("1R 2R 3R 9B"), table("6B 7B 8B"), STANDARD)
    assert moves_of(short) == 2 and simpler(short) is None
    nothing = solve(tiles("1R 5B"), [], STANDARD)
    assert simpler(nothing) is None
    assert simplest_play(tiles("1R 5B"), [], STANDARD) is None


def check_simple(play: Solution, moves: int, rack: list[Tile], before: list[TileSet]) -> None:
    """A legal play (``tests.checks``: valid sets, every old tile kept, the rack's tiles and points adding up),
    in ``moves`` moves, at most three. (Its ``kept_sets`` counts the old sets its own layout keeps: the solver's
    count may see a set taken from and grown as a split run kept, ``tests.oracle.keeps``.)"""
    assert play.kept_sets <= kept_count(before, play.table)
    check_solution(replace(play, kept_sets=kept_count(before, play.table)), rack, before, play.rules)
    planned = plan_of(play, budget=60).moves
    assert len(planned) == moves <= MOST_MOVES
    assert all(m.table_valid for m in planned[-1:]), "the table is valid once the moves are made"
    if play.initial_meld:
        assert list(play.table[: len(before)]) == list(before)
        assert sum(s.value for s in play.table[len(before) :]) >= play.rules.initial_meld


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 12),
    rack_size=st.integers(1, 16),
    jokers=st.integers(0, 2),
    opening=st.booleans(),
    small=st.booleans(),
)
def test_a_simpler_play_is_valid_and_takes_at_most_three_moves(
    seed: int, sets: int, rack_size: int, jokers: int, opening: bool, small: bool
) -> None:
    rules = SMALL_RULES if small else STANDARD
    rack, before = deal(seed, sets, rack_size, rules)
    rack = with_jokers(seed, rack, before, rules, jokers)
    best = solve(rack, before, rules, initial_meld=opening)
    offer = simpler(best)
    if offer is None:
        return
    assert moves_of(best) > MOST_MOVES and offer.best_moves == moves_of(best)
    check_simple(offer.solution, offer.moves, rack, before)
    assert 0 < offer.tiles <= best.tiles_placed and offer.fewer == best.tiles_placed - offer.tiles
    assert "{" not in str(offer.text())


#: the moves the listed steps make (a joker moved for a rack tile aside)
PLAIN = {MoveKind.NEW_SET, MoveKind.EXTEND, MoveKind.INSERT_SPLIT}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), sets=st.integers(0, 10), rack_size=st.integers(1, 12), opening=st.booleans())
def test_the_search_finds_the_best_play_when_it_is_made_of_such_steps(
    seed: int, sets: int, rack_size: int, opening: bool
) -> None:
    """Where the solver's best play takes at most three moves, each a new set of rack tiles, rack tiles put on
    a set, or a rack tile put into a run (no joker on the rack), the search lays as many tiles."""
    rack, before = deal(seed, sets, rack_size, STANDARD)
    best = solve(rack, before, STANDARD, initial_meld=opening)
    if not best.has_play:
        return
    moves = plan_of(best, budget=60).moves
    plain = all(
        m.kind in PLAIN and (m.kind is not MoveKind.NEW_SET or all(tr.source is None for tr in m.transfers))
        for m in moves
    )
    found = simplest_play(rack, before, STANDARD, initial_meld=opening)
    if found is None:  # (a play made only of other moves: a set broken up, tiles moved between sets)
        assert not plain
        return
    play, n, proven = found
    check_simple(play, n, rack, before)
    assert play.tiles_placed <= best.tiles_placed
    if plain and len(moves) <= MOST_MOVES:
        assert play.tiles_placed == best.tiles_placed and proven


def test_a_run_whose_joker_stands_elsewhere_once_grown_is_one_move() -> None:
    """Found by the property test above: ``J 5B 6B`` (the joker as 4B) with 8B on the rack is "put 8B on the run"
    (the joker now 7B), one move, which the search lays as the solver does; the run is not counted as kept."""
    table = parse_table("J 5B 6B", STANDARD)
    found = simplest_play(parse_tiles("12O 8B", STANDARD), table, STANDARD)
    assert found is not None
    play, moves, _proven = found
    assert [str(s) for s in play.table] == ["5B 6B J 8B"] and moves == 1 and play.kept_sets == 0
