"""Deep links: the group's "My rack" button opens the private chat already tied to that group's game.

The payload is the game's invite (URL-safe, at most 64 characters, as
Telegram requires for ``start`` parameters); ``/start <invite>`` in private
links the chat to the game.
"""

from __future__ import annotations

import re

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


def deep_link(bot_username: str, invite: str) -> str:
    return f"https://t.me/{bot_username}?start={invite}"


def is_payload(text: str) -> bool:
    return _PAYLOAD.fullmatch(text) is not None
