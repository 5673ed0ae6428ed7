"""Reading rack:/table: messages that start by naming the bot, as people write in a group."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.telegram.parsing import OptionError, Position, looks_like_position, parse_position
from solver import JOKER, STANDARD, Colour, Tile, format_tiles, parse_table, parse_tiles
from tests.fake_bot_api import BOT_USERNAME


@pytest.mark.parametrize(
    "text",
    [
        f"@{BOT_USERNAME} table: 1R 2R 3R",
        f"@{BOT_USERNAME}\ntable: 1R 2R 3R",
        f"  @{BOT_USERNAME.upper()}   table: 1R 2R 3R",
        "@Rummi_Test_Bot\n\ntable: 1R 2R 3R",
    ],
)
def test_a_leading_mention_of_the_bot_is_not_part_of_the_position(text: str) -> None:
    assert looks_like_position(text, BOT_USERNAME)
    assert parse_position(text, BOT_USERNAME) == Position(rack=None, table="1R 2R 3R")
    assert parse_position(text, "@" + BOT_USERNAME) == Position(rack=None, table="1R 2R 3R")


def test_the_mention_may_come_before_a_rack_and_a_table_over_several_lines() -> None:
    text = f"@{BOT_USERNAME} rack: 3R 4R\ntable: 6R 7R 8R\n9B 9K 9O"
    assert parse_position(text, BOT_USERNAME) == Position(rack="3R 4R", table="6R 7R 8R\n9B 9K 9O")


def test_without_the_bots_name_a_mention_is_read_as_before() -> None:
    text = f"@{BOT_USERNAME} table: 1R 2R 3R"
    assert not looks_like_position(text)
    assert parse_position(text) is None
    with pytest.raises(OptionError, match="start each line with rack: or table:"):
        parse_position(f"@{BOT_USERNAME}\ntable: 1R 2R 3R")


@pytest.mark.parametrize(
    "text",
    [
        "@another_bot table: 1R 2R 3R",  # someone else's bot
        f"@{BOT_USERNAME}s table: 1R 2R 3R",  # a longer name that starts like ours
        f"hey @{BOT_USERNAME} table: 1R 2R 3R",  # not at the start
    ],
)
def test_only_a_leading_mention_of_this_bot_is_dropped(text: str) -> None:
    assert not looks_like_position(text, BOT_USERNAME)
    assert parse_position(text, BOT_USERNAME) is None


def test_a_mention_of_another_bot_before_table_lines_is_still_a_mistake() -> None:
    with pytest.raises(OptionError, match="@another_bot: start each line"):
        parse_position("@another_bot\ntable: 1R 2R 3R", BOT_USERNAME)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rack: 3R 4R 5R 9B table: 6R 7R 8R", Position(rack="3R 4R 5R 9B", table="6R 7R 8R")),
        ("hand: 3R 4R", Position(rack="3R 4R", table=None)),
        ("My rack: 3R board: 1B 2B 3B / 5K 6K 7K", Position(rack="3R", table="1B 2B 3B / 5K 6K 7K")),
        ("my hand: 3R\nBoard: none", Position(rack="3R", table="none")),
        ("table: 1R 2R 3R my rack: 4B", Position(rack="4B", table="1R 2R 3R")),
        ("Rack: 3r-5r. Table: (6R 7R 8R) (9B 9K 9O).", Position(rack="3r-5r.", table="(6R 7R 8R) (9B 9K 9O).")),
    ],
)
def test_labels_and_a_rack_and_table_on_one_line(text: str, expected: Position) -> None:
    found = parse_position(text)
    assert found is not None
    assert (found.rack and found.rack.strip(), found.table and found.table.strip()) == (expected.rack, expected.table)


def test_a_word_that_only_contains_a_label_is_not_one() -> None:
    assert parse_position("rack: 3R 4R backtable: 5R") == Position(rack="3R 4R backtable: 5R", table=None)
    with pytest.raises(OptionError, match="write one rack"):
        parse_position("rack: 3R hand: 4R")


@pytest.mark.parametrize("text", ["Board: meeting at 5", "my hand: hurts", "hand: 3R 4R"])
def test_in_a_group_only_rack_and_table_are_labels(text: str) -> None:
    assert not looks_like_position(text, BOT_USERNAME, group=True)
    assert parse_position(text, BOT_USERNAME, group=True) is None
    assert parse_position("rack: 3R 4R table: 1B 2B 3B", group=True) == Position(rack="3R 4R ", table="1B 2B 3B")


_tiles = st.builds(Tile, st.integers(1, 13), st.sampled_from(list(Colour))) | st.just(JOKER)


@given(
    st.lists(_tiles, min_size=1, max_size=14),
    st.lists(st.sampled_from(["1R 2R 3R", "7B 7K 7O", "(9K 10K 11K)", "4O-6O"]), max_size=4),
    st.sampled_from(["rack:", "Rack:", "hand:", "my rack:", "My hand :"]),
    st.sampled_from(["table:", "TABLE:", "board:"]),
    st.sampled_from([" ", "\n", "  "]),
    st.sampled_from([" | ", " / ", "\n", " "]),
)
@settings(max_examples=60)
def test_any_rack_and_table_under_any_label_on_one_line_or_two_read_back(
    rack: list[Tile], sets: list[str], rack_label: str, table_label: str, between: str, sep: str
) -> None:
    table = sep.join(sets) if sets else "none"
    found = parse_position(f"{rack_label} {format_tiles(rack, STANDARD)}{between}{table_label} {table}.")
    assert found is not None and found.rack is not None and found.table is not None
    assert sorted(parse_tiles(found.rack, STANDARD), key=STANDARD.tile_key) == sorted(rack, key=STANDARD.tile_key)
    expected = [parse_tiles(s, STANDARD) for s in sets] if sep != " " else [parse_tiles(" ".join(sets), STANDARD)]
    read = [list(s.tiles) for s in parse_table(found.table, STANDARD)] if sep != " " else None
    if read is not None:
        assert [sorted(s, key=STANDARD.tile_key) for s in read] == [sorted(s, key=STANDARD.tile_key) for s in expected]
    else:
        assert parse_tiles(found.table, STANDARD) == [t for s in expected for t in s]
