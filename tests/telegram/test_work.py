"""The bot's pictures of recorded plays, and the caption and reading helpers behind its replies."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.parsing import OptionError, command_text, parse_position, parse_rules
from bot.telegram.words.replies import solve_caption
from render import marks_of
from render.marks import Mark
from solver import STANDARD, parse_table, parse_tiles
from solver.recorded import recorded_play
from solver.solve import solve


def test_a_recorded_play_marks_exactly_the_tiles_put_down_and_the_tiles_moved() -> None:
    before = parse_table("6R 7R 8R | 7K 7O 7R | 1B 2B 3B", STANDARD)
    after = parse_table("5R 6R 7R 8R 9R | 7K 7O 7B | 1B 2B 3B 4B | 7R 8R J", STANDARD)
    placed = parse_tiles("5R 9R 7B 4B 8R J", STANDARD)
    shown = recorded_play(before, after, STANDARD)
    marks = marks_of(shown)
    pairs = [(t, m) for s, row in zip(after, marks, strict=True) for t, m in zip(s.tiles, row, strict=True)]
    assert Counter(t for t, m in pairs if m is Mark.RACK) == Counter(placed)
    moved = [str(t) for t, m in pairs if m is Mark.MOVED]
    assert moved == ["7R"]  # from set 2 into the new run
    assert shown.kept_from[:3] == (0, 1, 2)
    assert shown.points_placed == 5 + 9 + 7 + 4 + 8 + 9  # the joker as the 9R it stands for
    assert shown.rack_left == ()  # a group picture never shows a rack


def test_a_long_move_list_is_cut_to_fit_a_caption() -> None:
    solution = solve(parse_tiles("1R 2R 3R 4R 5R 6R", STANDARD), [], STANDARD)
    moves = [f"Put a tile somewhere sensible, move number {i}, with a long explanation" for i in range(60)]
    caption = solve_caption(solution, moves)
    assert len(caption) <= CAPTION_LIMIT
    assert "more move" in caption and caption.endswith("Your rack is empty after this play.")
    assert caption.startswith("Best play (most tiles): 6 tiles, 21 points")


def test_reading_commands_rules_and_position_lines() -> None:
    assert command_text("/table 6R 7R 8R\n7K 7O 7R") == "6R 7R 8R\n7K 7O 7R"
    assert command_text("/solve@rummi_bot") == ""
    rules = parse_rules("meld=25 jokers=1")
    assert (rules.initial_meld, rules.jokers, rules.numbers) == (25, 1, 13)
    for bad in ("meld", "meld=lots", "speed=3", "jokers=7"):
        with pytest.raises(Exception) as caught:
            parse_rules(bad)
        assert isinstance(caught.value, ValueError)  # every RummikubError is one: answered, not a crash
    position = parse_position("Rack: 3R 4R\ntable: 6R 7R 8R\n9B 9K 9O")
    assert position is not None
    assert position.rack == "3R 4R" and position.table == " 6R 7R 8R\n9B 9K 9O".strip(" ")
    assert parse_position("hello there") is None
    with pytest.raises(OptionError):
        parse_position("rack: 1R\nrack: 2R")
