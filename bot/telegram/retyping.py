"""A message handled as if the player had sent it: a tapped "Did you mean …?" reading, a shortcut button.

The text goes through the same handlers as a typed message (every check, every answer), from the player who
tapped, in the chat where they tapped.
"""

from __future__ import annotations

from datetime import UTC, datetime

from telegram import Message, MessageEntity, Update

from bot.telegram.context import BotContext


async def as_if_sent(update: Update, context: BotContext, text: str, message_id: int = 0) -> None:
    """Handle ``text`` as a message the tapper sent in this chat (``message_id``: the message it stands for,
    which answers in a group quote)."""
    chat, user = context.where, context.who
    command = text.split(maxsplit=1)[0] if text.startswith("/") else ""
    entities = [MessageEntity(MessageEntity.BOT_COMMAND, 0, len(command))] if command else None
    sent = Message(message_id, datetime.now(UTC), chat, from_user=user, text=text, entities=entities)
    sent.set_bot(context.bot)
    await context.application.process_update(Update(update.update_id, message=sent))
