"""Turns as a family takes them (``bot.game.turns``): a draw ends the turn, a tile drawn in the group is named
in private, a pass only on an empty pool, a round of passes ends the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.game import Finish
from bot.game import errors as e
from bot.game.invariants import broken
from bot.game.turns import draw, names_drawn, pass_turn, told_draw
from tests.game_support import ALICE, BOB, CAROL, game, rack
from tests.storage_support import tiles


def test_the_pool_is_the_deck_less_the_table_and_the_racks() -> None:
    state = game(table_text="1-3R")
    assert state.pool == 106 - 3 - 3 * 14


def test_a_draw_in_the_group_ends_the_turn_and_waits_to_be_named() -> None:
    state = game(racks={ALICE: "1R 2R"}, sizes={ALICE: 2})
    drawn = draw(state, ALICE)
    after = drawn.state
    alice = after.player(ALICE)
    assert alice is not None and (alice.rack_size, alice.unnamed) == (3, 1) and rack(after, ALICE) == ["1R", "2R"]
    assert after.turn == BOB and after.pool == state.pool - 1 and drawn.count == 1 and not drawn.named
    assert names_drawn(after, ALICE, tiles("7K"))
    named = told_draw(after, ALICE, tiles("7K"))  # later, in private: the tile, no turn
    assert named.named_only and named.state.turn == BOB
    alice = named.state.player(ALICE)
    assert alice is not None and alice.unnamed == 0 and rack(named.state, ALICE) == ["1R", "2R", "7K"]
    assert broken(named.state) == []


def test_a_draw_told_in_private_with_its_tile_is_the_turn() -> None:
    state = game(racks={ALICE: "1R"}, sizes={ALICE: 1})
    drawn = told_draw(state, ALICE, tiles("7K"))
    assert not drawn.named_only and drawn.count == 1 and drawn.state.turn == BOB
    assert rack(drawn.state, ALICE) == ["1R", "7K"]


def test_a_draw_on_someone_elses_turn_is_asked_about() -> None:
    state = game()
    with pytest.raises(e.NotYourTurn, match="Alice's turn"):
        draw(state, CAROL)
    drawn = draw(state, CAROL, out_of_turn=True)
    assert drawn.skipped == (ALICE, BOB) and drawn.state.turn == ALICE


def test_a_draw_closes_the_play_that_may_grow() -> None:
    from bot.game.plays import play
    from tests.storage_support import table

    played = play(game(racks={ALICE: "1R 2R 3R 4R"}), ALICE, ALICE, table("1-3R"))
    assert played.state.adding is not None
    assert draw(played.state, BOB).state.adding is None


def test_a_pass_is_for_an_empty_pool_and_a_round_of_them_ends_the_game() -> None:
    with pytest.raises(e.NoTiles, match="a turn without a play is a draw"):
        pass_turn(game(), ALICE)
    state = game()
    state = replace(state, players=tuple(replace(p, rack_size=p.rack_size + state.pool // 3) for p in state.players))
    state = replace(
        state,
        players=(*state.players[:2], replace(state.players[2], rack_size=state.players[2].rack_size + state.pool)),
    )
    assert state.pool == 0
    with pytest.raises(e.PoolEmpty, match="the pool is empty"):
        draw(state, ALICE, tiles("7K"))
    first = draw(state, ALICE)  # a draw on an empty pool is a pass
    assert first.passed and first.state.turn == BOB and first.state.passes == 1
    second = pass_turn(first.state, BOB)
    third = pass_turn(second.state, CAROL)
    assert third.state.finish is Finish.BLOCKED and third.state.turn is None and broken(third.state) == []


def test_a_draw_cannot_take_more_than_the_pool_holds() -> None:
    state = game()
    full = replace(state, players=(replace(state.players[0], rack_size=14 + state.pool - 1), *state.players[1:]))
    assert full.pool == 1
    with pytest.raises(e.PoolEmpty, match="only 1 tile"):
        draw(full, ALICE, tiles("7K 8K"))


def test_a_pass_out_of_turn_starts_the_round_of_passes_again() -> None:
    state = game(players=(ALICE, BOB))
    state = replace(state, players=(replace(state.players[0], rack_size=14 + state.pool), state.players[1]))
    assert state.pool == 0
    first = pass_turn(state, ALICE)
    again = pass_turn(first.state, ALICE, out_of_turn=True)  # Bob's turn passed over: he did not pass
    assert again.skipped == (BOB,) and again.state.finish is None and again.state.passes == 1
    assert pass_turn(again.state, BOB).state.finish is Finish.BLOCKED


def test_a_draw_or_a_pass_is_told_by_someone_at_the_table_as_a_play_is() -> None:
    """Carol at the table may say "Alice drew"; Grandpa, watching the group, may not (nor could he record a
    play): the turn is the players' to tell."""
    grandpa = 999
    state = game()
    with pytest.raises(e.NotAPlayer):
        draw(state, ALICE, teller=grandpa)
    assert draw(state, ALICE, teller=CAROL).state.turn == BOB
    empty = replace(state, players=tuple(replace(p, rack_size=p.rack_size + 1) for p in state.players))
    empty = replace(empty, players=(replace(empty.players[0], rack_size=14 + 1 + empty.pool), *empty.players[1:]))
    assert empty.pool == 0
    with pytest.raises(e.NotAPlayer):
        pass_turn(empty, ALICE, teller=grandpa)
    assert pass_turn(empty, ALICE, teller=CAROL).state.passes == 1
