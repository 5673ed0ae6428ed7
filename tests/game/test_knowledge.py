"""What the bot knows of the racks stays true with the table: the newest word wins (``bot.game.knowledge``)."""

from __future__ import annotations

import pytest

from bot.game import errors as e
from bot.game.knowledge import reconcile
from bot.game.racks import set_rack
from tests.game_support import ALICE, BOB, CAROL, game, rack
from tests.storage_support import tiles


def test_an_older_rack_gives_up_the_copies_a_newer_one_holds() -> None:
    state = game(racks={BOB: "5R 5R 9K", CAROL: "5R 1O"})
    after, trimmed = set_rack(state, ALICE, tiles("5R 7B"))
    assert trimmed == (BOB,)  # Bob comes first at the table: his two copies go before Carol's
    assert rack(after, BOB) == ["9K"] and rack(after, CAROL) == ["5R", "1O"]
    bob = after.player(BOB)
    assert bob is not None and bob.rack_size == 3 and bob.unknown == 2  # still three tiles, two unknown


def test_the_tellers_own_tiles_beyond_the_deck_are_refused() -> None:
    state = game(table_text="5R 6R 7R | 5R 5B 5K")
    with pytest.raises(e.TooManyTiles):
        set_rack(state, ALICE, tiles("5R"))


def test_a_sound_game_is_left_alone() -> None:
    state = game(racks={ALICE: "1R", BOB: "1R"})
    assert reconcile(state) == (state, ())
