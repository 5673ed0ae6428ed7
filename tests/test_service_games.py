"""Games as a whole: starting, finding, ending, moving to a new chat id, private-chat links, history."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.game import EventKind, GameStatus
from bot.game import errors as e
from bot.storage import GameService
from solver import STANDARD
from tests.storage_support import ALICE, BOB, CAROL, GROUP, service_at, table, tiles, two_player_game


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    async with service_at(tmp_path) as s:
        yield s


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
    assert [ev.kind for ev in await service.history(game.id)] == [EventKind.GAME_STARTED]


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


async def test_replace_ends_the_running_game_first(service: GameService) -> None:
    old = await two_player_game(service)
    await service.set_rack(old.id, ALICE, tiles("5R J"))
    new = await service.new_game(GROUP, BOB, replace=True, join_as="Bob")
    ended = await service.game(old.id)
    assert ended.status is GameStatus.ENDED and ended.ended_at is not None
    assert (await service.active_game(GROUP)).id == new.id
    last = (await service.history(old.id))[-1]
    assert last.kind is EventKind.GAME_ENDED
    # Bob never set a rack: listed after the racks the bot knew
    assert last.detail["scores"] == [{"user_id": ALICE, "points_left": 35}, {"user_id": BOB, "points_left": 0}]


async def test_no_game(service: GameService) -> None:
    with pytest.raises(e.NoGame, match="/new"):
        await service.active_game(GROUP)
    assert await service.find_active_game(GROUP) is None
    with pytest.raises(e.NoGame, match="no game 999"):
        await service.game(999)
    with pytest.raises(e.NoGame):
        await service.set_rack(999, ALICE, tiles("3R"))
    with pytest.raises(e.NoGame):
        await service.history(999)


async def test_end_game_scores_each_rack(service: GameService) -> None:
    game = await two_player_game(service)
    await service.join(game.id, CAROL, "Carol")
    await service.set_rack(game.id, ALICE, tiles("13K 12K J"))
    await service.set_rack(game.id, BOB, tiles("1R 2B"))
    await service.leave(game.id, CAROL)
    result = await service.end_game(game.id, BOB)
    assert result.state.status is GameStatus.ENDED
    assert [(s.name, s.tiles_left, s.points_left) for s in result.scores] == [("Bob", 2, 3), ("Alice", 3, 55)]
    assert await service.find_active_game(GROUP) is None
    with pytest.raises(e.NoGame):
        await service.active_game(GROUP)


async def test_an_ended_game_refuses_changes(service: GameService) -> None:
    game = await two_player_game(service)
    ended = (await service.end_game(game.id, ALICE)).state
    attempts = [
        service.join(game.id, CAROL, "Carol"),
        service.leave(game.id, BOB),
        service.set_rack(game.id, ALICE, tiles("3R")),
        service.draw(game.id, ALICE, tiles("3R")),
        service.set_table(game.id, ALICE, table("3-5R")),
        service.add_sets(game.id, ALICE, table("3-5R")),
        service.record_play(game.id, ALICE, table("3-5R")),
        service.mark_melded(game.id, ALICE),
        service.pass_turn(game.id, ALICE),
        service.end_game(game.id, ALICE),
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
    assert (await service.history(running.id))[-1].kind is EventKind.CHAT_MOVED
    assert await service.move_chat(GROUP, supergroup) is None  # the second notice changes nothing


async def test_move_chat_refuses_to_merge_two_running_games(service: GameService) -> None:
    a = await service.new_game(GROUP, ALICE)
    b = await service.new_game(GROUP - 1, BOB)
    with pytest.raises(e.GameAlreadyRunning, match="already has a running game"):
        await service.move_chat(GROUP, GROUP - 1)
    assert (await service.game(a.id)).chat_id == GROUP and (await service.game(a.id)).version == a.version
    assert (await service.game(b.id)).chat_id == GROUP - 1


async def test_a_private_chat_linked_to_a_group_game(service: GameService) -> None:
    group = await two_player_game(service)
    own = await service.new_game(ALICE, ALICE, join_as="Alice")
    assert (await service.game_for(ALICE, ALICE, private=True)).id == own.id
    assert (await service.game_by_invite(group.invite)).id == group.id
    linked = await service.link(ALICE, group.invite)
    assert linked.id == group.id
    assert (await service.game_for(ALICE, ALICE, private=True)).id == group.id
    assert (await service.game_for(GROUP, ALICE, private=False)).id == group.id
    await service.leave(group.id, ALICE)  # a link to a game you left no longer counts
    assert (await service.game_for(ALICE, ALICE, private=True)).id == own.id
    await service.join(group.id, ALICE, "Alice")
    assert (await service.game_for(ALICE, ALICE, private=True)).id == group.id
    assert await service.unlink(ALICE) is True
    assert await service.unlink(ALICE) is False
    assert (await service.game_for(ALICE, ALICE, private=True)).id == own.id


async def test_a_link_to_an_ended_game_falls_back_to_the_private_game(service: GameService) -> None:
    group = await two_player_game(service)
    await service.link(BOB, group.invite)
    await service.end_game(group.id, BOB)
    with pytest.raises(e.NoGame):
        await service.game_for(BOB, BOB, private=True)


async def test_links_need_a_running_game_and_a_player(service: GameService) -> None:
    group = await two_player_game(service)
    with pytest.raises(e.InvalidInvite, match="new one"):
        await service.link(ALICE, "not-a-payload")
    with pytest.raises(e.InvalidInvite):
        await service.game_by_invite("not-a-payload")
    with pytest.raises(e.NotAPlayer, match="/join"):
        await service.link(CAROL, group.invite)
    await service.end_game(group.id, ALICE)
    with pytest.raises(e.InvalidInvite):
        await service.link(ALICE, group.invite)
    with pytest.raises(e.NoGame):
        await service.game_for(CAROL, CAROL, private=True)


async def test_relinking_moves_the_link(service: GameService) -> None:
    first = await two_player_game(service)
    second = await service.new_game(GROUP - 5, BOB, join_as="Bob")
    await service.link(BOB, first.invite)
    await service.link(BOB, second.invite)
    assert (await service.game_for(BOB, BOB, private=True)).id == second.id


async def test_history_is_oldest_first_and_limited(service: GameService) -> None:
    game = await two_player_game(service)
    await service.set_rack(game.id, ALICE, tiles("1R"))
    events = await service.history(game.id)
    assert [ev.kind for ev in events] == [
        EventKind.GAME_STARTED,
        EventKind.PLAYER_JOINED,
        EventKind.PLAYER_JOINED,
        EventKind.RACK_SET,
    ]
    assert [ev.user_id for ev in events] == [ALICE, ALICE, BOB, ALICE]
    assert events[-1].detail == {"tiles": 1}  # a rack's tiles stay out of the readable history
    assert [ev.kind for ev in await service.history(game.id, limit=2)] == [EventKind.PLAYER_JOINED, EventKind.RACK_SET]
    assert await service.count_events(game.id) == 4


async def test_rack_and_table_in_one_go_are_two_events_undone_one_at_a_time(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="Alice")
    after = await service.set_position(game.id, ALICE, rack=tiles("3R 4R J"), table=table("7R 7B 7K | 1O 2O 3O"))
    assert [str(s) for s in after.table] == ["7R 7B 7K", "1O 2O 3O"]
    assert after.player(ALICE) is not None and after.player(ALICE).rack == tuple(tiles("3R 4R J"))  # type: ignore[union-attr]
    kinds = [ev.kind for ev in await service.history(game.id)]
    assert kinds == [EventKind.GAME_STARTED, EventKind.PLAYER_JOINED, EventKind.TABLE_SET, EventKind.RACK_SET]
    undone = await service.undo(game.id, ALICE)
    assert undone.state.table == after.table and undone.state.player(ALICE).rack == ()  # type: ignore[union-attr]
    undone = await service.undo(game.id, ALICE)
    assert undone.state.table == ()


async def test_a_new_table_may_take_tiles_the_old_rack_held(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="Alice")
    await service.set_rack(game.id, ALICE, tiles("5R 5R 6R"))
    # both 5R now lie on the table: the rack is emptied first, so no state in between has three 5R
    after = await service.set_position(game.id, ALICE, rack=tiles("1B"), table=table("5R 6R 7R | 5R 5B 5K"))
    assert after.player(ALICE).rack == tuple(tiles("1B"))  # type: ignore[union-attr]
    assert len(after.table) == 2


async def test_a_bad_table_with_a_rack_changes_nothing(service: GameService) -> None:
    game = await service.new_game(ALICE, ALICE, join_as="Alice")
    before = await service.set_rack(game.id, ALICE, tiles("1R"))
    with pytest.raises(e.GameError):
        three_13r = table("13R 13B 13K | 13R 13O 13B | 11R 12R 13R")
        await service.set_position(game.id, ALICE, rack=tiles("2R"), table=three_13r)
    assert await service.game(game.id) == before
    with pytest.raises(e.NotAPlayer):
        await service.set_position(game.id, BOB, rack=tiles("2R"), table=table("3-5K"))
    assert await service.game(game.id) == before
