"""Games as a whole: starting, finding, ending, moving to a new chat id, private-chat links, history."""

from __future__ import annotations

import pytest

from bot.game import EventKind, Finish, GameStatus
from bot.game import errors as e
from bot.game.ending import scores, waiting_for
from bot.storage import GameService
from solver import STANDARD
from tests.storage_support import (
    ALICE,
    BOB,
    CAROL,
    GROUP,
    add_sets,
    count_events,
    game_by_invite,
    history,
    leave,
    table,
    tiles,
    two_player_game,
)


async def unchanged(service: GameService, game_id: int, version: int) -> None:
    """A refused request left no trace: same version, no new event."""
    assert (await service.game(game_id)).version == version


async def test_new_game_is_empty_and_running(service: GameService) -> None:
    rules = STANDARD.replace(initial_meld=25, jokers=1)
    game = await service.new_game(GROUP, ALICE, rules)
    assert game.chat_id == GROUP
    assert game.status is GameStatus.RUNNING and game.running
    assert game.rules == rules
    assert game.table == () and game.players == () and game.turn is None
    assert game.ended_at is None and game.created_at.tzinfo is not None
    assert len(game.invite) >= 16
    assert await service.active_game(GROUP) == game
    assert await service.game(game.id) == game
    assert [ev.kind for ev in await history(service, game.id)] == [EventKind.GAME_STARTED]


async def test_new_game_can_seat_its_creator(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="  Alice\n Smith ")
    assert [(p.user_id, p.name, p.seat) for p in game.players] == [(ALICE, "Alice Smith", 0)]
    assert game.turn == ALICE


async def test_one_running_game_per_chat(service: GameService) -> None:
    game = await service.new_game(GROUP, ALICE)
    with pytest.raises(e.GameAlreadyRunning, match="already running"):
        await service.new_game(GROUP, BOB)
    await unchanged(service, game.id, game.version)
    other = await service.new_game(GROUP + 1, BOB)
    assert other.id != game.id


async def test_new_game_can_seat_the_same_players_again(service: GameService) -> None:
    game = await service.new_game(GROUP, BOB, seated=[(BOB, "Bob"), (CAROL, "Carol"), (ALICE, "Alice")])
    assert [(p.user_id, p.seat, p.rack_size) for p in game.players] == [(BOB, 0, 14), (CAROL, 1, 14), (ALICE, 2, 14)]
    assert game.turn == BOB and game.pool == 106 - 42
    # seated with the game: no /undo takes those seats back
    with pytest.raises(e.NothingToUndo, match="no change of yours"):
        await service.undo(game.id, CAROL)


async def test_replace_ends_the_running_game_first(service: GameService) -> None:
    old = await two_player_game(service)
    await service.join(old.id, CAROL, "Carol")
    await service.set_rack(old.id, ALICE, tiles("5R J"))
    await service.set_rack(old.id, BOB, tiles("1R 2B"))
    new = await service.new_game(GROUP, BOB, replace=True, join_as="Bob")
    ended = await service.game(old.id)
    assert ended.status is GameStatus.ENDED and ended.ended_at is not None
    assert (await service.active_game(GROUP)).id == new.id
    last = (await history(service, old.id))[-1]
    assert last.kind is EventKind.GAME_ENDED
    # scored with the racks the bot knew whole (the lowest wins); Carol's rack was never told: no score
    assert last.detail["scores"] == [{"user_id": BOB, "score": 35}, {"user_id": ALICE, "score": -35}]
    assert ended.winner == BOB and ended.finish is Finish.STOPPED
    carol = ended.player(CAROL)
    assert carol is not None and carol.score is None


async def test_no_game(service: GameService) -> None:
    with pytest.raises(e.NoGame, match="/new"):
        await service.active_game(GROUP)
    assert await service.find_active_game(GROUP) is None
    with pytest.raises(e.NoGame, match="no game 999"):
        await service.game(999)
    with pytest.raises(e.NoGame):
        await service.set_rack(999, ALICE, tiles("3R"))
    with pytest.raises(e.NoGame):
        await history(service, 999)


async def test_end_game_stops_the_game_and_scores_each_rack_told(service: GameService) -> None:
    game = await two_player_game(service)
    await service.join(game.id, CAROL, "Carol")
    await service.set_rack(game.id, ALICE, tiles("13K 12K J"))
    await service.set_rack(game.id, BOB, tiles("1R 2B"))
    await leave(service, game.id, CAROL)
    stopped = await service.end_game(game.id, BOB)
    # two still play: the game stops and waits for the tiles left on their racks
    assert stopped.status is GameStatus.RUNNING and stopped.finish is Finish.STOPPED and stopped.turn is None
    assert not stopped.playing and [p.user_id for p in waiting_for(stopped)] == [ALICE, BOB]
    assert (await service.active_game(GROUP)).id == game.id
    assert (await history(service, game.id))[-1].kind is EventKind.GAME_STOPPED
    told = await service.declare(game.id, ALICE, tiles("13K 12K J"))
    assert told.state.running and [p.user_id for p in waiting_for(told.state)] == [BOB]
    scored = (await service.declare(game.id, BOB, tiles("1R 2B"))).state  # the last rack told scores the game
    assert scored.status is GameStatus.ENDED and scored.ended_at is not None and scored.winner == BOB
    assert [(s.name, s.tiles_left, s.points_left, s.score, s.won) for s in scores(scored)] == [
        ("Bob", 2, 3, 55, True),
        ("Alice", 3, 55, -55, False),
    ]
    assert await service.find_active_game(GROUP) is None
    with pytest.raises(e.NoGame):
        await service.active_game(GROUP)
    assert [(t.name, t.points, t.games, t.won) for t in await service.chat_totals(GROUP)] == [
        ("Bob", 55, 1, 1),
        ("Alice", -55, 1, 0),
    ]


async def test_a_stopped_game_takes_no_more_turns_and_a_second_end_closes_it(service: GameService) -> None:
    game = await two_player_game(service)
    await service.set_rack(game.id, ALICE, tiles("5R 6R"))
    await service.end_game(game.id, ALICE)
    stopped = await service.game(game.id)
    attempts = [
        service.join(game.id, CAROL, "Carol"),
        leave(service, game.id, BOB),
        service.set_rack(game.id, ALICE, tiles("3R")),
        service.draw(game.id, ALICE),
        service.set_table(game.id, ALICE, table("3-5R")),
        service.record_play(game.id, ALICE, table("10-12R")),
        service.pass_turn(game.id, ALICE),
    ]
    for attempt in attempts:
        with pytest.raises(e.GameFinished, match="tiles left on your rack"):
            await attempt
    await unchanged(service, game.id, stopped.version)
    with pytest.raises(e.NotAPlayer, match="not playing"):
        await service.declare(game.id, CAROL, tiles("1R"))  # only the players' racks are scored
    # closed before Bob told his rack: Alice's rack alone (known whole) is no score against nobody
    closed = await service.end_game(game.id, BOB)
    assert closed.status is GameStatus.ENDED and closed.winner is None
    assert scores(closed) == ()
    last = (await history(service, game.id))[-1]
    assert last.kind is EventKind.GAME_ENDED and last.detail == {"scores": []}


async def test_declaring_a_rack_needs_a_finished_game(service: GameService) -> None:
    game = await two_player_game(service)
    with pytest.raises(e.GameError, match="still on"):
        await service.declare(game.id, ALICE, tiles("1R"))
    await unchanged(service, game.id, game.version)


async def test_a_game_of_one_ends_at_once(service: GameService) -> None:
    own = await service.new_game(ALICE, ALICE, join_as="Alice")
    await service.set_rack(own.id, ALICE, tiles("1R"))
    ended = await service.end_game(own.id, ALICE)
    assert ended.status is GameStatus.ENDED and ended.finish is Finish.STOPPED
    assert [ev.kind for ev in await history(service, own.id)][-1] is EventKind.GAME_ENDED


async def test_chat_totals_sum_every_scored_game(service: GameService) -> None:
    first = await two_player_game(service)
    await service.set_rack(first.id, ALICE, tiles("1R"))
    await service.set_rack(first.id, BOB, tiles("10K 11K"))
    await service.end_game(first.id, ALICE)
    await service.end_game(first.id, ALICE)  # closed with the racks known: Alice +21, Bob -21
    second = await service.new_game(GROUP, BOB, seated=[(BOB, "Bobby"), (ALICE, "Alice")])
    await service.set_rack(second.id, BOB, tiles("2B"))
    await service.set_rack(second.id, ALICE, tiles("J"))
    await service.end_game(second.id, BOB)
    await service.end_game(second.id, BOB)  # Bob +30, Alice -30
    totals = await service.chat_totals(GROUP)
    # the newest name each player had; most points first
    assert [(t.user_id, t.name, t.points, t.games, t.won) for t in totals] == [
        (BOB, "Bobby", 30 - 21, 2, 1),
        (ALICE, "Alice", 21 - 30, 2, 1),
    ]
    assert await service.chat_totals(GROUP - 1) == []
    await service.undo(second.id, BOB)  # the end undone: its scores go with it
    assert [(t.name, t.points, t.games) for t in await service.chat_totals(GROUP)] == [
        ("Alice", 21, 1),
        ("Bob", -21, 1),
    ]


async def test_an_ended_game_refuses_changes(service: GameService) -> None:
    game = await two_player_game(service)
    await service.end_game(game.id, ALICE)  # stopped
    ended = await service.end_game(game.id, ALICE)  # closed
    assert ended.status is GameStatus.ENDED
    attempts = [
        service.join(game.id, CAROL, "Carol"),
        leave(service, game.id, BOB),
        service.set_rack(game.id, ALICE, tiles("3R")),
        service.draw(game.id, ALICE, tiles("3R")),
        service.set_table(game.id, ALICE, table("3-5R")),
        add_sets(service, game.id, ALICE, table("3-5R")),
        service.record_play(game.id, ALICE, table("3-5R")),
        service.mark_melded(game.id, ALICE),
        service.pass_turn(game.id, ALICE),
        service.end_game(game.id, ALICE),
        service.declare(game.id, ALICE, tiles("3R")),
    ]
    for attempt in attempts:
        with pytest.raises(e.GameOver, match="ended"):
            await attempt
    await unchanged(service, game.id, ended.version)


async def test_only_players_end_a_game(service: GameService) -> None:
    game = await two_player_game(service)
    with pytest.raises(e.NotAPlayer, match="/join"):
        await service.end_game(game.id, CAROL)
    await unchanged(service, game.id, game.version)


async def test_move_chat_follows_a_group_that_became_a_supergroup(service: GameService) -> None:
    ended = await two_player_game(service)
    running = await service.new_game(GROUP, ALICE, replace=True)
    supergroup = -100999
    moved = await service.move_chat(GROUP, supergroup)
    assert moved is not None and moved.id == running.id and moved.chat_id == supergroup
    assert moved.version == running.version + 1
    assert (await service.game(ended.id)).chat_id == supergroup  # ended games move too
    assert await service.find_active_game(GROUP) is None
    assert (await service.active_game(supergroup)).id == running.id
    assert (await history(service, running.id))[-1].kind is EventKind.CHAT_MOVED
    assert await service.move_chat(GROUP, supergroup) is None  # the second notice changes nothing


async def test_move_chat_refuses_to_merge_two_running_games(service: GameService) -> None:
    a = await service.new_game(GROUP, ALICE)
    b = await service.new_game(GROUP - 1, BOB)
    with pytest.raises(e.GameAlreadyRunning, match="already has a running game"):
        await service.move_chat(GROUP, GROUP - 1)
    assert (await service.game(a.id)).chat_id == GROUP and (await service.game(a.id)).version == a.version
    assert (await service.game(b.id)).chat_id == GROUP - 1


async def test_a_private_chat_tied_to_a_group_game(service: GameService) -> None:
    group = await two_player_game(service)
    own = await service.new_game(ALICE, ALICE, join_as="Alice")
    assert (await service.game_for(ALICE, ALICE, private=True)).id == own.id
    assert (await game_by_invite(service, group.invite)).id == group.id
    tied = await service.tie_by_invite(ALICE, group.invite)
    assert tied.id == group.id
    assert (await service.game_for(ALICE, ALICE, private=True)).id == group.id
    assert (await service.game_for(GROUP, ALICE, private=False)).id == group.id
    await leave(service, group.id, ALICE)  # a link to a game you left no longer counts
    assert (await service.game_for(ALICE, ALICE, private=True)).id == own.id
    await service.join(group.id, ALICE, "Alice")
    assert (await service.game_for(ALICE, ALICE, private=True)).id == group.id
    assert await service.untie(ALICE) is True
    assert await service.untie(ALICE) is False
    assert (await service.game_for(ALICE, ALICE, private=True)).id == own.id


async def test_a_link_to_an_ended_game_falls_back_to_the_private_game(service: GameService) -> None:
    group = await two_player_game(service)
    await service.tie_by_invite(BOB, group.invite)
    await service.end_game(group.id, BOB)
    # stopped, the game still waits for Bob's rack, which he may tell in private
    assert (await service.game_for(BOB, BOB, private=True)).id == group.id
    await service.end_game(group.id, BOB)
    with pytest.raises(e.NoGame):
        await service.game_for(BOB, BOB, private=True)


async def test_links_need_a_running_game_and_a_player(service: GameService) -> None:
    group = await two_player_game(service)
    with pytest.raises(e.InvalidInvite, match="new one"):
        await service.tie_by_invite(ALICE, "not-a-payload")
    with pytest.raises(e.InvalidInvite):
        await game_by_invite(service, "not-a-payload")
    with pytest.raises(e.NotAPlayer, match="/join"):
        await service.tie_by_invite(CAROL, group.invite)
    await service.end_game(group.id, ALICE)
    assert (await service.tie_by_invite(ALICE, group.invite)).id == group.id  # stopped: racks are still told
    await service.end_game(group.id, ALICE)
    with pytest.raises(e.InvalidInvite):
        await service.tie_by_invite(ALICE, group.invite)
    with pytest.raises(e.NoGame):
        await service.game_for(CAROL, CAROL, private=True)


async def test_relinking_moves_the_link(service: GameService) -> None:
    first = await two_player_game(service)
    second = await service.new_game(GROUP - 5, BOB, join_as="Bob")
    await service.tie_by_invite(BOB, first.invite)
    await service.tie_by_invite(BOB, second.invite)
    assert (await service.game_for(BOB, BOB, private=True)).id == second.id


async def test_history_is_oldest_first_and_limited(service: GameService) -> None:
    game = await two_player_game(service)
    await service.set_rack(game.id, ALICE, tiles("1R"))
    events = await history(service, game.id)
    assert [ev.kind for ev in events] == [
        EventKind.GAME_STARTED,
        EventKind.PLAYER_JOINED,
        EventKind.PLAYER_JOINED,
        EventKind.RACK_SET,
    ]
    assert [ev.user_id for ev in events] == [ALICE, ALICE, BOB, ALICE]
    assert events[-1].detail == {"tiles": 1}  # a rack's tiles stay out of the readable history
    assert [ev.kind for ev in await history(service, game.id, limit=2)] == [EventKind.PLAYER_JOINED, EventKind.RACK_SET]
    assert await count_events(service, game.id) == 4


async def test_rack_and_table_in_one_go_are_two_events_undone_one_at_a_time(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="Alice")
    changed = await service.set_position(game.id, ALICE, rack=tiles("3R 4R J"), table=table("7R 7B 7K | 1O 2O 3O"))
    after = changed.state
    assert [str(s) for s in after.table] == ["7R 7B 7K", "1O 2O 3O"] and changed.trimmed == ()
    alice = after.player(ALICE)
    assert alice is not None and alice.rack == tuple(tiles("3R 4R J")) and alice.rack_size == 3
    kinds = [ev.kind for ev in await history(service, game.id)]
    assert kinds == [EventKind.GAME_STARTED, EventKind.PLAYER_JOINED, EventKind.TABLE_SET, EventKind.RACK_SET]
    undone = await service.undo(game.id, ALICE)
    assert undone.state.table == after.table and undone.state.player(ALICE).rack == ()  # type: ignore[union-attr]
    undone = await service.undo(game.id, ALICE)
    assert undone.state.table == ()


async def test_a_new_table_may_take_tiles_the_old_rack_held(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="Alice")
    await service.set_rack(game.id, ALICE, tiles("5R 5R 6R"))
    # both 5R now lie on the table: the rack is emptied first, so no state in between has three 5R
    changed = await service.set_position(game.id, ALICE, rack=tiles("1B"), table=table("5R 6R 7R | 5R 5B 5K"))
    after = changed.state
    alice = after.player(ALICE)
    assert alice is not None and alice.rack == tuple(tiles("1B")) and alice.rack_size == 1
    assert len(after.table) == 2 and changed.trimmed == ()
    kinds = [ev.kind for ev in await history(service, game.id)][-3:]
    assert kinds == [EventKind.RACK_SET, EventKind.TABLE_SET, EventKind.RACK_SET]  # the rack emptied first
    # the same rack and table again: nothing to record
    events = await count_events(service, game.id)
    again = await service.set_position(game.id, ALICE, rack=tiles("1B"), table=table("5R 6R 7R | 5R 5B 5K"))
    assert again.state == after and await count_events(service, game.id) == events


async def test_a_table_in_one_go_with_a_rack_gives_up_another_racks_tiles(service: GameService) -> None:
    game = await two_player_game(service)
    await service.set_rack(game.id, BOB, tiles("8K 8K 1O"))
    changed = await service.set_position(game.id, ALICE, rack=tiles("2R"), table=table("6K 7K 8K"))
    assert changed.trimmed == (BOB,)
    bob = changed.state.player(BOB)
    assert bob is not None and [str(t) for t in bob.rack] == ["8K", "1O"] and bob.rack_size == 3


async def test_a_bad_table_with_a_rack_changes_nothing(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="Alice")
    before = (await service.set_rack(game.id, ALICE, tiles("1R"))).state
    with pytest.raises(e.GameError):
        three_13r = table("13R 13B 13K | 13R 13O 13B | 11R 12R 13R")
        await service.set_position(game.id, ALICE, rack=tiles("2R"), table=three_13r)
    assert await service.game(game.id) == before
    with pytest.raises(e.NotAPlayer):
        await service.set_position(game.id, BOB, rack=tiles("2R"), table=table("3-5K"))
    assert await service.game(game.id) == before
