"""Whole numbers as people type them: ASCII digits only, and never a slow or failing conversion.

``str.isdigit`` accepts ``²`` and ``①``, which ``int`` refuses, and ``int`` refuses
more than 4,300 digits; every number the notation, the rules options and the
puzzle read goes through here, so both come back as a clear error instead.
"""

from __future__ import annotations

#: what a number too long to matter reads as: more than any rule, tile or row allows
TOO_BIG = 10**9


def whole(text: str) -> int | None:
    """``text`` as a whole number, or None when it is not ASCII digits only; a very long one reads as ``TOO_BIG``."""
    if not text or not text.isascii() or not text.isdigit():
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) < len(str(TOO_BIG)) else TOO_BIG


def shown(token: str, most: int = 24) -> str:
    """A token short enough to quote back in an error (a label's colon left out: the message puts its own)."""
    token = token.rstrip(":") or token
    return token if len(token) <= most else token[: most - 1] + "\u2026"
