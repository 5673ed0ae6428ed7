"""The two kinds of chat the bot tells apart: a private chat (one player, their rack) and a shared one."""

from __future__ import annotations

from enum import Enum

from telegram import Chat


class ChatKind(Enum):
    PRIVATE = "private"
    SHARED = "shared"


PRIVATE = ChatKind.PRIVATE
SHARED = ChatKind.SHARED


def kind_of(chat: Chat) -> ChatKind:
    """A group, a supergroup or a channel is shared: everyone in it reads what is said there (no rack is shown)."""
    return SHARED if chat.type in (Chat.GROUP, Chat.SUPERGROUP, Chat.CHANNEL) else PRIVATE


def is_group(chat: Chat) -> bool:
    """Whether the chat is shared (``kind_of``): a channel counts with the groups."""
    return kind_of(chat) is SHARED
