"""The rules of a play in the game core (pure functions, no database): whose turn, the opening, racks that
do not match, and a recorded play traced as the solver traces its own answers."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.game import GameState, GameStatus, PlayerState
from bot.game import errors as e
from bot.game.ending import in_progress
from bot.game.plays import opening_points, play
from bot.game.table import is_play
from solver import STANDARD
from solver.recorded import recorded_play
from tests.storage_support import table, tiles

ALICE, BOB, CAROL = 1, 2, 3


def game(*, table_text: str = "", melded: bool = True, racks: dict[int, str] | None = None) -> GameState:
    racks = racks or {}
    players = tuple(
        PlayerState(uid, name, seat, tuple(tiles(racks.get(uid, ""))), melded, 0, True)
        for seat, (uid, name) in enumerate([(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")])
    )
    return GameState(
        id=1, chat_id=-5, status=GameStatus.RUNNING, rules=STANDARD,
        table=tuple(table(table_text)) if table_text else (), players=players, turn=ALICE, invite="x", version=1,
        created_at=datetime.now(UTC), ended_at=None,
    )  # fmt: skip


def test_the_turn_players_play_passes_the_turn_on() -> None:
    played = play(game(racks={ALICE: "1R 2R 3R 9K"}), ALICE, ALICE, table("1-3R"))
    assert played.state.turn == BOB and not played.skipped and not played.rack_stale


def test_a_play_on_someone_elses_turn_names_whose_turn_it_is() -> None:
    state = game(racks={CAROL: "1R 2R 3R 9K"})
    with pytest.raises(e.NotYourTurn, match="Alice's turn") as why:
        play(state, CAROL, CAROL, table("1-3R"))
    assert why.value.turn == ALICE
    played = play(state, CAROL, CAROL, table("1-3R"), out_of_turn=True)
    assert played.skipped == (ALICE, BOB) and played.state.turn == ALICE
    # one player keeping the record for the player whose turn it is: no question, nobody skipped
    assert play(state, CAROL, ALICE, table("1-3R")).state.turn == BOB


def test_the_opening_counts_new_sets_from_the_rack_only_a_joker_as_its_tile() -> None:
    assert opening_points([], table("10R J 12R")) == 33
    assert opening_points(table("3-5R"), table("3-5R | 8-10O")) == 27
    assert opening_points(table("3-5R"), table("3-6R")) is None  # it changed a set of the table
    unmelded = game(table_text="3-5R", melded=False)
    with pytest.raises(e.NotAnOpening, match="27 of 30") as why:
        play(unmelded, ALICE, ALICE, table("3-5R | 8-10O"))
    assert (why.value.points, why.value.needed) == (27, 30)
    with pytest.raises(e.NotAnOpening, match="new sets from the rack only"):
        play(unmelded, ALICE, ALICE, table("3-6R | 10-12O"))
    waived = play(unmelded, ALICE, ALICE, table("3-5R | 8-10O"), opening_waived=True)
    alice = waived.state.player(ALICE)
    assert alice is not None and alice.melded


def test_a_rack_that_lacks_the_tiles_does_not_stop_the_play() -> None:
    played = play(game(racks={ALICE: "1R 2R 5K"}), ALICE, ALICE, table("1-3R"))
    assert [str(t) for t in played.rack_short] == ["3R"] and played.rack_stale and not played.won
    alice = played.state.player(ALICE)
    assert alice is not None and [str(t) for t in alice.rack] == ["5K"] and alice.tiles_played == 3


def test_a_rack_never_set_is_not_told_anything_and_does_not_win() -> None:
    played = play(game(), ALICE, ALICE, table("1-3R"))
    assert not played.rack_stale and not played.won


def test_the_last_tiles_of_a_known_rack_win() -> None:
    assert play(game(racks={ALICE: "1R 2R 3R"}), ALICE, ALICE, table("1-3R")).won


def test_a_recorded_play_traces_a_moved_joker_as_moved() -> None:
    # the table's joker went to a new set, and a joker from the rack came with it
    traced = recorded_play(table("J 2R 3R"), table("1R 2R 3R | 9K J J"), STANDARD)
    assert traced.kept_from == (0, None)  # each old set goes with at most one new set
    jokers = [o.old_set for t, o in zip(traced.table[1].tiles, traced.origins[1], strict=True) if t.is_joker]
    assert sorted(jokers, key=lambda o: -1 if o is None else o) == [None, 0]
    assert sorted(str(t) for t in traced.placed) == ["1R", "9K", "J"]
    assert traced.kept_sets == 0  # the old set lost its joker
    assert traced.points_placed == 1 + 9 + 30  # a joker leaving the rack is worth its penalty


def test_a_recorded_play_counts_a_grown_set_as_kept() -> None:
    traced = recorded_play(table("6K 7K J J | 8K 9K 10K"), table("6K 7K J J | 8K 9K 10K 11K"), STANDARD)
    assert traced.kept_sets == 2 and [str(t) for t in traced.placed] == ["11K"]


def test_a_play_keeps_its_players_meld_flag_and_count() -> None:
    state = game(racks={ALICE: "1R 2R 3R 4R"})
    state = replace(state, players=tuple(replace(p, tiles_played=5) for p in state.players))
    alice = play(state, ALICE, ALICE, table("1-3R")).state.player(ALICE)
    assert alice is not None and alice.tiles_played == 8 and alice.melded


def test_a_shared_table_typed_anew_is_a_play_only_with_new_tiles_after_the_first() -> None:
    assert not is_play(game(), table("1-3R"), fix=False)  # the table the game starts from
    on = game(table_text="1-3R")
    assert is_play(on, table("1-4R"), fix=False)
    assert not is_play(on, table("1-4R"), fix=True)  # a correction
    assert not is_play(on, table("1-3R"), fix=False)  # nothing new


def test_a_game_is_in_progress_once_a_tile_is_anywhere() -> None:
    assert not in_progress(game())
    assert in_progress(game(table_text="1-3R"))
    assert in_progress(game(racks={BOB: "5K"}))
