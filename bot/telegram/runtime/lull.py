"""Answers first, bookkeeping in the lulls between them.

When many chats ask at once, every answer waits for the CPU the others use.
Storing a position that was already answered is work nobody is waiting for,
so it waits for a moment when no answer is under way (or, when answers never
stop coming, for ``patience`` seconds at most, so it is never put off for
long). The chat's own next message still waits for its store: updates of one
chat are handled in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

#: The longest a store waits for a lull, in seconds.
PATIENCE = 2.0


class Lull:
    def __init__(self, patience: float = PATIENCE) -> None:
        self.patience = patience
        self._answering = 0
        self._quiet = asyncio.Event()
        self._quiet.set()

    @property
    def answering(self) -> int:
        """How many answers are under way."""
        return self._answering

    @contextlib.contextmanager
    def answer(self) -> Iterator[None]:
        """Around the work of one answer (solving, drawing, sending)."""
        self._answering += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if not self._answering:
                self._quiet.set()

    async def wait(self) -> None:
        """Return when no answer is under way, or after ``patience`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._quiet.wait(), self.patience)
