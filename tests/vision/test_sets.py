"""Laying tiles out into lines, and the rules correcting misreads, on constructed cases (no networks)."""

from __future__ import annotations

import numpy as np

from solver.notation import parse_tiles
from solver.rules import STANDARD
from solver.tiles import JOKER, Tile
from vision.correct import read_line
from vision.layout import Place, lines

OPTIONS: list[Tile] = [*STANDARD.tiles(), JOKER]


def row(x: float, y: float, count: int, step: float = 42.0) -> list[Place]:
    """``count`` tiles 40 px wide and 54 tall, side by side from (x, y)."""
    return [Place(x + i * step, y, 40, 54) for i in range(count)]


def likely(*readings: dict[str, float]) -> np.ndarray:
    """One row per tile: the given tiles with their likelihood, the rest shared evenly."""
    out = np.zeros((len(readings), len(OPTIONS)))
    for i, reading in enumerate(readings):
        rest = 1.0 - sum(reading.values())
        out[i, :] = rest / len(OPTIONS)
        for name, p in reading.items():
            out[i, OPTIONS.index(parse_tiles(name, STANDARD)[0])] += p
    return out


def sure(text: str) -> list[dict[str, float]]:
    return [{name: 0.97} for name in text.split()]


def test_rows_with_gaps_are_separate_lines_in_order() -> None:
    places = row(300, 100, 3) + row(10, 100, 4) + row(10, 250, 3)
    found, loose = lines(places)
    assert found == [[3, 4, 5, 6], [0, 1, 2], [7, 8, 9]]
    assert loose == []


def test_a_line_turned_on_the_table_is_read_along_its_length() -> None:
    places = [Place(100 + 30 * i, 100 + 30 * i, 40, 54) for i in range(3)]  # diagonal, 42 px apart
    found, _ = lines(list(reversed(places)))
    assert found == [[2, 1, 0]]


def test_a_heap_and_a_lone_tile_are_loose() -> None:
    heap = [Place(100, 100, 40, 54), Place(142, 100, 40, 54), Place(100, 150, 40, 54), Place(142, 150, 40, 54)]
    found, loose = lines([*heap, Place(500, 400, 40, 54)])
    assert found == []
    assert sorted(loose) == [0, 1, 2, 3, 4]


def test_a_valid_line_is_left_as_read() -> None:
    got = read_line(OPTIONS, likely(*sure("7R 8R 9R")), STANDARD)
    assert got is not None
    assert [str(s) for s in got.sets] == ["7R 8R 9R"]
    assert got.changed == ()


def test_a_misread_number_is_corrected_by_the_run() -> None:
    got = read_line(OPTIONS, likely({"7R": 0.95}, {"8R": 0.95}, {"3R": 0.6, "9R": 0.3}), STANDARD)
    assert got is not None
    assert [str(s) for s in got.sets] == ["7R 8R 9R"]
    assert got.changed == (2,)


def test_a_red_faced_tile_beside_a_run_is_a_joker() -> None:
    got = read_line(OPTIONS, likely(*sure("8B 9B 10B"), {"1R": 0.5, "J": 0.2}), STANDARD)
    assert got is not None
    assert got.tiles == (*parse_tiles("8B 9B 10B", STANDARD), JOKER)
    assert [str(s) for s in got.sets] == ["8B 9B 10B J"]


def test_a_group_fixes_a_colour_read_twice() -> None:
    got = read_line(OPTIONS, likely({"5R": 0.9}, {"5K": 0.6, "5B": 0.35}, {"5K": 0.9}), STANDARD)
    assert got is not None
    assert sorted(map(str, got.tiles)) == ["5B", "5K", "5R"]


def test_two_sets_touching_are_cut_apart() -> None:
    got = read_line(OPTIONS, likely(*sure("3R 4R 5R 7B 7K 7O")), STANDARD)
    assert got is not None
    assert [str(s) for s in got.sets] == ["3R 4R 5R", "7B 7K 7O"]


def test_a_line_far_from_any_set_is_not_forced() -> None:
    assert read_line(OPTIONS, likely(*sure("2R 7B 11K")), STANDARD) is None


def test_a_line_too_short_for_a_set_has_no_reading() -> None:
    assert read_line(OPTIONS, likely(*sure("2R 3R")), STANDARD) is None


def test_no_more_jokers_than_the_rules_allow() -> None:
    few = STANDARD.replace(jokers=0)
    got = read_line(OPTIONS, likely(*sure("8B 9B 10B"), {"1R": 0.5, "J": 0.45, "11B": 0.04}), few)
    assert got is not None
    assert got.tiles[-1] == parse_tiles("11B", STANDARD)[0]


def test_five_of_a_number_are_not_one_group() -> None:
    got = read_line(OPTIONS, likely(*sure("7R 7B 7K 7O"), {"J": 0.97}), STANDARD)
    assert got is None or all(len(s) <= STANDARD.max_group for s in got.sets)


def test_a_long_line_is_read_quickly() -> None:
    """A rack of tiles standing side by side is one long line: the search must stay small."""
    import time

    text = "1R 2R 3R 4R 5R 6R 7R 8R 9R 10R 11R 12R 13R 5B 6B 7B 8B 9B 9K 9O 9R 1K 2K 3K 4K 5K 6K 7K 8K 9K"
    start = time.process_time()
    got = read_line(OPTIONS, likely(*sure(text)), STANDARD)
    assert time.process_time() - start < 2.0
    assert got is not None
    assert " ".join(map(str, got.tiles)) == text
