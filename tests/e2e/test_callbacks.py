"""Callback data: packed and parsed in one place, checked for its form, its length and the kind of chat, and
every tap answered, a forged or stale one too (end to end through the fake Bot API)."""

from __future__ import annotations

from pathlib import Path

import pytest
from telegram import Chat as TelegramChat

from bot.telegram import callbacks
from bot.telegram.chats import PRIVATE, SHARED, is_group, kind_of
from bot.telegram.words import texts
from bot.telegram.words.language import _, speaking
from tests.bot_support import ALICE, Session, session
from tests.e2e.test_group import GROUP, new_game_with_two
from tests.fake_bot_api import Call, User


def test_each_button_reads_back_what_it_carries_and_fits_telegrams_limit() -> None:
    data = callbacks.played_this(2**62, "p", "0123456789ab")
    assert len(data.encode()) <= callbacks.LIMIT
    assert callbacks.parse_played_this(data, PRIVATE) == callbacks.Suggested(2**62, "p", "0123456789ab")
    assert callbacks.parse_other_objective(callbacks.other_objective(7, "t"), PRIVATE) == callbacks.Suggested(7, "t")
    answer = callbacks.answer("abcdefghijkl", 3, SHARED)
    assert callbacks.parse_answer(answer, SHARED) == callbacks.Answer("abcdefghijkl", 3, SHARED)
    assert callbacks.parse_answer(callbacks.answer("abcdefghijkl", None, PRIVATE), PRIVATE) == callbacks.Answer(
        "abcdefghijkl", None, PRIVATE
    )
    assert callbacks.parse_switch(callbacks.switch(12), PRIVATE) == 12
    for name in ("1R", "13O", "J", callbacks.DELETE, callbacks.DONE):
        key = callbacks.key("abcdefghijkl", name)
        assert len(key.encode()) <= callbacks.LIMIT
        assert callbacks.parse_key(key, PRIVATE) == callbacks.Key("abcdefghijkl", name)
    assert callbacks.is_new_game(callbacks.NEW_GAME, SHARED)


@pytest.mark.parametrize(
    "data",
    ["p:1:t:0123456789ab", "o:1:p", "x", "k:r:3R", "g:5", "q:abcdefghijkl:p:0"],
)
def test_a_private_chats_button_does_nothing_in_a_group(data: str) -> None:
    parsed = [
        callbacks.parse_played_this(data, SHARED),
        callbacks.parse_other_objective(data, SHARED),
        callbacks.is_example(data, SHARED) or None,
        callbacks.parse_switch(data, SHARED),
        callbacks.parse_answer(data, SHARED),
    ]
    assert parsed == [None] * 5
    assert not callbacks.is_join("j", PRIVATE) and callbacks.is_join("j", SHARED)
    assert callbacks.parse_key("t:abcdefghijkl:3R", SHARED) is None  # the tile keyboard: a rack, so private
    assert not callbacks.is_new_game(callbacks.NEW_GAME, PRIVATE)  # the greeting's New game: a group's


@pytest.mark.parametrize(
    "data", ["p:1:t:XYZ", "p:1:t:0123456789ab:extra", "o:1:z", "q:short:p:0", "q:abcdefghijkl:p:999", "g:-1", "k:z"]
)
def test_forged_data_reads_as_nothing(data: str) -> None:
    for where in (PRIVATE, SHARED):
        assert callbacks.parse_played_this(data, where) is None
        assert callbacks.parse_other_objective(data, where) is None
        assert callbacks.parse_answer(data, where) is None
        assert callbacks.parse_switch(data, where) is None
        assert callbacks.parse_key(data, where) is None


@pytest.mark.parametrize(
    "data", ["t:short:3R", "t:abcdefghijkl:3X", "t:abcdefghijkl:3R:x", "t:abcdefghijkl:0R", "t:abcdefghijkl:", "tt"]
)
def test_forged_keys_read_as_nothing(data: str) -> None:
    assert callbacks.parse_key(data, PRIVATE) is None


async def tap_forged(s: Session, user: User, message: Call, data: str) -> Call:
    """``user`` taps a button carrying ``data`` under ``message`` (a button the bot never made); the alert."""
    forged = Call("sendMessage", {**message.params, "reply_markup": {
        "inline_keyboard": [[{"text": "Forged", "callback_data": data}]]}}, message.files, message.at,
        message.result)  # fmt: skip
    mark = s.fake.mark()
    s.fake.tap(user, forged, "Forged")
    return await s.fake.call("answerCallbackQuery", mark)


async def test_a_forged_or_misplaced_tap_is_answered_and_changes_nothing(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        before = await s.service.active_game(GROUP.id)
        for data in ("p:1:t:0123456789ab", "zzz", "q:abcdefghijkl:g:0", "g:1", "t:abcdefghijkl:3R", "t:x"):
            alert = await tap_forged(s, ALICE, created, data)
            assert alert.params.get("show_alert") is True, (data, alert.params)
            assert any(w in alert.params["text"] for w in ("earlier", "private chat", "answered")), alert.params
        after = await s.service.active_game(GROUP.id)
        assert after.version == before.version


async def test_a_button_no_handler_knows_is_answered_in_the_readers_language(tmp_path: Path) -> None:
    """An old or forged button's alert is in the reader's language (issue 25 named it English; fixed since)."""
    dieter = User(503, "Dieter", language_code="de")
    async with session(tmp_path) as s:
        started = await s.ask(dieter, "/start")
        for data in ("zzz", "x:1"):
            alert = await tap_forged(s, dieter, started, data)
            with speaking("de"):
                german = _(texts.STALE_BUTTON)
            assert german != texts.STALE_BUTTON
            assert alert.params == {**alert.params, "text": german, "show_alert": True}, (data, alert.params)


@pytest.mark.parametrize("kind", ["private", "group", "supergroup", "channel"])
def test_is_group_and_the_kind_of_chat_agree(kind: str) -> None:
    """One meaning of a shared chat: a channel is read by everyone in it, as a group is."""
    chat = TelegramChat(1, kind)
    assert is_group(chat) is (kind_of(chat) is SHARED) is (kind != "private")
