"""The invariants every change keeps (``bot.game.invariants``), each broken once on purpose."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.game import errors as e
from bot.game.invariants import broken, check
from tests.game_support import ALICE, BOB, game


def test_a_sound_game_breaks_nothing() -> None:
    assert broken(game(table_text="1-3R | 5B 5K 5O", racks={ALICE: "9K"})) == []


def test_each_invariant_is_found_when_broken() -> None:
    state = game(table_text="1-3R", racks={ALICE: "1R 1R"})
    assert any("too many of 1R" in why for why in broken(state))
    over = replace(state, players=tuple(replace(p, rack_size=60) for p in state.players))
    assert any("pool holds" in why for why in broken(over))
    nobody = replace(game(), turn=999)
    assert any("nobody's at the table" in why for why in broken(nobody))
    known = game(racks={BOB: "1R 2R"}, sizes={BOB: 1})
    assert any("known tiles on a rack of 1" in why for why in broken(known))
    shuffled = replace(game(table_text="1-3R | 5-7B"), numbers=(2, 1))
    assert any("out of order" in why for why in broken(shuffled))
    with pytest.raises(e.BrokenRecord, match="untrue"):
        check(state)
