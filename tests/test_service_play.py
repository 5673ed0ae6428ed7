"""Players, racks, the table and turns: every request, and every way it can be refused unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.game import EventKind, GameState
from bot.game import errors as e
from bot.storage import GameService
from solver import STANDARD, Colour, Objective, Origin, Solution, TileSet
from tests.storage_support import ALICE, BOB, CAROL, GROUP, layout, service_at, table, tiles, two_player_game


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with service_at(tmp_path) as s:
        yield s


@pytest.fixture
async def game(service: GameService) -> GameState:
    return await two_player_game(service)


async def refused(
    service: GameService, game: GameState, error: type[Exception], match: str, attempt: Awaitable[object]
) -> None:
    """``attempt`` raises ``error`` and the game keeps its version and history."""
    before = await service.game(game.id)
    events = await service.count_events(game.id)
    with pytest.raises(error, match=match):
        await attempt
    assert await service.game(game.id) == before
    assert await service.count_events(game.id) == events


def rack_of(state: GameState, user_id: int) -> str:
    p = state.player(user_id)
    assert p is not None
    return " ".join(str(t) for t in p.rack)


# --- joining and leaving ----------------------------------------------------------------------------


async def test_seats_follow_the_join_order(service: GameService, game: GameState) -> None:
    state = await service.join(game.id, CAROL, "Carol")
    assert [(p.name, p.seat, p.active) for p in state.players] == [
        ("Alice", 0, True),
        ("Bob", 1, True),
        ("Carol", 2, True),
    ]
    assert state.turn == ALICE and state.turn_player is not None and state.turn_player.name == "Alice"


async def test_the_first_to_join_has_the_turn(service: GameService) -> None:
    game = await service.new_game(GROUP, ALICE)
    state = await service.join(game.id, BOB, "")
    assert state.turn == BOB
    assert state.players[0].name == f"player {BOB}"


async def test_joining_twice_is_refused(service: GameService, game: GameState) -> None:
    await refused(service, game, e.AlreadyJoined, "Bob already plays", service.join(game.id, BOB, "Bobby"))


async def test_leaving_returns_the_rack_and_passes_the_turn_on(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("1R 2R"))
    state = await service.leave(game.id, ALICE)
    alice = state.player(ALICE)
    assert alice is not None and not alice.active and alice.rack == ()
    assert state.turn == BOB
    assert [p.user_id for p in state.active_players] == [BOB]
    state = await service.leave(game.id, BOB)
    assert state.turn is None and state.active_players == ()


async def test_leaving_when_not_your_turn_keeps_the_turn(service: GameService, game: GameState) -> None:
    assert (await service.leave(game.id, BOB)).turn == ALICE


async def test_who_left_may_come_back_at_the_end_of_the_table(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    await service.mark_melded(game.id, ALICE)
    await service.leave(game.id, ALICE)
    state = await service.join(game.id, ALICE, "Alice again")
    assert [p.name for p in state.players] == ["Bob", "Carol", "Alice again"]
    alice = state.player(ALICE)
    assert alice is not None and alice.seat == 3 and alice.melded and alice.rack == ()


async def test_only_players_leave(service: GameService, game: GameState) -> None:
    await refused(service, game, e.NotAPlayer, "/join", service.leave(game.id, CAROL))
    await service.leave(game.id, BOB)
    await refused(service, game, e.NotAPlayer, "/join", service.leave(game.id, BOB))


# --- racks -----------------------------------------------------------------------------------------


async def test_set_rack_sorts_and_replaces(service: GameService, game: GameState) -> None:
    state = await service.set_rack(game.id, ALICE, tiles("J 5K 3R 1R 12O"))
    assert rack_of(state, ALICE) == "1R 3R 5K 12O J"
    state = await service.set_rack(game.id, ALICE, tiles("2B"))
    assert rack_of(state, ALICE) == "2B"
    assert rack_of(state, BOB) == ""


async def test_set_rack_to_what_it_is_records_nothing(service: GameService, game: GameState) -> None:
    state = await service.set_rack(game.id, ALICE, tiles("3R"))
    again = await service.set_rack(game.id, ALICE, tiles("3R"))
    assert again == state


async def test_rack_and_table_never_exceed_the_deck(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("5R 6R 7R | 5R 5B 5K"))
    await refused(
        service,
        game,
        e.TooManyTiles,
        "the table and your rack: 3 copies of 5R in all, but the deck has only 2",
        service.set_rack(game.id, ALICE, tiles("5R")),
    )
    await refused(service, game, e.TooManyTiles, "3 jokers", service.set_rack(game.id, BOB, tiles("J J J")))
    # another player's rack is theirs: Bob may hold the 5R that Alice may not
    await service.set_rack(game.id, ALICE, tiles("9O"))
    assert rack_of(await service.set_rack(game.id, BOB, tiles("9O 9O")), BOB) == "9O 9O"


async def test_tiles_outside_the_variant_are_refused(service: GameService) -> None:
    small = STANDARD.replace(numbers=10, colours=3, jokers=0)
    game = await service.new_game(GROUP, ALICE, small, join_as="Alice")
    await refused(
        service, game, e.TooManyTiles, "12R is not in this game's deck", service.set_rack(game.id, ALICE, tiles("12R"))
    )
    await refused(service, game, e.TooManyTiles, "4O is not in", service.draw(game.id, ALICE, tiles("4O")))
    await refused(service, game, e.TooManyTiles, "J is not in", service.set_rack(game.id, ALICE, tiles("J")))


async def test_only_players_have_racks(service: GameService, game: GameState) -> None:
    await refused(service, game, e.NotAPlayer, "not playing", service.set_rack(game.id, CAROL, tiles("1R")))
    await refused(service, game, e.NotAPlayer, "not playing", service.draw(game.id, CAROL, tiles("1R")))


async def test_draw_adds_to_the_rack(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("3R 9K"))
    state = await service.draw(game.id, ALICE, tiles("1R 9K"))
    assert rack_of(state, ALICE) == "1R 3R 9K 9K"
    assert state.turn == ALICE  # drawing does not pass the turn by itself


async def test_draw_needs_tiles_within_the_deck(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("9K 9K"))
    await refused(service, game, e.NoTiles, "/draw 7B", service.draw(game.id, ALICE, []))
    await refused(service, game, e.TooManyTiles, "3 copies of 9K", service.draw(game.id, ALICE, tiles("9K")))


# --- the table ---------------------------------------------------------------------------------------


async def test_set_table_replaces_it_all(service: GameService, game: GameState) -> None:
    state = await service.set_table(game.id, BOB, table("6R 7R 8R | 7K 7O 7R"))
    assert layout(state) == ["6R 7R 8R", "7R 7K 7O"]
    state = await service.set_table(game.id, BOB, table("1B 2B 3B"))
    assert layout(state) == ["1B 2B 3B"]
    assert state.turn == ALICE


async def test_set_table_checks_the_sets_under_the_game_rules(service: GameService) -> None:
    rules = STANDARD.replace(smallest_set=4)
    game = await service.new_game(GROUP, ALICE, rules, join_as="Alice")
    await refused(
        service,
        game,
        e.InvalidTable,
        r"set 1 \(3R 4R 5R\): a set has at least 4",
        service.set_table(game.id, ALICE, table("3-5R")),
    )


async def test_set_table_against_your_rack(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, BOB, tiles("J J"))
    await refused(service, game, e.TooManyTiles, "3 jokers", service.set_table(game.id, BOB, table("J 4R 5R")))
    await refused(service, game, e.NotAPlayer, "/join", service.set_table(game.id, CAROL, table("3-5R")))


async def test_add_sets_records_a_play_from_the_players_rack(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("6R 7R 8R"))
    await service.set_rack(game.id, ALICE, tiles("10B 11B 12B 9R 4K"))
    played = await service.add_sets(game.id, ALICE, table("10-12B"), player=ALICE)
    assert [str(t) for t in played.placed] == ["10B", "11B", "12B"]
    assert played.by == ALICE and not played.rack_stale and not played.skipped and not played.won
    state = played.state
    assert layout(state) == ["6R 7R 8R", "10B 11B 12B"]
    alice = state.player(ALICE)
    assert alice is not None and rack_of(state, ALICE) == "9R 4K" and alice.melded and alice.tiles_played == 3
    assert state.turn == BOB
    history = await service.history(game.id)
    assert history[-1].kind is EventKind.PLAY_RECORDED
    assert history[-1].detail == {"placed": ["10B", "11B", "12B"], "player": ALICE}


async def test_record_play_may_rearrange_the_table(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-6R | 7K 7O 7B"))
    await service.mark_melded(game.id, ALICE)
    played = await service.record_play(game.id, BOB, table("3-5R | 6R 7R 8R | 7K 7O 7B"), player=ALICE)
    assert [str(t) for t in played.placed] == ["7R", "8R"]
    assert played.by == ALICE  # Bob kept the record for Alice, whose turn it was
    assert layout(played.state) == ["3R 4R 5R", "6R 7R 8R", "7B 7K 7O"]
    assert played.state.turn == BOB


async def test_a_play_keeps_every_old_table_tile(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-6R | 7K 7O 7B"))
    await refused(
        service,
        game,
        e.InvalidTable,
        "lacks 6R 7B from the old table",
        service.record_play(game.id, ALICE, table("3-5R | 7K 7O 7R | 9-11O")),
    )


async def test_a_play_puts_something_down(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-6R"))
    await refused(
        service, game, e.NothingPlayed, "no tile was put down", service.record_play(game.id, ALICE, table("3-6R"))
    )
    await refused(service, game, e.NothingPlayed, "/table", service.add_sets(game.id, ALICE, []))


async def test_a_play_the_stored_rack_lacks_is_recorded_and_marked_for_its_owner(
    service: GameService, game: GameState
) -> None:
    await service.set_rack(game.id, ALICE, tiles("10B 11B 5K"))
    played = await service.add_sets(game.id, ALICE, table("10-12B"))
    assert layout(played.state) == ["10B 11B 12B"]  # the table is the truth
    assert [str(t) for t in played.rack_short] == ["12B"] and played.rack_stale and not played.won
    assert rack_of(played.state, ALICE) == "5K"  # what the rack held of the play left it
    await refused(
        service, game, e.NotAPlayer, "not playing", service.add_sets(game.id, ALICE, table("1-3B"), player=CAROL)
    )
    await refused(service, game, e.NotAPlayer, "not playing", service.add_sets(game.id, CAROL, table("1-3B")))


async def test_a_play_checks_its_sets(service: GameService, game: GameState) -> None:
    bad = TileSet.run(Colour.RED, 12, length=2)  # built by hand: no parser stood in the way
    await refused(service, game, e.InvalidTable, "set 1", service.add_sets(game.id, ALICE, [bad]))


async def test_a_play_out_of_turn_is_refused_until_recorded_as_such(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    await service.set_rack(game.id, CAROL, tiles("11-13K"))
    with pytest.raises(e.NotYourTurn, match="Alice's turn") as why:
        await service.add_sets(game.id, CAROL, table("11-13K"))
    assert why.value.turn == ALICE
    played = await service.add_sets(game.id, CAROL, table("11-13K"), out_of_turn=True)
    assert played.skipped == (ALICE, BOB)  # said, never silent
    assert played.state.turn == ALICE  # after Carol (who played) comes Alice again
    assert (await service.history(game.id))[-1].detail["skipped"] == [ALICE, BOB]


async def test_a_first_play_must_be_an_opening(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-5R"))
    await refused(service, game, e.NotAnOpening, "27 of 30", service.add_sets(game.id, ALICE, table("8-10O")))
    await refused(
        service, game, e.NotAnOpening, "may not change", service.record_play(game.id, ALICE, table("3-6R | 10-12O"))
    )
    played = await service.add_sets(game.id, ALICE, table("8-10O"), opening_waived=True)  # the house rule
    alice = played.state.player(ALICE)
    assert alice is not None and alice.melded


async def test_a_joker_counts_as_its_tile_in_an_opening(service: GameService, game: GameState) -> None:
    played = await service.add_sets(game.id, ALICE, table("9O J 11O"))
    alice = played.state.player(ALICE)
    assert alice is not None and alice.melded


async def test_mark_melded(service: GameService, game: GameState) -> None:
    state = await service.mark_melded(game.id, BOB)
    bob = state.player(BOB)
    assert bob is not None and bob.melded
    assert await service.mark_melded(game.id, BOB) == state  # no second event
    await refused(service, game, e.NotAPlayer, "/join", service.mark_melded(game.id, CAROL))


async def test_pass_turn_goes_round_skipping_who_left(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    assert (await service.pass_turn(game.id, ALICE)).turn == BOB
    await service.leave(game.id, CAROL)
    assert (await service.pass_turn(game.id, BOB)).turn == ALICE
    assert (await service.pass_turn(game.id, BOB)).turn == BOB
    await refused(service, game, e.NotAPlayer, "/join", service.pass_turn(game.id, CAROL))


# --- solver suggestions ------------------------------------------------------------------------------


def suggestion(
    before: list[TileSet], after: list[TileSet], placed: str, rack_left: str, *, opening: bool = False
) -> Solution:
    return Solution(
        rules=STANDARD,
        objective=Objective.TILES,
        initial_meld=opening,
        table_before=tuple(before),
        table=tuple(after),
        origins=tuple(tuple(Origin(None) for _ in s.tiles) for s in after),
        kept_from=tuple(None for _ in after),
        placed=tuple(tiles(placed)),
        rack_left=tuple(tiles(rack_left)),
        points_placed=sum(t.number for t in tiles(placed)),
        kept_sets=0,
        optimal=True,
        solve_ms=1.0,
    )


@pytest.fixture
async def ready(service: GameService, game: GameState) -> GameState:
    """Alice has melded; the table has a run; her rack can extend it."""
    await service.mark_melded(game.id, ALICE)
    await service.set_table(game.id, ALICE, table("3-5R"))
    return await service.set_rack(game.id, ALICE, tiles("6R 7R 11O 11B 11K"))


async def test_apply_suggestion_changes_table_and_rack_together(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R | 11B 11K 11O"), "6R 7R 11O 11B 11K", "")
    played = await service.apply_suggestion(ready.id, ALICE, s)
    assert [str(t) for t in played.placed] == ["6R", "7R", "11B", "11K", "11O"]
    assert layout(played.state) == ["3R 4R 5R 6R 7R", "11B 11K 11O"]
    assert rack_of(played.state, ALICE) == ""
    assert played.state.turn == BOB
    alice = played.state.player(ALICE)
    assert alice is not None and alice.tiles_played == 5
    assert (await service.history(ready.id))[-1].kind is EventKind.SUGGESTION_APPLIED


async def test_a_suggested_opening_marks_the_initial_meld(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, BOB, tiles("10-13K 2R"))
    await service.pass_turn(game.id, ALICE)
    s = suggestion([], table("10-13K"), "10K 11K 12K 13K", "2R", opening=True)
    state = (await service.apply_suggestion(game.id, BOB, s)).state
    bob = state.player(BOB)
    assert bob is not None and bob.melded and rack_of(state, BOB) == "2R"


async def test_a_suggestion_for_a_table_that_changed_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "11O 11B 11K")
    await service.record_play(ready.id, BOB, table("3-5R | 1-3O"), player=ALICE, opening_waived=True)
    await refused(service, ready, e.StaleSuggestion, "table has changed", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_for_a_rack_that_changed_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "11O 11B 11K")
    await service.draw(ready.id, ALICE, tiles("1K"))
    await refused(service, ready, e.StaleSuggestion, "rack has changed", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_under_other_rules_is_refused(service: GameService, ready: GameState) -> None:
    s = replace(suggestion(table("3-5R"), table("3-7R"), "6R 7R", "11O 11B 11K"), rules=STANDARD.replace(jokers=1))
    await refused(service, ready, e.StaleSuggestion, "other rules", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_without_a_play_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-5R"), "", "6R 7R 11O 11B 11K")
    await refused(service, ready, e.NothingPlayed, "draw a tile", service.apply_suggestion(ready.id, ALICE, s))


async def test_before_the_initial_meld_only_an_opening_applies(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-5R"))
    await service.set_rack(game.id, BOB, tiles("6R"))
    s = suggestion(table("3-5R"), table("3-6R"), "6R", "")
    await refused(service, game, e.StaleSuggestion, "initial meld", service.apply_suggestion(game.id, BOB, s))


async def test_a_suggestion_that_does_not_add_up_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 11O", "7R 11B 11K")
    await refused(service, ready, e.StaleSuggestion, "does not add up", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_for_someone_not_playing_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "")
    await refused(service, ready, e.NotAPlayer, "/join", service.apply_suggestion(ready.id, CAROL, s))
