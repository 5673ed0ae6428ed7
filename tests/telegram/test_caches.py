"""The bot's in-memory caches are bounded by what they hold, not by how many entries: a variant with 99
numbers makes each entry a hundred times larger, and the memory used must not grow with it. (The shown
suggestions are not a cache: they are kept in the database, one per player, game and objective.)"""

from __future__ import annotations

from bot.game import codec
from solver import STANDARD
from solver.rules import Rules


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
