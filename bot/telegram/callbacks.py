"""Callback data: the one place that packs what a button carries and parses (and checks) what comes back.

Telegram gives a button at most 64 bytes of data, and anyone can send any data: everything read back here is
validated before a handler sees it, and a button is only good in the kind of chat it was made for (a button
meant for a private chat does nothing in a group, where it could show a rack).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.telegram.chats import PRIVATE, SHARED, ChatKind

#: Telegram's limit on a button's data
LIMIT = 64

_ANSWER = re.compile(r"^q:([A-Za-z0-9_-]{8,24}):([gp]):(\d{1,2}|x)$")


@dataclass(frozen=True, slots=True)
class Answer:
    """A tap on a question's button: the question's token, the option (None: Cancel), where it was asked."""

    token: str
    option: int | None
    where: ChatKind


def answer(token: str, option: int | None, where: ChatKind) -> str:
    """The data of a question's button (``option`` None: Cancel)."""
    data = f"q:{token}:{'p' if where is PRIVATE else 'g'}:{'x' if option is None else option}"
    assert len(data.encode()) <= LIMIT, data
    return data


def parse_answer(data: str, tapped_in: ChatKind) -> Answer | None:
    """The answer a button carries, or None for data that is not one of ours or that was tapped in the other
    kind of chat."""
    m = _ANSWER.match(data)
    if m is None:
        return None
    where = PRIVATE if m.group(2) == "p" else SHARED
    if where is not tapped_in:
        return None
    option = None if m.group(3) == "x" else int(m.group(3))
    return Answer(m.group(1), option, where)


_SWITCH = re.compile(r"^g:(\d{1,18})$")


def switch(game_id: int) -> str:
    """The data of a /games button: tie this private chat to that game (only ever good in a private chat)."""
    return f"g:{game_id}"


def parse_switch(data: str, tapped_in: ChatKind) -> int | None:
    """The game a /games button names, or None (not ours, or tapped outside a private chat)."""
    m = _SWITCH.match(data)
    return int(m.group(1)) if m is not None and tapped_in is PRIVATE else None


ANSWER_PATTERN = _ANSWER.pattern
SWITCH_PATTERN = r"^g:"
