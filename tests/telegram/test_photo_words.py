"""A photo's reading in words, and the table a tap on it makes: checked without a chat."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import cast

import pytest

from bot.settings import Settings
from bot.storage import Database, GameService
from bot.telegram.handlers.photos import table_text
from bot.telegram.runtime.deps import Deps
from bot.telegram.words.photos import PRIVATE_ASK, reading_text
from solver import STANDARD
from solver.errors import RummikubError
from solver.notation import parse_table, parse_tiles


@pytest.fixture
def deps() -> Iterator[Deps]:
    pool = ThreadPoolExecutor(1)
    yield Deps(
        settings=Settings(_env_file=None),  # type: ignore[call-arg]
        db=cast(Database, None),  # (not used: laying tiles out needs no database)
        service=cast(GameService, None),
        pool=pool,
    )
    pool.shutdown()


def test_a_table_reading_shows_its_sets_the_tiles_apart_corrections_and_doubts() -> None:
    sets = parse_table("1R 2R 3R | 7K 7O 7B", STANDARD)
    tiles = [t for s in sets for t in s.tiles] + parse_tiles("5K 13B", STANDARD)
    loose, doubts = parse_tiles("13B 5K", STANDARD), parse_tiles("3R", STANDARD)
    notes = ["read 8R as 3R so that 1R 2R 3R is valid"]
    text = reading_text(tiles, sets, loose, doubts, notes, STANDARD, copy_as="table:", ask=PRIVATE_ASK)
    assert text.splitlines() == [
        "I read 8 tiles, in 2 sets: <code>table: 1R 2R 3R | 7B 7K 7O</code>",
        "Lying apart, in no set: <code>13B 5K</code>",
        "Corrected: read 8R as 3R so that 1R 2R 3R is valid",
        "Not sure of 3R: check it.",
        PRIVATE_ASK,
    ]


def test_a_rack_reading_is_its_tiles_colour_by_colour_and_html_is_escaped() -> None:
    text = reading_text(
        parse_tiles("5K J 1R", STANDARD), None, (), parse_tiles("J 5K", STANDARD), ["<b>"], STANDARD,
        copy_as="", ask="?",
    )  # fmt: skip
    assert text.splitlines() == ["I read 3 tiles: <code>1R 5K J</code>", "Corrected: &lt;b&gt;",
                                 "Not sure of 5K, J: check them.", "?"]  # fmt: skip


async def test_a_tap_on_the_table_lays_out_what_the_photo_showed(deps: Deps) -> None:
    as_sets = {"tiles": ["1R", "2R", "3R"], "sets": [["1R", "2R", "3R"]], "loose": []}
    assert await table_text(deps, as_sets, STANDARD) == "1R 2R 3R"
    apart = {"tiles": ["1R", "2R", "3R", "7K", "5K", "6K"], "sets": [["1R", "2R", "3R"]], "loose": ["7K", "5K", "6K"]}
    assert await table_text(deps, apart, STANDARD) == "1R 2R 3R | 5K 6K 7K"
    rack = {"tiles": ["9B", "1R", "2R"], "sets": None, "loose": []}  # a rack photo: loose tiles, laid out later
    assert await table_text(deps, rack, STANDARD) == "9B 1R 2R"
    stray = {"tiles": ["1R", "2R", "3R", "9B"], "sets": [["1R", "2R", "3R"]], "loose": ["9B"]}
    with pytest.raises(RummikubError, match=r"the tiles lying apart \(9B\) make no set"):
        await table_text(deps, stray, STANDARD)
