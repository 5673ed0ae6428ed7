"""What a typed play means on the table (``bot.game.placing``): sets as they lie, grown sets, new sets,
loose tiles placed where they fit, and the whole new table."""

from __future__ import annotations

import pytest

from bot.game.placing import MAX_CHOICES, NoPlace, Placement, read_play
from solver import STANDARD, TileSet
from solver.notation import parse_table_chunks
from solver.solve import arrange
from tests.storage_support import table


def readings(on: str, typed: str) -> list[Placement]:
    return read_play(table(on) if on else [], parse_table_chunks(typed, STANDARD), STANDARD, arrange)


def layout(sets: tuple[TileSet, ...]) -> list[str]:
    return [str(s) for s in sets]


def only(on: str, typed: str) -> list[str]:
    found = readings(on, typed)
    assert len(found) == 1, [p.describe() for p in found]
    return layout(found[0].table)


def test_a_set_written_as_it_lies_is_that_set_and_a_longer_one_grows_it() -> None:
    # the family's case: not a second 11R 12R 13R
    assert only("11R 12R 13R | 1B 2B 3B", "11R 12R 13R | 1B 2B 3B 4B") == ["11R 12R 13R", "1B 2B 3B 4B"]


def test_a_set_written_twice_is_a_second_copy() -> None:
    assert only("1R 2R 3R", "1R 2R 3R | 1R 2R 3R") == ["1R 2R 3R", "1R 2R 3R"]


def test_a_set_that_joins_two_runs_replaces_both() -> None:
    assert only("1R 2R 3R | 5R 6R 7R | 9K 9O 9B", "1-7R") == ["1R 2R 3R 4R 5R 6R 7R", "9B 9K 9O"]


def test_a_new_set_goes_after_the_table() -> None:
    assert only("7B 8B 9B", "11K 12K 13K") == ["7B 8B 9B", "11K 12K 13K"]


def test_a_single_tile_with_one_place_goes_there() -> None:
    assert only("7B 8B 9B", "10B") == ["7B 8B 9B 10B"]
    assert only("7B 8B 9B | 3R 4R 5R", "10B 6R") == ["7B 8B 9B 10B", "3R 4R 5R 6R"]
    assert only("7B 8B 9B", "10B 11B") == ["7B 8B 9B 10B 11B"]


def test_a_tile_with_several_places_gives_a_choice() -> None:
    found = readings("7B 8B 9B | 10R 10K 10O", "10B")
    assert sorted(p.describe() for p in found) == ["10B onto 10R 10K 10O", "10B onto 7B 8B 9B"]
    assert sorted(layout(p.table)[0] for p in found) == ["7B 8B 9B", "7B 8B 9B 10B"]


def test_loose_tiles_that_fit_nowhere_are_refused_with_a_hint() -> None:
    with pytest.raises(NoPlace, match=r"fits onto no set.*1R 2R 3R 4R"):
        readings("7B 8B 9B", "5K")
    with pytest.raises(NoPlace, match="fits onto no set"):
        readings("", "5K")


def test_a_joker_with_too_many_places_asks_for_the_sets() -> None:
    on = " | ".join(f"{n}R {n}B {n}K" for n in range(1, 9))
    with pytest.raises(NoPlace, match=f"{MAX_CHOICES + 1} or more ways"):
        readings(on, "J")


def test_loose_tiles_that_make_sets_of_their_own_are_new_sets() -> None:
    assert only("1K 2K 3K", "3R 4R 5R 7B 7O 7K") == ["1K 2K 3K", "3R 4R 5R", "7B 7K 7O"]


def test_the_whole_new_table_written_out_is_that_table() -> None:
    assert only("3R 4R 5R 6R | 7K 7O 7B", "3R 4R 5R | 6R 7R 8R | 7K 7O 7B") == [
        "3R 4R 5R",
        "6R 7R 8R",
        "7B 7K 7O",
    ]
