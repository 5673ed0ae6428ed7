"""Diffs of game snapshots: applying one and its reverse gets back exactly where we started."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.game import history
from bot.game.seats import next_turn
from bot.game.state import GameState, GameStatus, PlayerState
from solver import STANDARD
from tests.storage_support import ALICE, BOB, CAROL, table, tiles

TILE_CODES = st.sampled_from(["1R", "2R", "3R", "7K", "13O", "J"])
player = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Alice", "Bob", "Carol"]),
        "seat": st.integers(0, 5),
        "rack": st.lists(TILE_CODES, max_size=4),
        "melded": st.booleans(),
        "tiles_played": st.integers(0, 20),
        "active": st.booleans(),
        "rack_size": st.integers(0, 14),
        "unnamed": st.integers(0, 2),
        "declared": st.booleans(),
        "score": st.one_of(st.none(), st.integers(-60, 60)),
    }
)
snapshots = st.fixed_dictionaries(
    {
        "status": st.sampled_from(["running", "ended"]),
        "turn": st.one_of(st.none(), st.sampled_from([ALICE, BOB, CAROL])),
        "table": st.lists(st.lists(TILE_CODES, min_size=3, max_size=3), max_size=3),
        "numbers": st.lists(st.integers(1, 9), max_size=3),
        "adding": st.one_of(st.none(), st.fixed_dictionaries({"player": st.just(ALICE), "before": st.just([]),
                                                                "opening": st.booleans()})),
        "passes": st.integers(0, 3),
        "finish": st.sampled_from([None, "out", "blocked", "stopped"]),
        "winner": st.one_of(st.none(), st.sampled_from([ALICE, BOB])),
        "ended_at": st.one_of(st.none(), st.just("2026-11-22T12:00:00+00:00")),
        "players": st.dictionaries(st.sampled_from([str(ALICE), str(BOB), str(CAROL)]), player),
    }
)  # fmt: skip


@given(snapshots, snapshots)
def test_a_diff_and_its_reverse_go_there_and_back(a: dict[str, Any], b: dict[str, Any]) -> None:
    d = history.diff(a, b)
    assert history.conflicts(a, d) == set()
    assert history.apply(a, d) == b
    back = history.reverse(d)
    assert history.conflicts(b, back) == set()
    assert history.apply(b, back) == a
    assert (d == {}) == (a == b)


@given(snapshots, snapshots, snapshots)
def test_a_later_change_to_the_same_place_is_a_conflict(
    a: dict[str, Any], b: dict[str, Any], c: dict[str, Any]
) -> None:
    """Undoing a->b after b->c conflicts exactly where b->c overwrote what a->b wrote."""
    first, later = history.diff(a, b), history.diff(b, c)
    clash = history.conflicts(c, history.reverse(first))
    if not clash:
        return
    assert any(k == x or k.startswith(x + ":") or x.startswith(k + ":") for k in history.touched(later) for x in clash)


def test_apply_does_not_touch_its_input() -> None:
    a: dict[str, Any] = {
        "status": "running",
        "turn": None,
        "table": [],
        "numbers": [],
        "adding": None,
        "passes": 0,
        "finish": None,
        "winner": None,
        "ended_at": None,
        "players": {"1": {"rack": ["1R"]}},
    }
    b = {**a, "players": {"1": {"rack": ["2R"]}}}
    d = {"players": {"1": {"rack": [["1R"], ["2R"]]}}}
    assert history.apply(a, d) == b
    assert a["players"] == {"1": {"rack": ["1R"]}}


def test_the_turn_goes_round_by_seat_skipping_who_left() -> None:
    def seat(uid: int, n: int, active: bool = True) -> PlayerState:
        return PlayerState(uid, str(uid), n, tuple(tiles("1R")), False, 0, active)

    state = GameState(
        id=1,
        chat_id=1,
        status=GameStatus.RUNNING,
        rules=STANDARD,
        table=tuple(table("1-3K")),
        players=(seat(ALICE, 0), seat(BOB, 1, active=False), seat(CAROL, 2)),
        turn=ALICE,
        invite="x",
        version=1,
        created_at=datetime.now(UTC),
        ended_at=None,
    )
    assert next_turn(state, ALICE) == CAROL
    assert next_turn(state, BOB) == CAROL
    assert next_turn(state, CAROL) == ALICE
    assert next_turn(state, None) == ALICE
    assert next_turn(replace(state, players=()), ALICE) is None
