"""Something the bot needs (the database, Telegram) not answering for a while: told once, waited out.

An outage is logged twice, whatever its length: one warning when the first
request fails, one line when it is over (how long it lasted, how much had to
wait). Requests caught in it wait with ``backoff`` between attempts, and wake
early as soon as any other request goes through (``pause``), so the bot is
back within moments of the outage's end rather than at the end of a long
pause. It lives in storage, the lowest room that needs it; the chat's
runtime uses it for Telegram too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Iterator

log = logging.getLogger(__name__)

#: The first pause after a failure, in seconds; each next one twice as long, up to a cap.
FIRST_PAUSE = 1.0
#: The longest pause between two attempts of one request while the bot runs, in seconds (any request that goes
#: through wakes the others at once, so this only bounds how often each one asks).
MOST_PAUSE = 15.0
#: The longest pause between two attempts to reach Telegram or the database at start-up, in seconds (each
#: attempt is a log line).
MOST_START_PAUSE = 30.0


def backoff(
    most: float = MOST_PAUSE, first: float = FIRST_PAUSE, rng: Callable[[], float] = random.random
) -> Iterator[float]:
    """Pauses between attempts: doubling from ``first`` up to ``most``, each between half and all of its
    nominal length (jitter: many waiters that failed together do not all try again in the same instant)."""
    nominal = first
    while True:
        yield nominal * (0.5 + rng() / 2)
        nominal = min(nominal * 2, most)


def describe(error: BaseException) -> str:
    """An error in a few words for a log line: its kind and its message (no traceback)."""
    text = " ".join(str(error).split())
    name = type(error).__name__
    return f"{name}: {text[:200]}" if text else name


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s``, ``2 h 0 min``: how long an outage lasted."""
    whole = round(seconds)
    if whole < 60:
        return f"{seconds:.0f} s" if seconds >= 1 else f"{seconds:.1f} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


class Outage:
    """Whether ``name`` answers, seen from every request made to it.

    ``failed`` begins an outage (one warning); ``answered`` ends it once no
    request is still waiting to be tried again (``holding``), with one line.
    While requests wait, ``late`` counts them (``dropped``: given up), for
    the closing line.
    """

    def __init__(
        self,
        name: str,
        meanwhile: str,
        late: str = "requests tried again",
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        #: what the bot does while the outage lasts (the warning's second half)
        self.meanwhile = meanwhile
        #: what ``late`` counts, in the closing line
        self.late_words = late
        self.clock = clock
        self.since: float | None = None
        self.late = 0
        self.dropped = 0
        self._held = 0
        self._pulse: asyncio.Event | None = None

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, why: BaseException) -> None:
        """A request failed for want of an answer: the outage begins here, unless it is on already."""
        if self.since is None:
            self.since = self.clock()
            log.warning("%s does not answer (%s); %s", self.name, describe(why), self.meanwhile)

    def answered(self) -> None:
        """A request went through: wake whoever waits, and close the outage once nothing is left waiting."""
        if self._pulse is not None:
            self._pulse.set()
            self._pulse = None
        if self.since is None or self._held:
            return
        lasted = self.clock() - self.since
        parts = [f"{self.name} answers again after {duration(lasted)}"]
        if self.late:
            parts.append(f"{self.late_words}: {self.late}")
        if self.dropped:
            parts.append(f"dropped: {self.dropped}")
        log.warning("; ".join(parts))
        self.since, self.late, self.dropped = None, 0, 0

    @contextlib.contextmanager
    def holding(self, *, counted: bool = True) -> Iterator[None]:
        """Around a request that is being tried again: the outage is not over while it waits. ``counted``:
        it is one of the ``late`` ones the closing line counts (a poll for updates is not)."""
        self._held += 1
        self.late += counted
        try:
            yield
        finally:
            self._held -= 1

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds``, or less if another request goes through meanwhile; whether one did."""
        if self._pulse is None:
            self._pulse = asyncio.Event()
        pulse = self._pulse
        try:
            async with asyncio.timeout(seconds):
                await pulse.wait()
        except TimeoutError:
            return False
        return True
