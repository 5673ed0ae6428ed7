"""The photo reader's one error: input it cannot read, with a message a player can act on."""

from __future__ import annotations

from solver.errors import RummikubError


class PhotoError(RummikubError):
    """Not a picture, a picture too large, or a broken file; the message says which."""
