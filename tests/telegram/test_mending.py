"""Did you mean …? (``bot.telegram.mending``): the nearest right readings of a message the bot could not read,
offered only where they are near and plain, each readable whole as the command that came."""

from __future__ import annotations

import pytest

from bot.telegram.mending import colours_for_letter, read_message, readings
from bot.telegram.words.language import speaking
from solver.rules import STANDARD as R
from solver.tiles import Colour


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("rakc: 3R 4R 5R", ["rack: 3R 4R 5R"]),  # a label misspelt
        ("rack 3R 4R 5R", ["rack: 3R 4R 5R"]),  # a label without its colon
        ("rack: 3R 4R 5R\ntabel: 6R 7R 8R", ["rack: 3R 4R 5R\ntable: 6R 7R 8R"]),  # the second line's label
        ("/rack 3R 4S 5R", ["/rack 3R 4K 5R"]),  # German schwarz in an English chat
        ("/rack 7RBS", ["/rack 7RBK"]),  # in a group too
        ("/rack 3К 4R", ["/rack 3K 4R", "/rack 3R 4R"]),  # Cyrillic К: drawn like K, and красный's letter
        ("/rack 3В 4R", ["/rack 3B 4R"]),  # Cyrillic В drawn like B
        ("/rack 3N", ["/rack 3K", "/rack 3O"]),  # noir and negro, or naranja
        ("/table 6-3R", ["/table 3-6R"]),  # a run high to low
        ("3 rde 4R", ["3R 4R"]),  # a colour word misspelt, apart from its number
        ("rde 3 4R", ["3R 4R"]),
        ("/rack jocker 3R", ["/rack J 3R"]),  # the joker misspelt
        ("/rack 3R 4 R", ["/rack 3R 4R"]),  # a letter apart from its number
        ("/draw 3S", ["/draw 3K"]),
        ("/play 3S 4R | 5R", ["/play 3K 4R | 5R"]),
        ("/left 2G", ["/left 2O"]),  # German gelb
    ],
)
def test_a_near_mistake_is_mended_into_a_reading_that_reads_whole(typed: str, meant: list[str]) -> None:
    assert readings(typed, R) == meant
    for reading in meant:
        read_message(reading, R, group=False, bot_username=None)  # raises if it does not read


@pytest.mark.parametrize(
    "typed",
    [
        "/rack 14R",  # which number was meant, only the family knows
        "/table 1O 2O 4O",  # a run with a gap: a set, not a token
        "/rack 7RRB",  # a group naming a colour twice: which was meant?
        "/rack 3 purple",  # no colour near
        "hello there",  # chatter
        "/new meld=lots",  # not tiles
        "/rack 3R 4R",  # nothing wrong
        "/rack 3P",
    ],
)
def test_nothing_is_offered_where_the_meaning_is_not_plain(typed: str) -> None:
    assert readings(typed, R) == []


def test_a_group_reads_only_labelled_lines_so_only_those_are_mended() -> None:
    assert readings("rack 3R 4R", R, group=True) == []  # "rack 3R" in a family chat may be about anything
    assert readings("tabel: 6R 7R 8R", R, group=True) == ["table: 6R 7R 8R"]


def test_a_tie_between_labels_goes_to_the_readers_language() -> None:
    """``tabel`` is as near the English ``table`` as the Dutch ``tafel``."""
    with speaking("en"):
        assert readings("tabel: 6R 7R 8R", R) == ["table: 6R 7R 8R"]
    with speaking("nl"):
        assert readings("tabel: 6R 7R 8R", R) == ["tafel: 6R 7R 8R"]


def test_a_language_reads_its_own_letters_so_nothing_needs_mending() -> None:
    with speaking("de"):
        assert readings("/rack 3S 4G", R) == []
    assert readings("/rack 3S 4G", R) == ["/rack 3K 4O"]


def test_what_an_unknown_letter_may_stand_for() -> None:
    assert colours_for_letter("s") == [Colour.BLACK]
    assert colours_for_letter("К") == [Colour.BLACK, Colour.RED]
    assert colours_for_letter("z") == [Colour.BLACK]
    assert colours_for_letter("x") == []


def test_a_game_without_a_colour_is_never_offered_it() -> None:
    three = R.replace(colours=3)
    assert Colour.ORANGE not in three.colour_order
    assert readings("/rack 3G", three) == []  # gelb is orange, which this game has not
    assert readings("/rack 3S", three) == ["/rack 3K"]
