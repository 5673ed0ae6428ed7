"""The grown forms of the table's sets: where a set's jokers lie does not change them, and they can be made ahead."""

from __future__ import annotations

from collections import Counter

from solver import Rules, parse_set, parse_table, parse_tiles
from solver.kept import _forms, variants, warm_forms
from solver.solve import solve

R = Rules()


def _pool(*texts: str) -> dict[int, int]:
    return {t.id: n for t, n in Counter(t for text in texts for t in parse_tiles(text, R)).items()}


def test_a_sets_grown_forms_do_not_depend_on_where_its_jokers_lie() -> None:
    pool = _pool("4R 5R 6R 7R 8R 9R J", "3R 10R")
    with_joker, without = parse_set("5R J 7R", R), parse_set("5R 6R 7R", R)
    assert with_joker.stands_for == without.stands_for
    grown = variants(with_joker, R, pool)
    assert grown == variants(without, R, pool)
    assert {str(s) for shape in grown for s in shape.sets} >= {"5R 6R 7R", "3R 4R 5R 6R 7R 8R 9R"}


def test_warming_up_works_out_the_forms_of_every_set_the_rules_allow() -> None:
    _forms.cache_clear()
    warm_forms(R)
    made = _forms.cache_info().currsize
    assert made == 4 * sum(13 - length + 1 for length in range(3, 14)) + 13 * 5  # every run, every group
    table = parse_table("1-13R | 7RBKO | J 2B 3B | 10K J 12K | 4B 4K 4O", R)
    solve(parse_tiles("3K 5K 6K 8O 9O", R), table, R)
    assert _forms.cache_info().currsize == made  # no set of this table was new
