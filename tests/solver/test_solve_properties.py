"""Random positions from a real deck: every answer is legal, and as good as exhaustive search."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import JOKER, STANDARD, Colour, Rules, Tile, TileSet, make_set
from solver.solution import Objective, Solution
from solver.solve import solve
from tests.checks import check_solution
from tests.oracle import Best, best_play, laid


def deal(seed: int, sets: int, rack_size: int, rules: Rules) -> tuple[list[Tile], list[TileSet]]:
    """Shuffle a real deck, lay ``sets`` random valid sets from it, and deal a rack from the rest."""
    rng = random.Random(seed)
    deck = [t for t in rules.tiles() for _ in range(rules.copies)] + [JOKER] * rules.jokers
    rng.shuffle(deck)
    table: list[TileSet] = []
    for _ in range(sets * 10):
        if len(table) == sets:
            break
        if rng.random() < 0.5:
            colour = rng.choice(rules.colour_order)
            length = rng.randint(rules.smallest_set, min(5, rules.numbers))
            start = rng.randint(1, rules.numbers - length + 1)
            want = [Tile(n, colour) for n in range(start, start + length)]
        else:
            number = rng.randint(1, rules.numbers)
            colours: list[Colour] = rng.sample(list(rules.colour_order), rng.randint(rules.smallest_set, rules.colours))
            want = [Tile(number, c) for c in colours]
        if JOKER in deck and rng.random() < 0.3:
            want[rng.randrange(len(want))] = JOKER
        if all(deck.count(t) >= want.count(t) for t in set(want)):
            for t in want:
                deck.remove(t)
            table.append(make_set(want, rules))
    return deck[:rack_size], table


SMALL = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: a family variant: numbers 1-7, three colours, one joker, a 12-point opening
SMALL_RULES = Rules(numbers=7, colours=3, copies=2, jokers=1, smallest_set=3, initial_meld=12)


def with_jokers(seed: int, rack: list[Tile], table: list[TileSet], rules: Rules, wanted: int) -> list[Tile]:
    """The rack with up to ``wanted`` of the deck's jokers that are on neither the table nor the rack."""
    free = rules.jokers - sum(s.jokers for s in table) - rack.count(JOKER)
    return rack + [JOKER] * max(0, min(wanted, free))


def figures(solution: Solution) -> Best:
    return Best(solution.tiles_placed, solution.points_placed, solution.kept_sets)


@pytest.mark.parametrize("rules", [STANDARD, SMALL_RULES], ids=["standard", "small variant"])
@pytest.mark.parametrize("objective", list(Objective), ids=[o.value for o in Objective])
@SMALL
@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 3),
    rack_size=st.integers(1, 5),
    rack_jokers=st.integers(0, 2),
)
def test_best_play_equals_the_oracle(
    rules: Rules, objective: Objective, seed: int, sets: int, rack_size: int, rack_jokers: int
) -> None:
    """Tiles, points and sets kept all equal exhaustive search's (jokers on the table and the rack)."""
    rack, table = deal(seed, sets, rack_size, rules)
    rack = with_jokers(seed, rack, table, rules, rack_jokers)
    solution = solve(rack, table, rules, objective=objective)
    check_solution(solution, rack, table, rules)
    oracle = best_play(rack, [laid(s) for s in table], rules, points_first=objective is Objective.POINTS)
    assert figures(solution) == oracle


@pytest.mark.parametrize("objective", list(Objective), ids=[o.value for o in Objective])
@SMALL
@given(seed=st.integers(0, 10**9), rack_size=st.integers(3, 7), rack_jokers=st.integers(0, 2))
def test_opening_equals_the_oracle(objective: Objective, seed: int, rack_size: int, rack_jokers: int) -> None:
    rack, table = deal(seed, 1, rack_size, STANDARD)
    rack = with_jokers(seed, rack, table, STANDARD, rack_jokers)
    solution = solve(rack, table, STANDARD, objective=objective, initial_meld=True)
    check_solution(solution, rack, table, STANDARD)
    oracle = best_play(
        rack, [laid(s) for s in table], STANDARD, points_first=objective is Objective.POINTS, initial_meld=True
    )
    assert figures(solution) == oracle


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 12),
    rack_size=st.integers(0, 20),
    objective=st.sampled_from(Objective),
)
def test_every_answer_is_legal_on_bigger_tables(seed: int, sets: int, rack_size: int, objective: Objective) -> None:
    rack, table = deal(seed, sets, rack_size, STANDARD)
    solution = solve(rack, table, STANDARD, objective=objective)
    check_solution(solution, rack, table, STANDARD)
    assert solution.optimal
