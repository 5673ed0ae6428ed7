"""The tile keyboard's buttons for each variant: within Telegram's limits, one key per tile of the game."""

from __future__ import annotations

import pytest

from bot.telegram import callbacks
from bot.telegram.chats import PRIVATE
from bot.telegram.words import keyboard
from solver.notation import parse_tiles
from solver.rules import STANDARD, Rules


@pytest.mark.parametrize("rules", [STANDARD, Rules(colours=3), Rules(jokers=0), Rules(numbers=9, copies=1)])
def test_every_tile_of_the_game_has_one_key_and_the_keyboard_fits_telegram(rules: Rules) -> None:
    markup = keyboard.markup("abcdefghijkl", rules)
    buttons = [b for row in markup.inline_keyboard for b in row]
    assert len(buttons) <= keyboard.MOST_BUTTONS and all(len(row) <= 8 for row in markup.inline_keyboard)
    keys = [callbacks.parse_key(str(b.callback_data), PRIVATE) for b in buttons]
    names = [k.key for k in keys if k is not None]
    assert len(names) == len(buttons)
    tiles = [n for n in names if n not in (callbacks.DELETE, callbacks.DONE)]
    assert sorted(parse_tiles(" ".join(tiles), rules), key=rules.tile_key) == sorted(
        rules.tiles() + ([parse_tiles("J", rules)[0]] if rules.jokers else []), key=rules.tile_key
    )
    assert names[-2:] == [callbacks.DELETE, callbacks.DONE]


def test_a_game_with_more_tiles_than_buttons_is_typed_instead() -> None:
    assert keyboard.fits(STANDARD)
    assert not keyboard.fits(Rules(numbers=30))


def test_the_message_shows_the_tiles_so_far_in_the_racks_order() -> None:
    tiles = parse_tiles("J 5B 3R", STANDARD)
    assert keyboard.text(keyboard.RACK, tiles, STANDARD).splitlines()[-1] == "New rack (3): 3R 5B J"
    assert keyboard.text(keyboard.DRAW, [], STANDARD, "Your rack (0 tiles)").splitlines()[0] == "Your rack (0 tiles)"
