"""The rules in words for every kind of variant, and examples that are tiles of the game's own deck."""

from __future__ import annotations

import pytest

from bot.telegram.words.rules import example_draw, example_table, example_tiles, rules_short, rules_text
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD, Rules


def test_each_change_from_the_boxed_game_is_named_in_words() -> None:
    assert rules_short(STANDARD) == "standard rules"
    assert rules_short(Rules(initial_meld=0)) == "standard rules except: a first play of any points"
    assert rules_short(Rules(joker_value=50)) == "standard rules except: a joker counts 50 points"
    assert rules_short(Rules(jokers=0, joker_value=50)) == "standard rules except: no jokers"  # no joker to count
    assert rules_short(Rules(colours=3, copies=1)) == (
        "standard rules except: numbers 1 to 13 in three colours (red, blue and black); one copy of each"
    )
    assert rules_short(Rules(smallest_set=4)) == "standard rules except: sets of at least 4 tiles"
    text = rules_text(Rules(numbers=9, colours=1, jokers=1))
    assert text.startswith("Standard rules, except: numbers 1 to 9 in one colour (red); 1 joker.\nIn full: ")
    assert "=" not in text


VARIANTS = [STANDARD, Rules(jokers=0), Rules(colours=1, numbers=5, jokers=0), Rules(numbers=99, smallest_set=13)]


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_examples_are_tiles_of_the_game(rules: Rules) -> None:
    rack = parse_tiles(example_tiles(rules), rules)  # parsing checks each tile is in the deck
    assert len(rack) == min(rules.smallest_set, rules.numbers) + 1
    assert any(t.is_joker for t in rack) == (rules.jokers > 0)
    assert parse_tiles(example_draw(rules), rules)
    assert len(parse_table(example_table(rules), rules)) == 1  # a valid set
