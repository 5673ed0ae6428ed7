"""Updates of one chat in order, different chats at once.

PTB's concurrent updates would let a quick "/rack …" then "/solve" race each
other, and a chat's migration message race the next command in the new
chat. This processor runs each chat's updates one after another (in the
order Telegram numbered them) while other chats go ahead in parallel, so a
slow solve in one chat never delays another chat.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.storage.locks import KeyedLocks


class PerChatOrder(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int) -> None:
        super().__init__(max_concurrent_updates)
        self._chats = KeyedLocks()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update)
        if key is None:
            await coroutine
            return
        async with self._chats.hold(key):
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up: locks are made on demand."""

    async def shutdown(self) -> None:
        """Nothing to tear down: the locks go with the last update that held them."""


def chat_key(update: object) -> int | None:
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    return update.effective_user.id if update.effective_user is not None else None
