"""Tiles are values made once: equal tiles are the same object, across pickling too (the bot's solver processes)."""

from __future__ import annotations

import copy
import pickle

import pytest

from solver import JOKER, Colour, Tile


def test_equal_tiles_are_one_object() -> None:
    assert Tile(3, Colour.RED) is Tile(3, Colour.RED)
    assert Tile() is JOKER
    assert Tile(3, Colour.RED) != Tile(3, Colour.BLUE)
    assert Tile(3, Colour.RED) != Tile(4, Colour.RED)
    assert len({Tile(3, Colour.RED), Tile(3, Colour.RED), JOKER}) == 2


def test_a_pickled_or_copied_tile_comes_back_as_the_same_tile() -> None:
    seven = Tile(7, Colour.ORANGE)
    assert pickle.loads(pickle.dumps(seven)) is seven
    assert pickle.loads(pickle.dumps(JOKER)) is JOKER
    assert copy.deepcopy([seven, JOKER]) == [seven, JOKER]
    assert copy.copy(seven) is seven


def test_a_tile_cannot_change() -> None:
    seven = Tile(7, Colour.ORANGE)
    with pytest.raises(AttributeError):
        seven.number = 8
    with pytest.raises(AttributeError):
        del seven.colour
    assert str(Tile(7, Colour.ORANGE)) == "7O"


def test_tiles_outside_any_deck_still_compare_by_value() -> None:
    # not kept in the table of known tiles (no input makes them), but still values
    assert Tile(500, Colour.RED) == Tile(500, Colour.RED)
    assert hash(Tile(500, Colour.RED)) == hash(Tile(500, Colour.RED))
    assert Tile(82) != Tile(0, Colour.RED)  # the same id, not the same tile
