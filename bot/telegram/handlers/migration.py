"""A group that becomes a supergroup gets a new chat id; its game follows it.

Telegram sends two service messages (``migrate_to_chat_id`` in the old chat,
``migrate_from_chat_id`` in the new one); either moves the game, and the
second finds nothing left to move.
"""

from __future__ import annotations

import logging

from telegram import Update

from bot.telegram.context import BotContext
from bot.telegram.errors import guarded

log = logging.getLogger(__name__)


@guarded
async def chat_migrated(update: Update, context: BotContext) -> None:
    message = update.message
    if message is None:
        return
    if message.migrate_to_chat_id is not None:
        old, new = message.chat_id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old, new = message.migrate_from_chat_id, message.chat_id
    else:
        return
    moved = await context.service.move_chat(old, new)
    if moved is not None:
        log.info("game %s moved from chat %s to %s", moved.id, old, new)
