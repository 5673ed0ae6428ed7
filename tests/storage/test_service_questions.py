"""Questions asked with buttons: kept in the database, answered once (in the same transaction as the change),
whichever process or tap comes first."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from bot.game import EventKind, Finish, GameStatus
from bot.game import errors as e
from bot.game.undoing import undo_choice
from bot.storage import GameService
from tests.storage_support import ALICE, BOB, add_sets, count_events, history, table, tiles, two_player_game


async def test_a_question_is_answered_once_with_its_change(service: GameService) -> None:
    game = await two_player_game(service)
    token = await service.ask(game.id, ALICE, "play", {"note": "x"})
    asked = await service.question(token)
    assert (asked.game_id, asked.user_id, asked.kind, asked.payload) == (game.id, ALICE, "play", {"note": "x"})
    answers = await asyncio.gather(
        *(service.record_play(game.id, ALICE, table("10-12R"), answering=token) for _ in range(2)),
        return_exceptions=True,
    )
    assert sorted(type(a).__name__ for a in answers) == ["AlreadyAnswered", "Played"]
    state = await service.game(game.id)
    assert [str(s) for s in state.table] == ["10R 11R 12R"]  # recorded once
    with pytest.raises(e.AlreadyAnswered):
        await service.question(token)


async def test_a_refused_change_keeps_its_question(service: GameService) -> None:
    game = await two_player_game(service)
    token = await service.ask(game.id, ALICE, "play", {})
    with pytest.raises(e.NotAnOpening):
        await service.record_play(game.id, ALICE, table("1-3R"), answering=token)
    assert (await service.question(token)).token == token  # still there to answer
    await service.drop_question(token)
    with pytest.raises(e.AlreadyAnswered):
        await service.drop_question(token)


async def test_undo_offers_your_own_change_and_a_later_public_one(service: GameService) -> None:
    game = await two_player_game(service)
    await service.set_rack(game.id, BOB, tiles("1B 2B"))
    await add_sets(service, game.id, ALICE, table("10-12R"))
    events = await history(service, game.id)
    choice = undo_choice(events, BOB)
    assert choice.mine is not None and choice.mine.kind.value == "rack_set"
    assert choice.theirs is not None and choice.theirs.kind.value == "play_recorded"
    # Bob's rack is never someone else's to undo
    assert undo_choice(events, ALICE).mine is not None
    assert undo_choice(events, ALICE).theirs is None
    await service.undo(game.id, BOB)  # his own: the rack, though a play came after it
    bob = (await service.game(game.id)).player(BOB)
    assert bob is not None and bob.rack == ()


async def test_a_rack_a_draw_or_a_table_answers_its_question_once(service: GameService) -> None:
    game = await two_player_game(service)

    def change(what: str, token: str) -> Awaitable[object]:
        if what == "rack":
            return service.set_rack(game.id, ALICE, tiles("1B 2B"), answering=token)
        if what == "draw":
            return service.draw(game.id, ALICE, tiles("5K"), answering=token)
        return service.set_table(game.id, ALICE, table("10-12R"), answering=token)

    for what, answer in (("rack", "Changed"), ("draw", "Drawn"), ("table", "Changed")):
        token = await service.ask(game.id, ALICE, "photo", {})
        before = await count_events(service, game.id)
        answers = await asyncio.gather(change(what, token), change(what, token), return_exceptions=True)
        assert sorted(type(a).__name__ for a in answers) == ["AlreadyAnswered", answer]
        assert await count_events(service, game.id) == before + 1  # stored once
    state = await service.game(game.id)
    alice = state.player(ALICE)
    assert alice is not None and [str(t) for t in alice.rack] == ["1B", "2B", "5K"]
    assert state.turn == BOB  # the draw, once: one turn


async def test_the_end_and_the_racks_told_for_it_answer_their_questions_once(service: GameService) -> None:
    game = await two_player_game(service)
    token = await service.ask(game.id, ALICE, "end", {})
    stops = await asyncio.gather(
        *(service.end_game(game.id, ALICE, answering=token) for _ in range(2)), return_exceptions=True
    )
    assert sorted(type(a).__name__ for a in stops) == ["AlreadyAnswered", "GameState"]
    state = await service.game(game.id)
    kinds = [ev.kind for ev in await history(service, game.id)]
    assert state.finish is Finish.STOPPED and state.running  # stopped once, not closed by the second tap
    assert kinds.count(EventKind.GAME_STOPPED) == 1 and EventKind.GAME_ENDED not in kinds
    for user, rack in ((ALICE, "1R 2R"), (BOB, "13K")):
        token = await service.ask(game.id, user, "left", {})
        told = await asyncio.gather(
            *(service.declare(game.id, user, tiles(rack), answering=token) for _ in range(2)), return_exceptions=True
        )
        assert sorted(type(a).__name__ for a in told) == ["AlreadyAnswered", "Changed"]
    scored = await service.game(game.id)
    assert scored.status is GameStatus.ENDED and scored.winner == ALICE


async def test_a_refused_rack_keeps_its_question(service: GameService) -> None:
    game = await two_player_game(service)
    token = await service.ask(game.id, ALICE, "photo", {})
    with pytest.raises(e.GameError):
        await service.set_rack(game.id, ALICE, tiles("1B 1B 1B"), answering=token)  # three of a tile
    assert (await service.question(token)).token == token


async def test_an_amended_question_keeps_its_token_and_never_comes_back_after_its_answer(
    service: GameService,
) -> None:
    game = await two_player_game(service)
    token = await service.ask(game.id, ALICE, "keys", {"tiles": []})
    await service.amend_question(token, {"tiles": ["3R"]})
    await service.amend_question(token, {"tiles": ["3R", "J"]})
    asked = await service.question(token)
    assert (asked.kind, asked.payload) == ("keys", {"tiles": ["3R", "J"]})
    await service.set_rack(game.id, ALICE, tiles("3R J"), answering=token)
    with pytest.raises(e.AlreadyAnswered):
        await service.amend_question(token, {"tiles": ["3R", "J", "5B"]})  # a tap after Done
    with pytest.raises(e.AlreadyAnswered):
        await service.question(token)
