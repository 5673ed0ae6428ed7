"""What the coach refuses, in words a player can act on (a ``RummikubError``: the chat answers it as any other)."""

from __future__ import annotations

from solver.errors import RummikubError


class CoachError(RummikubError):
    """A question the coach cannot answer from what the bot knows (a rack it does not know whole, a play whose
    tiles the rack did not hold)."""
