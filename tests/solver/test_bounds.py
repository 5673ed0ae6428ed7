"""Bounded work: big positions refused up front, the time limit covering the model's building, the forms cache
bounded by forms held, and SCIP's memory limit set."""

from __future__ import annotations

import random
import time

import pytest

from solver import JOKER, Rules, Tile, TileSet, make_set, parse_table, parse_tiles
from solver.bounds import MAX_FORMS, SCIP_MEMORY_MB, TooBigError
from solver.kept import FORMS, _forms, _FormsCache, _grown_group, _grown_run, check_size, form_count
from solver.model import _scip
from solver.rules import LIMITS, STANDARD
from solver.sets import Kind
from solver.solve import solve

BIG = Rules(numbers=99, copies=9, jokers=9, smallest_set=13)


def _long_runs(count: int, length: int = 25) -> list[TileSet]:
    colours = BIG.colour_order
    return [
        make_set([Tile(n, colours[i % 4]) for n in range(1 + 3 * i % 70, 1 + 3 * i % 70 + length)], BIG)
        for i in range(count)
    ]


def test_the_form_count_is_what_the_enumeration_lays_out() -> None:
    rng = random.Random(5)
    for _ in range(300):
        rules = Rules(numbers=rng.randint(5, 30), smallest_set=rng.randint(3, 5), jokers=rng.randint(0, 2))
        colour = rng.choice(rules.colour_order)
        if rng.random() < 0.5:
            length = rng.randint(rules.smallest_set, rules.numbers)
            low = rng.randint(1, rules.numbers - length + 1)
            tiles = [Tile(n, colour) for n in range(low, low + length)]
        else:
            number = rng.randint(1, rules.numbers)
            tiles = [Tile(number, c) for c in rng.sample(rules.colour_order, rng.randint(3, 4))]
        if rules.jokers and len(tiles) > rules.smallest_set and rng.random() < 0.5:
            tiles[rng.randrange(len(tiles))] = JOKER
        try:
            old = make_set(tiles, rules)
        except ValueError:
            continue
        laid = _grown_group(old, rules) if old.kind is Kind.GROUP else _grown_run(old, rules)
        assert form_count(old, rules) == sum(1 for _ in laid), str(old)


def test_a_table_of_long_runs_in_a_big_variant_is_refused_up_front_naming_the_limit() -> None:
    table = _long_runs(36)
    started = time.perf_counter()
    with pytest.raises(TooBigError, match=f"at most {MAX_FORMS:,}"):
        solve(parse_tiles("5R 6R", BIG), table, BIG)
    assert time.perf_counter() - started < 0.5
    check_size(_long_runs(2), BIG)  # two of them are answered


def test_no_single_set_of_any_allowed_variant_is_past_the_bound() -> None:
    """So rule variants need no refusal of their own: a position is refused by its table, not by its rules."""
    rules = Rules(numbers=LIMITS["numbers"][1], copies=9, jokers=9, smallest_set=LIMITS["smallest_set"][1])
    colour = rules.colour_order[0]
    worst = max(
        form_count(TileSet.run(colour, low, (), length), rules)
        for length in range(rules.smallest_set, rules.numbers + 1, 3)
        for low in range(1, rules.numbers - length + 2, 7)
    )
    assert 1_000 < worst <= MAX_FORMS


def test_the_time_limit_covers_building_the_forms() -> None:
    FORMS.clear()
    table = _long_runs(4)  # about 16,000 forms: well over a second to work out
    started = time.perf_counter()
    answer = solve(parse_tiles("5R 6R", BIG), table, BIG, time_limit=0.05)
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5
    assert not answer.optimal and answer.tiles_placed == 0
    assert FORMS.get((table[-1], BIG)) is None, "a set whose forms were cut short is not cached"


def test_the_forms_cache_is_bounded_by_forms_held_not_sets() -> None:
    cache = _FormsCache(limit=40)
    sets = parse_table("4-6R | 5-7R | 6-8R | 7-9R", STANDARD)
    forms = [_forms(s, STANDARD) for s in sets]
    assert [len(f) for f in forms] == [18, 18, 18, 18]
    for s, f in zip(sets, forms, strict=True):
        cache.put((s, STANDARD), f)
        assert cache.forms <= 40
    assert len(cache) == 2 and cache.forms == 36
    assert cache.get((sets[-1], STANDARD)) is not None, "the newest is kept"
    assert cache.get((sets[0], STANDARD)) is None, "the oldest went first"
    cache.put((sets[0], STANDARD), forms[0] * 3)  # more than the whole limit: not kept at all
    assert cache.get((sets[0], STANDARD)) is None and cache.forms == 36


def test_scip_has_a_memory_limit() -> None:
    solve(parse_tiles("5R 6R 7R", STANDARD), [], STANDARD)
    assert _scip().getParam("limits/memory") == SCIP_MEMORY_MB
