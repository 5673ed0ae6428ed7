"""The bot's in-memory caches are bounded by what they hold, not by how many entries: a variant with 99
numbers makes each entry a hundred times larger, and the memory used must not grow with it."""

from __future__ import annotations

import dataclasses

from bot.game import codec
from bot.telegram.suggestions import Suggestions, weight
from solver import STANDARD, parse_tiles
from solver.rules import Rules
from solver.solve import solve


def test_decoded_sets_are_kept_up_to_a_number_of_tiles() -> None:
    huge = Rules(numbers=99, copies=9, jokers=0)
    colours = list(huge.colour_order)
    codec.SETS.clear()
    for start in range(1, 60):
        for c in colours:
            for length in range(40, 60):
                if start + length - 1 <= 99:
                    codes = [f"{n}{c.value}" for n in range(start, start + length)]
                    assert len(codec.decode_table([codes], huge)[0].tiles) == length
    cache = codec.SETS
    assert cache.currsize <= codec.SET_CACHE_TILES and cache.maxsize == codec.SET_CACHE_TILES
    assert len(cache) < 2000  # far fewer long sets than the 8192 a count would have kept
    again = codec.decode_table([["3R", "4R", "5R"]], STANDARD)  # still a cache: the same set comes back
    assert codec.decode_table([["3R", "4R", "5R"]], STANDARD)[0] is again[0]


def test_suggestions_are_kept_up_to_a_number_of_tiles_the_latest_first() -> None:
    small = solve(parse_tiles("10R 11R 12R 13R", STANDARD), [], STANDARD)
    big = dataclasses.replace(small, rack_left=tuple(parse_tiles("1R", STANDARD)) * 400)
    kept = Suggestions(tiles=2000)
    for i in range(10):
        kept.put((1, i, "tiles", "f"), big)
    held = [i for i in range(10) if kept.get((1, i, "tiles", "f")) is not None]
    assert held == [6, 7, 8, 9] and 4 * weight(big) <= 2000  # the latest that fit, the older ones forgotten
    for i in range(100):
        kept.put((2, i, "tiles", "f"), small)
    assert kept.get((2, 0, "tiles", "f")) is small and kept.get((2, 99, "tiles", "f")) is small
    # room was made by forgetting the least recently used large ones, as few as needed
    assert [i for i in range(6, 10) if kept.get((1, i, "tiles", "f")) is not None] == [8, 9]
    too_big = dataclasses.replace(small, rack_left=tuple(parse_tiles("1R", STANDARD)) * 3000)
    kept.put((3, 0, "tiles", "f"), too_big)  # larger than the whole room: not kept, and no error
    assert kept.get((3, 0, "tiles", "f")) is None and kept.get((2, 99, "tiles", "f")) is small
