"""Players, racks, the table and turns: every request, and every way it can be refused unchanged."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace

import pytest

from bot.game import EventKind, Finish, GameState, GameStatus
from bot.game import errors as e
from bot.game.trace import Trace
from bot.storage import GameService
from solver import STANDARD, Colour, Objective, Origin, Solution, TileSet
from tests.storage_support import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    add_sets,
    count_events,
    empty_pool,
    history,
    layout,
    leave,
    melded,
    table,
    tiles,
    two_player_game,
)


@pytest.fixture
async def game(service: GameService) -> GameState:
    return await two_player_game(service)


async def refused(
    service: GameService, game: GameState, error: type[Exception], match: str, attempt: Awaitable[object]
) -> None:
    """``attempt`` raises ``error`` and the game keeps its version and history."""
    before = await service.game(game.id)
    events = await count_events(service, game.id)
    with pytest.raises(error, match=match):
        await attempt
    assert await service.game(game.id) == before
    assert await count_events(service, game.id) == events


def rack_of(state: GameState, user_id: int) -> str:
    p = state.player(user_id)
    assert p is not None
    return " ".join(str(t) for t in p.rack)


def size_of(state: GameState, user_id: int) -> int:
    """The tiles on the player's rack at the table (known or not)."""
    p = state.player(user_id)
    assert p is not None
    return p.rack_size


# --- joining and leaving ----------------------------------------------------------------------------


async def test_seats_follow_the_join_order(service: GameService, game: GameState) -> None:
    state = await service.join(game.id, CAROL, "Carol")
    assert [(p.name, p.seat, p.active) for p in state.players] == [
        ("Alice", 0, True),
        ("Bob", 1, True),
        ("Carol", 2, True),
    ]
    assert state.turn == ALICE and state.turn_player is not None and state.turn_player.name == "Alice"


async def test_joining_deals_a_rack_off_the_pool(service: GameService, game: GameState) -> None:
    assert game.pool == 106 - 2 * STANDARD.deal
    state = await service.join(game.id, CAROL, "Carol")
    carol = state.player(CAROL)
    # dealt at the table: counted, not yet told
    assert carol is not None and carol.rack == () and carol.rack_size == 14 and not carol.rack_known
    assert state.pool == 106 - 3 * 14


async def test_a_seat_needs_a_rack_from_the_pool(service: GameService, game: GameState) -> None:
    await empty_pool(service, game.id, ALICE)
    await refused(
        service, game, e.TooManyTiles, "only 0 tiles are left in the pool", service.join(game.id, CAROL, "Carol")
    )


async def test_the_first_to_join_has_the_turn(service: GameService) -> None:
    game = await service.new_game(GROUP, ALICE)
    state = await service.join(game.id, BOB, "")
    assert state.turn == BOB
    assert state.players[0].name == f"player {BOB}"


async def test_joining_twice_is_refused(service: GameService, game: GameState) -> None:
    await refused(service, game, e.AlreadyJoined, "Bob already plays", service.join(game.id, BOB, "Bobby"))


async def test_leaving_returns_the_rack_and_passes_the_turn_on(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("1R 2R"))
    state = await leave(service, game.id, ALICE)
    alice = state.player(ALICE)
    assert alice is not None and not alice.active and alice.rack == () and alice.rack_size == 0
    assert state.turn == BOB
    assert [p.user_id for p in state.active_players] == [BOB]
    assert state.pool == 106 - 14  # her tiles went back into the pool
    state = await leave(service, game.id, BOB)
    assert state.turn is None and state.active_players == () and state.pool == 106


async def test_leaving_when_not_your_turn_keeps_the_turn(service: GameService, game: GameState) -> None:
    assert (await leave(service, game.id, BOB)).turn == ALICE


async def test_who_left_may_come_back_at_the_end_of_the_table(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    await melded(service, game.id, ALICE)
    await service.set_rack(game.id, ALICE, tiles("1R 2R"))
    await leave(service, game.id, ALICE)
    state = await service.join(game.id, ALICE, "Alice again")
    assert [p.name for p in state.players] == ["Bob", "Carol", "Alice again"]
    alice = state.player(ALICE)
    # her meld stays made; her old rack is gone, and a new one is dealt
    assert alice is not None and alice.seat == 3 and alice.melded and alice.rack == () and alice.rack_size == 14


async def test_only_players_leave(service: GameService, game: GameState) -> None:
    await refused(service, game, e.NotAPlayer, "/join", leave(service, game.id, CAROL))
    await leave(service, game.id, BOB)
    await refused(service, game, e.NotAPlayer, "/join", leave(service, game.id, BOB))


# --- racks -----------------------------------------------------------------------------------------


async def test_set_rack_sorts_and_replaces(service: GameService, game: GameState) -> None:
    changed = await service.set_rack(game.id, ALICE, tiles("J 5K 3R 1R 12O"))
    assert rack_of(changed.state, ALICE) == "1R 3R 5K 12O J" and changed.trimmed == ()
    # the rack told is the count at the table too: the pool follows it
    assert size_of(changed.state, ALICE) == 5 and changed.state.pool == 106 - 5 - 14
    state = (await service.set_rack(game.id, ALICE, tiles("2B"))).state
    assert rack_of(state, ALICE) == "2B" and size_of(state, ALICE) == 1
    assert rack_of(state, BOB) == "" and size_of(state, BOB) == 14  # Bob's dealt rack, never told


async def test_set_rack_to_what_it_is_records_nothing(service: GameService, game: GameState) -> None:
    state = await service.set_rack(game.id, ALICE, tiles("3R"))
    events = await count_events(service, game.id)
    again = await service.set_rack(game.id, ALICE, tiles("3R"))
    assert again == state
    assert await count_events(service, game.id) == events


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
    # another player's rack never refuses yours (that would tell what it holds): the newest word wins, and
    # Alice's older rack gives up its 9O (still counted, no longer named; she is told to send it again)
    await service.set_rack(game.id, ALICE, tiles("9O 1K"))
    changed = await service.set_rack(game.id, BOB, tiles("9O 9O"))
    assert rack_of(changed.state, BOB) == "9O 9O" and changed.trimmed == (ALICE,)
    alice = changed.state.player(ALICE)
    assert alice is not None and rack_of(changed.state, ALICE) == "1K" and alice.rack_size == 2
    assert alice.unknown == 1


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


async def test_draw_adds_to_the_rack_and_ends_the_turn(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("3R 9K"))
    pool = (await service.game(game.id)).pool
    drawn = await service.draw(game.id, ALICE, tiles("1R 9K"))
    state = drawn.state
    assert rack_of(state, ALICE) == "1R 3R 9K 9K" and size_of(state, ALICE) == 4
    assert state.turn == BOB  # a draw is the turn: it ends it
    assert (drawn.count, [str(t) for t in drawn.named], drawn.skipped) == (2, ["1R", "9K"], ())
    assert not drawn.passed and not drawn.named_only and state.pool == pool - 2
    last = (await history(service, game.id))[-1]
    assert last.kind is EventKind.TILES_DRAWN and last.detail == {"tiles": 2, "player": ALICE}


async def test_draw_needs_tiles_within_the_deck(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("9K 9K"))
    await refused(service, game, e.TooManyTiles, "3 copies of 9K", service.draw(game.id, ALICE, tiles("9K")))
    # a draw told in the group names no tile: it is counted, and named later (in private)
    drawn = await service.draw(game.id, ALICE, [])
    alice = drawn.state.player(ALICE)
    assert drawn.count == 1 and drawn.named == () and drawn.state.turn == BOB
    assert alice is not None and alice.rack_size == 3 and alice.unnamed == 1
    # naming it is checked against the deck as a draw with its tile is
    await refused(service, game, e.TooManyTiles, "3 copies of 9K", service.draw(game.id, ALICE, tiles("9K")))


async def test_a_tile_drawn_in_the_group_is_named_later_without_a_turn(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("1R 2R"))
    counted = await service.draw(game.id, ALICE)  # "I drew" in the group
    assert counted.state.turn == BOB and counted.state.pool == 106 - 3 - 14
    named = await service.draw(game.id, ALICE, tiles("7K"))  # later, in her private chat
    assert named.named_only and not named.passed and named.count == 0 and [str(t) for t in named.named] == ["7K"]
    alice = named.state.player(ALICE)
    assert alice is not None and rack_of(named.state, ALICE) == "1R 2R 7K" and alice.rack_known
    assert named.state.turn == BOB and named.state.pool == counted.state.pool  # no turn, no tile from the pool
    assert [ev.kind for ev in await history(service, game.id)][-2:] == [EventKind.TILES_DRAWN, EventKind.TILES_NAMED]
    # more tiles than are left to name are a draw of their own, on someone else's turn
    with pytest.raises(e.NotYourTurn, match="Bob's turn"):
        await service.draw(game.id, ALICE, tiles("8K"))


async def test_a_draw_may_be_told_for_the_player_and_out_of_turn(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    told = await service.draw(game.id, BOB, player=ALICE)  # Bob tells the group that Alice drew
    assert told.state.turn == BOB and size_of(told.state, ALICE) == 15
    last = (await history(service, game.id))[-1]
    assert last.user_id == BOB and last.detail == {"tiles": 1, "player": ALICE}
    await refused(service, game, e.NotYourTurn, "Bob's turn", service.draw(game.id, CAROL))
    late = await service.draw(game.id, CAROL, out_of_turn=True)
    assert late.skipped == (BOB,) and late.state.turn == ALICE  # said, never silent
    assert (await history(service, game.id))[-1].detail["skipped"] == [BOB]


# --- the table ---------------------------------------------------------------------------------------


async def test_set_table_replaces_it_all(service: GameService, game: GameState) -> None:
    state = (await service.set_table(game.id, BOB, table("6R 7R 8R | 7K 7O 7R"))).state
    assert layout(state) == ["6R 7R 8R", "7R 7K 7O"] and state.numbers == (1, 2)
    assert state.pool == 106 - 28 - 6
    state = (await service.set_table(game.id, BOB, table("1B 2B 3B"))).state
    assert layout(state) == ["1B 2B 3B"] and state.numbers == (1,)  # a correction numbers the table anew
    assert state.turn == ALICE


async def test_a_table_everyone_sees_gives_up_older_rack_knowledge(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("13K 13K 2O"))
    changed = await service.set_table(game.id, BOB, table("11K 12K 13K"), with_rack=False)
    # the table is the newest word: one of Alice's 13K is no longer named, and she is told to send her rack
    assert changed.trimmed == (ALICE,) and rack_of(changed.state, ALICE) == "13K 2O"
    assert size_of(changed.state, ALICE) == 3


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
    played = await add_sets(service, game.id, ALICE, table("10-12B"), player=ALICE)
    assert [str(t) for t in played.placed] == ["10B", "11B", "12B"]
    assert played.by == ALICE and not played.rack_short and not played.skipped and not played.won
    assert not played.added and played.trimmed == ()
    state = played.state
    assert layout(state) == ["6R 7R 8R", "10B 11B 12B"] and state.numbers == (1, 2)
    alice = state.player(ALICE)
    assert alice is not None and rack_of(state, ALICE) == "9R 4K" and alice.melded and alice.tiles_played == 3
    assert alice.rack_size == 2
    assert state.turn == BOB
    assert state.adding is not None and state.adding.player == ALICE  # she may add to it until Bob acts
    events = await history(service, game.id)
    assert events[-1].kind is EventKind.PLAY_RECORDED
    assert events[-1].detail == {"placed": ["10B", "11B", "12B"], "player": ALICE}


async def test_record_play_may_rearrange_the_table(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-6R | 7K 7O 7B"))
    await melded(service, game.id, ALICE)
    played = await service.record_play(game.id, BOB, table("3-5R | 6R 7R 8R | 7K 7O 7B"), player=ALICE)
    assert [str(t) for t in played.placed] == ["7R", "8R"]
    assert played.by == ALICE  # Bob kept the record for Alice, whose turn it was
    # each set keeps its number: the run cut short stays set 1, the group set 2, the new run is set 3
    assert layout(played.state) == ["3R 4R 5R", "7B 7K 7O", "6R 7R 8R"] and played.state.numbers == (1, 2, 3)
    assert played.trace is not None and played.trace.kept_from == (0, 1, None)
    assert played.state.turn == BOB
    # her rack was never told: the tiles came off its unknown ones, and nothing was short
    assert played.rack_short == () and size_of(played.state, ALICE) == 12


async def test_a_play_keeps_the_trace_it_was_read_with(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-6R | 7K 7O 7B"))
    await melded(service, game.id, ALICE)
    # as the reading saw it: the 6R came off the run into the new set (set 3), 7R 8R from the rack
    said = Trace(
        (0, 1, None),
        (
            (Origin(0), Origin(0), Origin(0)),
            (Origin(1), Origin(1), Origin(1)),
            (Origin(0), Origin(None), Origin(None)),
        ),
    )
    played = await service.record_play(game.id, ALICE, table("3-5R | 7K 7O 7B | 6R 7R 8R"), trace=said)
    assert played.trace == said and played.state.numbers == (1, 2, 3)
    # a trace that does not fit the table typed is not used: the play is traced anew
    await service.record_play(game.id, ALICE, table("3-5R | 7K 7O 7B | 6R 7R 8R 9R"), trace=said)
    assert layout(await service.game(game.id)) == ["3R 4R 5R", "7B 7K 7O", "6R 7R 8R 9R"]


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
    await refused(service, game, e.NothingPlayed, "/table", add_sets(service, game.id, ALICE, []))


async def test_a_play_the_stored_rack_lacks_is_refused_from_its_owner_and_forgets_it_from_another(
    service: GameService, game: GameState
) -> None:
    await service.set_rack(game.id, ALICE, tiles("10B 11B 5K 9O"))
    # her own word against her own rack: one of them is wrong, and nothing is recorded
    await refused(service, game, e.RackLacks, "does not hold 12B", add_sets(service, game.id, ALICE, table("10-12B")))
    # recorded by Bob, who cannot see her rack: the table is the truth, and her rack is asked for again
    played = await add_sets(service, game.id, BOB, table("10-12B"), player=ALICE)
    assert layout(played.state) == ["10B 11B 12B"]
    assert [str(t) for t in played.rack_short] == ["12B"] and not played.won
    alice = played.state.player(ALICE)
    assert alice is not None and alice.rack == () and alice.rack_size == 1 and not alice.rack_known
    await refused(
        service, game, e.NotAPlayer, "not playing", add_sets(service, game.id, ALICE, table("1-3B"), player=CAROL)
    )
    await refused(service, game, e.NotAPlayer, "not playing", add_sets(service, game.id, CAROL, table("1-3B")))


async def test_a_play_checks_its_sets(service: GameService, game: GameState) -> None:
    bad = TileSet.run(Colour.RED, 12, length=2)  # built by hand: no parser stood in the way
    await refused(service, game, e.InvalidTable, "set 1", add_sets(service, game.id, ALICE, [bad]))


async def test_a_play_out_of_turn_is_refused_until_recorded_as_such(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    await service.set_rack(game.id, CAROL, tiles("11-13K 1R"))
    with pytest.raises(e.NotYourTurn, match="Alice's turn") as why:
        await add_sets(service, game.id, CAROL, table("11-13K"))
    assert why.value.turn == ALICE
    played = await add_sets(service, game.id, CAROL, table("11-13K"), out_of_turn=True)
    assert played.skipped == (ALICE, BOB)  # said, never silent
    assert played.state.turn == ALICE  # after Carol (who played) comes Alice again
    assert (await history(service, game.id))[-1].detail["skipped"] == [ALICE, BOB]


async def test_a_first_play_must_be_an_opening(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-5R"))
    await refused(service, game, e.NotAnOpening, "27 of 30", add_sets(service, game.id, ALICE, table("8-10O")))
    await refused(
        service, game, e.NotAnOpening, "may not change", service.record_play(game.id, ALICE, table("3-6R | 10-12O"))
    )
    played = await add_sets(service, game.id, ALICE, table("8-10O"), opening_waived=True)  # the house rule
    alice = played.state.player(ALICE)
    assert alice is not None and alice.melded


async def test_a_joker_counts_as_its_tile_in_an_opening(service: GameService, game: GameState) -> None:
    played = await add_sets(service, game.id, ALICE, table("9O J 11O"))
    alice = played.state.player(ALICE)
    assert alice is not None and alice.melded


async def test_a_play_may_come_in_two_messages_as_one_turn(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    await service.set_rack(game.id, ALICE, tiles("10R 11R 12R 5B 5K 5O 1K 13R"))
    first = await add_sets(service, game.id, ALICE, table("10-12R"))
    assert first.state.turn == BOB and not first.added
    second = await add_sets(service, game.id, ALICE, table("5B 5K 5O"))  # before Bob acts: the same turn
    assert second.added and not second.skipped and second.state.turn == BOB
    assert rack_of(second.state, ALICE) == "13R 1K" and layout(second.state) == ["10R 11R 12R", "5B 5K 5O"]
    assert [ev.kind for ev in await history(service, game.id)][-2:] == [EventKind.PLAY_RECORDED] * 2
    await service.draw(game.id, BOB)  # Bob acts: her turn is over
    late = service.record_play(game.id, ALICE, table("10-13R | 5B 5K 5O"))
    await refused(service, game, e.NotYourTurn, "Carol's turn", late)


async def test_laying_the_last_tile_wins_and_waits_for_the_other_racks(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("10R 11R 12R"))
    played = await add_sets(service, game.id, ALICE, table("10-12R"))
    state = played.state
    assert played.won and state.finish is Finish.OUT and state.winner == ALICE
    assert state.running and not state.playing and state.turn is None and state.adding is None
    await refused(
        service, game, e.GameFinished, "tiles left on your rack", add_sets(service, game.id, BOB, table("1-3O"))
    )
    await refused(service, game, e.GameFinished, "tiles left on your rack", service.draw(game.id, BOB))
    declared = await service.declare(game.id, BOB, tiles("5B J"))  # Bob's rack: the last one, so it is scored
    after = declared.state
    assert after.status is GameStatus.ENDED and after.winner == ALICE
    assert [(p.user_id, p.score) for p in after.players] == [(ALICE, 35), (BOB, -35)]
    assert (await history(service, game.id))[-1].kind is EventKind.RACK_DECLARED


async def test_mark_melded_only_in_a_private_game(service: GameService, game: GameState) -> None:
    # in a group's game the group sees the opening played (or chooses the house rule): no word makes it
    await refused(service, game, e.NotAnOpening, "made by playing it", service.mark_melded(game.id, BOB))
    own = await service.new_game(BOB, BOB, join_as="Bob")
    state = await service.mark_melded(own.id, BOB)
    bob = state.player(BOB)
    assert bob is not None and bob.melded
    assert await service.mark_melded(own.id, BOB) == state  # no second event
    await refused(service, own, e.NotAPlayer, "/join", service.mark_melded(own.id, CAROL))


async def test_draws_go_round_skipping_who_left(service: GameService, game: GameState) -> None:
    await service.join(game.id, CAROL, "Carol")
    assert (await service.draw(game.id, ALICE)).state.turn == BOB
    await leave(service, game.id, CAROL)
    assert (await service.draw(game.id, BOB)).state.turn == ALICE
    await refused(service, game, e.NotYourTurn, "Alice's turn", service.draw(game.id, BOB))
    assert (await service.draw(game.id, BOB, out_of_turn=True)).state.turn == ALICE
    await refused(service, game, e.NotAPlayer, "/join", service.pass_turn(game.id, CAROL))
    # with tiles in the pool a turn without a play is a draw, not a pass
    await refused(service, game, e.NoTiles, "a turn without a play is a draw", service.pass_turn(game.id, ALICE))


async def test_on_an_empty_pool_a_turn_is_a_pass_and_a_round_of_passes_ends_the_game(
    service: GameService, game: GameState
) -> None:
    await service.join(game.id, CAROL, "Carol")
    await service.set_rack(game.id, ALICE, tiles("1R 2R"))
    await service.set_rack(game.id, BOB, tiles("13K 13O"))
    await empty_pool(service, game.id, CAROL)
    await refused(service, game, e.PoolEmpty, "the pool is empty", service.draw(game.id, ALICE, tiles("7K")))
    first = await service.pass_turn(game.id, ALICE)
    assert first.passed and first.count == 0 and first.state.turn == BOB and first.state.passes == 1
    assert (await history(service, game.id))[-1].kind is EventKind.TURN_PASSED
    second = await service.draw(game.id, BOB)  # "I drew" on an empty pool is a pass too
    assert second.passed and second.state.passes == 2
    assert (await history(service, game.id))[-1].kind is EventKind.TURN_PASSED
    third = await service.pass_turn(game.id, CAROL)
    state = third.state
    assert state.finish is Finish.BLOCKED and state.turn is None and state.running  # nobody can play on
    await service.declare(game.id, ALICE, tiles("1R 2R"))
    await service.declare(game.id, BOB, tiles("13K 13O"))
    carol = state.player(CAROL)
    assert carol is not None
    scored = (await service.declare(game.id, CAROL, carol.rack)).state
    assert scored.status is GameStatus.ENDED and scored.winner == ALICE  # the lowest rack wins


async def test_a_play_resets_the_passes(service: GameService, game: GameState) -> None:
    await melded(service, game.id, BOB)
    await service.set_rack(game.id, BOB, tiles("1R 2R 3R 9K"))
    await empty_pool(service, game.id, ALICE)
    assert (await service.pass_turn(game.id, ALICE)).state.passes == 1
    played = await add_sets(service, game.id, BOB, table("1-3R"))
    assert played.state.passes == 0 and played.state.playing


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
    await melded(service, game.id, ALICE)
    await service.set_table(game.id, ALICE, table("3-5R"))
    return (await service.set_rack(game.id, ALICE, tiles("6R 7R 11O 11B 11K 1K"))).state


async def test_apply_suggestion_changes_table_and_rack_together(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R | 11B 11K 11O"), "6R 7R 11O 11B 11K", "1K")
    played = await service.apply_suggestion(ready.id, ALICE, s)
    assert [str(t) for t in played.placed] == ["6R", "7R", "11B", "11K", "11O"]
    assert layout(played.state) == ["3R 4R 5R 6R 7R", "11B 11K 11O"]
    assert rack_of(played.state, ALICE) == "1K" and size_of(played.state, ALICE) == 1
    assert played.state.turn == BOB
    alice = played.state.player(ALICE)
    assert alice is not None and alice.tiles_played == 5
    assert (await history(service, ready.id))[-1].kind is EventKind.SUGGESTION_APPLIED


async def test_a_suggestion_that_empties_the_rack_wins(service: GameService, ready: GameState) -> None:
    await service.set_rack(ready.id, ALICE, tiles("6R 7R"))
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "")
    played = await service.apply_suggestion(ready.id, ALICE, s)
    assert played.won and played.state.finish is Finish.OUT and played.state.winner == ALICE


async def test_a_suggested_opening_marks_the_initial_meld(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, BOB, tiles("10-13K 2R"))
    await service.draw(game.id, ALICE)
    s = suggestion([], table("10-13K"), "10K 11K 12K 13K", "2R", opening=True)
    state = (await service.apply_suggestion(game.id, BOB, s)).state
    bob = state.player(BOB)
    assert bob is not None and bob.melded and rack_of(state, BOB) == "2R"


async def test_a_suggestion_for_a_table_that_changed_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "11O 11B 11K 1K")
    await service.record_play(ready.id, BOB, table("3-5R | 1-3O"), player=ALICE, opening_waived=True)
    await refused(service, ready, e.StaleSuggestion, "table has changed", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_for_a_rack_that_changed_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "11O 11B 11K 1K")
    await service.draw(ready.id, ALICE, tiles("1K"))  # her draw: her rack changed, and it is Bob's turn now
    # a stale suggestion is said stale before anything else (not "it is Bob's turn")
    await refused(service, ready, e.StaleSuggestion, "rack has changed", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_under_other_rules_is_refused(service: GameService, ready: GameState) -> None:
    s = replace(suggestion(table("3-5R"), table("3-7R"), "6R 7R", "11O 11B 11K 1K"), rules=STANDARD.replace(jokers=1))
    await refused(service, ready, e.StaleSuggestion, "other rules", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_without_a_play_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-5R"), "", "6R 7R 11O 11B 11K 1K")
    await refused(service, ready, e.NothingPlayed, "draw a tile", service.apply_suggestion(ready.id, ALICE, s))


async def test_before_the_initial_meld_only_an_opening_applies(service: GameService, game: GameState) -> None:
    await service.set_table(game.id, ALICE, table("3-5R"))
    await service.set_rack(game.id, BOB, tiles("6R"))
    s = suggestion(table("3-5R"), table("3-6R"), "6R", "")
    await refused(service, game, e.StaleSuggestion, "initial meld", service.apply_suggestion(game.id, BOB, s))


async def test_a_suggestion_that_does_not_add_up_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 11O", "7R 11B 11K 1K")
    await refused(service, ready, e.StaleSuggestion, "does not add up", service.apply_suggestion(ready.id, ALICE, s))


async def test_a_suggestion_for_someone_not_playing_is_refused(service: GameService, ready: GameState) -> None:
    s = suggestion(table("3-5R"), table("3-7R"), "6R 7R", "")
    await refused(service, ready, e.NotAPlayer, "/join", service.apply_suggestion(ready.id, CAROL, s))


# --- a play typed with the rack left after it ----------------------------------------------------------


async def test_a_play_typed_with_the_rack_left_is_judged_by_that_rack(service: GameService) -> None:
    own = await service.new_game(ALICE, ALICE, join_as="Alice")  # a private game: the rack is what she types
    await service.set_rack(own.id, ALICE, tiles("10B 11B"))  # out of date: she has drawn since
    played = await service.record_play(own.id, ALICE, table("10-12B"), rack_after=tiles("5K 9O 3R"))
    # three tiles are left, as she typed: she has not gone out, and the stored rack did not refuse the play
    assert not played.won and played.state.playing and played.state.finish is None
    assert played.rack_short == ()
    assert rack_of(played.state, ALICE) == "3R 5K 9O" and size_of(played.state, ALICE) == 3
    # the rack typed empty with her last tiles: she went out
    out = await service.record_play(own.id, ALICE, table("10-12B | 3R 4R 5R"), rack_after=[])
    assert out.won and out.state.winner == ALICE and not out.state.running


async def test_a_group_play_typed_with_the_rack_left_sets_that_rack(service: GameService, game: GameState) -> None:
    await service.set_rack(game.id, ALICE, tiles("10B 11B 5K"))  # lacks the 12B she drew untold
    played = await service.record_play(game.id, ALICE, table("10-12B"), rack_after=tiles("5K 1R 2R"))
    assert not played.won and played.state.turn == BOB and played.rack_short == ()
    assert rack_of(played.state, ALICE) == "1R 2R 5K" and size_of(played.state, ALICE) == 3
    assert played.state.pool == 106 - 3 - 3 - 14
    # the play and the rack are one change: one event, undone at once
    assert [ev.kind for ev in await history(service, game.id)][-1:] == [EventKind.PLAY_RECORDED]
    undone = (await service.undo(game.id, ALICE)).state
    assert rack_of(undone, ALICE) == "10B 11B 5K" and undone.table == ()
