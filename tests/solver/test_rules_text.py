"""Rules options (`/new meld=25 jokers=1`): every mistake is a clear error, in time linear in the text."""

from __future__ import annotations

import time

import pytest

from bot.telegram import parsing
from solver import STANDARD, RummikubError
from solver.rules_text import OptionError, options, parse_rules


def test_options_set_the_rules_spaces_around_the_sign_or_not() -> None:
    rules = parse_rules("meld = 25 jokers= 1 joker_value =50 colors=3")
    assert (rules.initial_meld, rules.jokers, rules.joker_value, rules.colours) == (25, 1, 50, 3)
    assert parse_rules("") == STANDARD
    assert list(options("a =b c= d e")) == ["a=b", "c=d", "e"]


def test_the_bot_reads_rules_with_the_solvers_reader() -> None:
    assert parsing.parse_rules is parse_rules and parsing.OptionError is OptionError


@pytest.mark.parametrize("digit", ["\u00b2", "\u00b3", "\u00b9", "\u2460", "\u0663"])
def test_digits_other_than_0_to_9_are_an_error_not_a_crash(digit: str) -> None:
    with pytest.raises(OptionError, match=r"meld takes a whole number in digits 0-9, like meld=25"):
        parse_rules(f"meld={digit}")


def test_a_huge_number_is_the_readers_error() -> None:
    with pytest.raises(OptionError, match=r"^meld=9+\u2026: meld goes from 0 to 999$"):
        parse_rules("meld=" + "9" * 4301)
    with pytest.raises(OptionError, match="jokers goes from 0 to 9"):
        parse_rules("jokers=10")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("meld", "write rule options as name=number"),
        ("meld=25=3", "write rule options as name=number"),
        ("=25", "write rule options as name=number"),
        ("speed=3", "unknown rule; the rules are colours, copies, deal, joker_value, jokers, meld, numbers, smallest"),
        ("meld=lots", "meld takes a whole number"),
    ],
)
def test_each_mistake_names_the_option_and_the_way_to_write_it(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        parse_rules(text)


def test_rules_that_cannot_be_played_are_still_an_engine_error() -> None:
    with pytest.raises(RummikubError, match="fewer jokers than the smallest set"):
        parse_rules("jokers=7")


@pytest.mark.parametrize(
    "text",
    [
        "a" * 100_000,
        "meld" + " " * 100_000 + "=3",
        " = " * 33_000,
        "meld=1 " * 14_000,
        "_" * 50_000 + "=" + "1" * 50_000,
        "=" * 100_000,
    ],
    ids=["one long word", "long gap", "signs alone", "many options", "long name and number", "only signs"],
)
def test_reading_is_linear_in_the_text(text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(RummikubError):
        parse_rules(text + " speed=3")
    assert time.perf_counter() - started < 1.0  # the old reader took 2.3 s on 10,000 characters
