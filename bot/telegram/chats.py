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
    return SHARED if chat.type in (Chat.GROUP, Chat.SUPERGROUP, Chat.CHANNEL) else PRIVATE
