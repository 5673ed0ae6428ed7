"""The end of a game and its score by the box (``bot.game.ending``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.game import Finish, GameStatus
from bot.game import errors as e
from bot.game.ending import close, declare, scores, stop, waiting_for
from bot.game.invariants import broken
from bot.game.plays import play
from solver import Colour, Tile
from tests.game_support import ALICE, BOB, CAROL, game
from tests.storage_support import table, tiles

NOW = datetime(2026, 11, 26, tzinfo=UTC)


def test_going_out_is_scored_by_the_box_once_every_rack_is_told() -> None:
    state = game(racks={ALICE: "1R 2R 3R", BOB: "5B J", CAROL: "13K"})
    out = play(state, ALICE, ALICE, table("1-3R"), now=NOW).state
    assert [p.user_id for p in waiting_for(out)] == [BOB, CAROL]
    with pytest.raises(e.GameError, match="you went out"):
        declare(out, ALICE, [], NOW)
    after, _ = declare(out, BOB, tiles("5B J"), NOW)
    assert after.running and [p.user_id for p in waiting_for(after)] == [CAROL]
    after, _ = declare(after, CAROL, tiles("13K"), NOW)
    assert after.status is GameStatus.ENDED and after.ended_at == NOW and broken(after) == []
    assert [(s.name, s.score, s.won) for s in scores(after)] == [("Alice", 48, True), ("Carol", -13, False),
                                                                  ("Bob", -35, False)]  # fmt: skip


def test_a_stopped_game_is_won_by_the_lowest_rack() -> None:
    state = stop(game(), ALICE, NOW)
    assert state.finish is Finish.STOPPED and state.turn is None
    for uid, left in ((ALICE, "10R 11R"), (BOB, "2B 3K"), (CAROL, "J")):
        state, _ = declare(state, uid, tiles(left), NOW)
    assert state.winner == BOB and not state.running
    assert {s.name: s.score for s in scores(state)} == {"Bob": 21 + 30, "Alice": -21, "Carol": -30}


def test_closing_a_game_scores_the_racks_told_or_known_and_none_for_the_others() -> None:
    state = stop(game(racks={BOB: "4B 5B"}), ALICE, NOW)
    state, _ = declare(state, ALICE, tiles("9O"), NOW)
    closed = close(state, ALICE, NOW)
    assert not closed.running
    carol = closed.player(CAROL)
    assert carol is not None and carol.score is None  # her rack was never told nor known
    assert {s.name: s.score for s in scores(closed)} == {"Alice": 9, "Bob": -9}


def test_a_game_of_one_is_closed_at_once() -> None:
    alone = game(players=(ALICE,), chat_id=ALICE, racks={ALICE: "1R"})
    closed = stop(alone, ALICE, NOW)
    assert closed.status is GameStatus.ENDED and scores(closed) == () and broken(closed) == []


def test_a_rack_told_at_the_end_may_not_hold_more_than_the_deck() -> None:
    state = stop(game(table_text="4R 5R 6R | 4R 4B 4K"), ALICE, NOW)
    with pytest.raises(e.TooManyTiles):
        declare(state, BOB, tiles("4R"), NOW)
    state = replace(state, finish=None)
    with pytest.raises(e.GameError, match="still on"):
        declare(state, BOB, tiles("1K"), NOW)


def test_a_game_closed_with_one_rack_told_has_no_score() -> None:
    state = stop(game(), ALICE, NOW)
    state, _ = declare(state, CAROL, tiles("5K"), NOW)
    closed = close(state, ALICE, NOW)
    assert not closed.running and scores(closed) == ()


def test_a_rack_told_at_the_end_may_not_hold_more_than_the_game_has_left() -> None:
    state = stop(game(), ALICE, NOW)
    assert state.pool == 106 - 3 * 14
    every = [Tile(n, c) for c in Colour for n in range(1, 14)] * 2
    with pytest.raises(e.TooManyTiles, match="the racks would hold 107"):
        declare(state, BOB, every[: 14 + state.pool + 1], NOW)  # one tile more than Bob's rack and the pool
    after, _ = declare(state, BOB, every[: 14 + state.pool], NOW)  # the pool's tiles were on his rack after all
    assert after.pool == 0 and broken(after) == []
