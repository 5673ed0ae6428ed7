"""What the game service refuses, and why, in words a player can act on.

Every error is a ``RummikubError`` so the bot answers all bad input through one
handler; raising one always means nothing was changed. Each is raised with a template marked for the
catalogues (``N_``, ``counted``) and its values, so the chat says it in the reader's language.
"""

from __future__ import annotations

from solver.errors import RummikubError
from solver.text import Text


class GameError(RummikubError):
    """A request the game service refuses; nothing was changed."""


class NoGame(GameError):
    """No running game where one is needed."""


class GameAlreadyRunning(GameError):
    """A chat holds at most one running game."""


class GameOver(GameError):
    """The game has ended; only reading it (or undoing the end) is allowed."""


class GameFinished(GameError):
    """A player went out (or nobody can play on): no more turns, only the racks left for the score."""


class RackLacks(GameError):
    """A play of one's own with tiles one's stored rack does not hold, and the table cannot give."""


class PoolEmpty(GameError):
    """A draw of more tiles than the pool holds."""


class BrokenRecord(GameError):
    """A change that would leave the game's record untrue (a bug guard: the change is not made)."""


class NotAPlayer(GameError):
    """The user has not joined the game (or has left it)."""


class AlreadyJoined(GameError):
    """The user already plays in this game."""


class TooManyTiles(GameError):
    """The known state would hold more of a tile than the deck has."""


class InvalidTable(GameError):
    """A new table with an invalid set, or one that lost tiles of the old table."""


class NothingPlayed(GameError):
    """A play that puts no tile down and moves nothing."""


class TableChanged(GameError):
    """The table changed (another player's message) between reading a message and storing what it says."""


class StaleSuggestion(GameError):
    """A solver suggestion made for a table or rack that has changed since."""


class NothingToUndo(GameError):
    """No change this user may undo."""


class UndoConflict(GameError):
    """A later change touched the same things; undo that one first."""


class InvalidInvite(GameError):
    """A deep-link payload that names no running game."""


class Busy(GameError):
    """The game kept changing under us; the caller may simply try again."""


class NoTiles(GameError):
    """A request that needs tiles and names none."""


class NotYourTurn(GameError):
    """A play on someone else's turn: the chat asks whose play it was before anything is recorded."""

    def __init__(self, message: str | Text, turn: int, **params: object) -> None:
        super().__init__(message, **params)
        self.turn = turn


class NotAnOpening(GameError):
    """A first play that is no valid initial meld: too few points (``points`` of ``needed``), or it changed
    the table's sets (``points`` None). The chat may offer to record it anyway, as a house rule."""

    def __init__(self, message: str | Text, points: int | None, needed: int, **params: object) -> None:
        super().__init__(message, **params)
        self.points = points
        self.needed = needed


class AlreadyAnswered(GameError):
    """A question's button tapped again, or answered in another way meanwhile: nothing more is done."""
