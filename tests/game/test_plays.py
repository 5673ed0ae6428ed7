"""The rules of a play in the game core (pure functions, no database): whose turn, the opening (over a whole
turn), racks that do not hold the play, going out, and a recorded play traced as the solver traces its own."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.game import Finish
from bot.game import errors as e
from bot.game.ending import in_progress
from bot.game.invariants import broken
from bot.game.plays import mark_melded, opening_points, play
from bot.game.table import is_play
from solver import STANDARD
from solver.recorded import recorded_play
from tests.game_support import ALICE, BOB, CAROL, game, rack
from tests.storage_support import table


def test_the_turn_players_play_passes_the_turn_on() -> None:
    played = play(game(racks={ALICE: "1R 2R 3R 9K"}), ALICE, ALICE, table("1-3R"))
    assert played.state.turn == BOB and not played.skipped and not played.rack_short and not played.added


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


def test_a_play_may_come_in_parts_until_the_next_player_acts() -> None:
    state = game(racks={ALICE: "10R 11R 12R 5B 5K 5O 9K"}, melded=False)
    first = play(state, ALICE, ALICE, table("10-12R"))
    assert first.state.turn == BOB and first.state.adding is not None and first.state.adding.player == ALICE
    second = play(first.state, ALICE, ALICE, table("10-12R | 5B 5K 5O"))
    assert second.added and not second.skipped and second.state.turn == BOB  # one turn: Bob still to play
    assert rack(second.state, ALICE) == ["9K"]
    # an opening in parts is judged whole: the second part may not touch the table's sets either
    state = game(table_text="1-3K", racks={ALICE: "10R 11R 12R 4K"}, melded=False)
    first = play(state, ALICE, ALICE, table("1-3K | 10-12R"))
    with pytest.raises(e.NotAnOpening, match="new sets from the rack only"):
        play(first.state, ALICE, ALICE, table("1-4K | 10-12R"))


def test_the_next_players_turn_closes_the_play() -> None:
    state = game(racks={ALICE: "1R 2R 3R 4R", BOB: "7B 8B 9B 1O"})
    first = play(state, ALICE, ALICE, table("1-3R"))
    bob = play(first.state, BOB, BOB, table("1-3R | 7-9B"))
    assert bob.state.adding is not None and bob.state.adding.player == BOB
    with pytest.raises(e.NotYourTurn, match="Carol's turn"):
        play(bob.state, ALICE, ALICE, table("1-4R | 7-9B"))


def test_a_play_of_ones_own_with_tiles_the_known_rack_lacks_is_refused() -> None:
    state = game(racks={ALICE: "1R 2R 5K"})
    with pytest.raises(e.RackLacks, match="does not hold 3R"):
        play(state, ALICE, ALICE, table("1-3R"))


def test_a_play_recorded_for_someone_whose_rack_lacks_the_tiles_forgets_that_rack() -> None:
    played = play(game(racks={ALICE: "1R 2R 5K 9O"}), BOB, ALICE, table("1-3R"))
    assert [str(t) for t in played.rack_short] == ["3R"]
    alice = played.state.player(ALICE)
    assert alice is not None and alice.rack == () and alice.rack_size == 1


def test_tiles_a_rack_does_not_name_come_from_its_unknown_tiles() -> None:
    played = play(game(racks={ALICE: "1R 5K"}, sizes={ALICE: 4}), ALICE, ALICE, table("1-3R"))
    alice = played.state.player(ALICE)
    assert alice is not None and rack(played.state, ALICE) == ["5K"] and alice.rack_size == 1
    with pytest.raises(e.RackLacks, match=r"^you have only 2 tiles on your rack"):  # said to Alice
        play(game(sizes={ALICE: 2}), ALICE, ALICE, table("1-3R"))
    with pytest.raises(e.RackLacks, match=r"^Alice has only 2 tiles on their rack"):  # said to Bob, who records it
        play(game(sizes={ALICE: 2}), BOB, ALICE, table("1-3R"))


def test_the_last_tile_wins_and_the_game_waits_for_the_other_racks() -> None:
    played = play(game(racks={ALICE: "1R 2R 3R"}), ALICE, ALICE, table("1-3R"))
    assert played.won
    after = played.state
    assert after.finish is Finish.OUT and after.winner == ALICE and after.turn is None and after.running
    assert broken(after) == []
    with pytest.raises(e.GameFinished, match="tiles left on your rack"):
        play(after, BOB, BOB, table("1-3R | 7-9B"))


def test_a_play_gives_up_another_racks_stale_knowledge_and_says_whose() -> None:
    state = game(table_text="5R 6R 7R", racks={ALICE: "4R 8R 9K", BOB: "4R 8B"}, sizes={ALICE: 6})
    played = play(state, ALICE, ALICE, table("4R 5R 6R 7R"))  # her 4R onto the run
    assert played.trimmed == ()
    played = play(state, ALICE, ALICE, table("4R 5R 6R 7R | 4R 4B 4K"))  # a second 4R down, from tiles unknown
    assert played.trimmed == (BOB,)
    assert rack(played.state, BOB) == ["8B"]  # Bob's 4R is unknown now: the table holds both
    bob = played.state.player(BOB)
    assert bob is not None and bob.rack_size == 2


def test_a_group_records_the_opening_by_its_play_not_by_a_word() -> None:
    with pytest.raises(e.NotAnOpening, match="made by playing it"):
        mark_melded(game(melded=False), ALICE)
    alone = game(melded=False, players=(ALICE,), chat_id=ALICE)
    alice = mark_melded(alone, ALICE).player(ALICE)
    assert alice is not None and alice.melded


def test_a_recorded_play_traces_a_moved_joker_as_moved() -> None:
    # the table's joker went to a new set, and a joker from the rack came with it
    traced = recorded_play(table("J 2R 3R"), table("1R 2R 3R | 9K J J"), STANDARD)
    assert traced.kept_from == (0, None)  # each old set goes with at most one new set
    jokers = [o.old_set for t, o in zip(traced.table[1].tiles, traced.origins[1], strict=True) if t.is_joker]
    assert sorted(jokers, key=lambda o: -1 if o is None else o) == [None, 0]
    assert sorted(str(t) for t in traced.placed) == ["1R", "9K", "J"]
    assert traced.kept_sets == 0  # the old set lost its joker
    # 1R and 9K, and the rack's one joker at the highest a moved joker stands for (11K): the table's joker went
    # with it, but only one joker came from the rack
    assert traced.points_placed == 1 + 9 + 11


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
