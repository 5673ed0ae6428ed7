"""The kept forms of the table's sets: an old set's jokers stay in it, and the forms can be made ahead."""

from __future__ import annotations

from collections import Counter

from solver import Rules, parse_set, parse_table, parse_tiles
from solver.kept import FORMS, variants, warm_forms
from solver.solve import solve
from solver.tiles import JOKER, Tile

R = Rules()


def _pool(*texts: str) -> dict[int, int]:
    return {t.id: n for t, n in Counter(t for text in texts for t in parse_tiles(text, R)).items()}


def _jokers_stand_for(sets: object) -> list[str]:
    return sorted(str(s) for ts in sets for t, s in zip(ts.tiles, ts.stands_for, strict=True) if t.is_joker)  # type: ignore[attr-defined]


def test_every_kept_form_of_a_run_holds_its_joker_where_it_stood() -> None:
    pool = _pool("4R 5R 6R 7R 8R 9R J", "3R 10R")
    with_joker = parse_set("5R J 7R", R)
    grown = variants(with_joker, R, pool)
    assert str(grown[0].sets[0]) == "5R J 7R"  # the set as it lies comes first: the start the model is given
    assert all(shape.jokers == 1 and _jokers_stand_for(shape.sets) == ["6R"] for shape in grown)
    assert {" | ".join(str(s) for s in shape.sets) for shape in grown} >= {
        "3R 4R 5R J 7R 8R 9R",  # grown at both ends
    }
    # without its joker the set's forms are other columns: a 6R in place of the joker is a change, not a keep
    without = variants(parse_set("5R 6R 7R", R), R, pool)
    assert all(shape.jokers == 0 for shape in without)


def test_a_run_split_by_an_inserted_tile_keeps_its_joker_in_place() -> None:
    old = parse_set("2O 3O 4O 5O 6O 7O 8O 9O 10O J 12O 13O", R)
    forms = {" | ".join(str(s) for s in shape.sets) for shape in variants(old, R, _pool("11O", str(old)))}
    assert "2O 3O 4O 5O 6O 7O 8O 9O 10O J | 11O 12O 13O" in forms
    assert "J 2O 3O 4O 5O 6O 7O 8O 9O 10O 11O 12O 13O" not in forms  # the joker moved: not kept


def test_a_groups_joker_may_stand_for_any_colour_it_lacks() -> None:
    old = parse_set("5R 5B J", R)
    forms = variants(old, R, _pool("5R 5B J 5K 5O"))
    assert all(shape.jokers == 1 for shape in forms)
    assert {tuple(sorted(str(t) for t, _ in shape.counts)) for shape in forms} == {
        ("5B", "5R"),
        ("5B", "5K", "5R"),
        ("5B", "5O", "5R"),
    }
    assert Tile(5, old.stands_for[0].colour) in old.stands_for and JOKER in old.tiles


def test_warming_up_works_out_the_forms_of_every_set_the_rules_allow() -> None:
    FORMS.clear()
    warm_forms(R)
    made = len(FORMS)
    assert made == 4 * sum(13 - length + 1 for length in range(3, 14)) + 13 * 5  # every run, every group
    table = parse_table("1-13R | 7RBKO | 2B 3B 4B | 10K 11K 12K | 4B 4K 4O", R)
    solve(parse_tiles("3K 5K 6K 8O 9O", R), table, R)
    assert len(FORMS) == made  # no set of this table was new
    solve(parse_tiles("3K", R), parse_table("J 2B 3B", R), R)
    assert len(FORMS) == made + 1  # a set with a joker has forms of its own


def test_a_split_half_grown_by_three_at_its_end_counts_as_kept() -> None:
    """3K-7K split by a 6K, its upper half grown to 10K (6K 7K J 9K 10K): no shorter form keeps as many sets,
    so the model must know it, and ``kept_sets`` must count it (found by the property test, seed 32182)."""
    from solver.rules import STANDARD
    from tests.oracle import kept_count
    from tests.solver.test_solve_properties import deal

    rack, table = deal(32182, 10, 8, STANDARD)
    solution = solve(rack, table, STANDARD)
    assert solution.kept_sets == kept_count(table, solution.table) == 6
