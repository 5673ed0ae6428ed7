"""The engine's errors: one base class so callers catch bad input in one place."""

from __future__ import annotations

from solver.text import Text


class RummikubError(ValueError):
    """Input that the game does not allow; the message says what and how to fix it.

    Raise it with a marked template and its values, ``RummikubError(N_("{tile}: not a tile"), tile=…)``, or
    with a ``Text``: ``str(error)`` is the English, and ``error.text`` lets the chat say it in the reader's
    language.
    """

    def __init__(self, message: str | Text, **params: object) -> None:
        self.text = message if isinstance(message, Text) else Text(message, params)
        super().__init__(str(self.text))
