"""The inbox: updates stored once, a chat held by one live process at a time, taken in Telegram's order."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.game.errors import AlreadyAnswered
from bot.storage import GameService, open_database
from bot.storage.inbox import Delivered, Inbox
from tests.storage_support import migrated

CHAT = 4242


def delivered(update_id: int, chat: int = CHAT) -> Delivered:
    return Delivered(update_id, chat, 7, {"update_id": update_id})


async def test_an_update_delivered_twice_is_kept_once_and_a_chat_is_one_processs_at_a_time(tmp_path: Path) -> None:
    db = open_database(await migrated(tmp_path))
    try:
        first, second = Inbox(db, claim_seconds=0.3), Inbox(db, claim_seconds=0.3)
        await first.keep([delivered(1), delivered(2)])
        await first.keep([delivered(1)])  # Telegram sent it again
        taken = await first.take(CHAT)
        assert taken is not None and taken.update_id == 1
        assert await second.take(CHAT) is None  # the first process holds the chat
        assert await second.waiting_chats(10) == []
        nxt = await first.done(1, "done", CHAT)
        assert nxt is not None and nxt.update_id == 2  # the next one, in the same transaction
        await asyncio.sleep(0.4)  # the first process died without renewing: its hold runs out
        assert await second.waiting_chats(10) == [CHAT]
        again = await second.take(CHAT)
        assert again is not None and again.update_id == 2 and again.attempts == 1  # its start was counted
        assert await second.done(2, "done", CHAT) is None  # none left: the chat is let go
        assert await first.take(CHAT) is None
    finally:
        await db.dispose()


async def test_with_webhooks_an_update_waits_for_one_sent_ahead_of_it(tmp_path: Path) -> None:
    db = open_database(await migrated(tmp_path))
    try:
        inbox = Inbox(db, settle=0.1)
        await inbox.keep([delivered(11)])  # arrived first over one connection
        await asyncio.sleep(0.03)
        await inbox.keep([delivered(10)])  # Telegram's earlier one, a moment later over another
        assert await inbox.take(CHAT) is None  # nothing has settled yet
        await asyncio.sleep(0.12)
        taken = await inbox.take(CHAT)
        assert taken is not None and taken.update_id == 10
    finally:
        await db.dispose()


async def test_questions_nobody_answered_for_a_week_are_forgotten(tmp_path: Path) -> None:
    db = open_database(await migrated(tmp_path))
    try:
        now = datetime.now(UTC)
        old = GameService(db, clock=lambda: now - timedelta(days=8))
        service = GameService(db)
        game = await service.new_game(CHAT, 7, join_as="Ann")
        stale = await old.ask(game.id, 7, "photo", {"tiles": []})
        fresh = await service.ask(game.id, 7, "photo", {"tiles": []})
        await Inbox(db).forget()
        with pytest.raises(AlreadyAnswered):
            await service.question(stale)
        assert (await service.question(fresh)).token == fresh
    finally:
        await db.dispose()
