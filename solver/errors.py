"""The engine's errors: one base class so callers catch bad input in one place."""


class RummikubError(ValueError):
    """Input that the game does not allow; the message says what and how to fix it."""
