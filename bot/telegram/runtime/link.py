"""Telegram as the bot reaches it: the first contact at start-up, every request through an outage, a token
refused.

Start-up (``reach``) tries ``getMe`` until Telegram answers, one log line per
attempt, with a capped, jittered backoff. From then on every request goes
through ``Patient`` (PTB's rate-limiter hook, around the flood limits): a
timeout, a lost connection or a 5xx answer begins an outage (one warning, see
``bot.storage.outages``) and the request is tried again, with backoff, until it goes
through. The handler that made it waits meanwhile, so a chat's answers still
go out in its order. An answer not through after ``answer_seconds`` is
dropped with one line (``AnswerDropped``); a chat action is never tried again
(shown late it would be wrong). A token Telegram refuses (401, or 404 for a
malformed one) sets ``Link.refused``: the bot stops, says so in one line and
exits with status 2.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

from telegram.error import BadRequest, InvalidToken, NetworkError
from telegram.ext import BaseRateLimiter

from bot.storage.outages import MOST_START_PAUSE, Outage, backoff, describe, duration

log = logging.getLogger(__name__)

#: The bot's own set-up (command menus, the webhook): tried until Telegram takes it, however long that is.
SET_UP = frozenset({"getMe", "setMyCommands", "deleteWebhook", "setWebhook"})
#: Requests shown only at the moment they are made: never tried again.
MOMENTARY = frozenset({"sendChatAction"})


class AnswerDropped(NetworkError):
    """An answer Telegram could not take for longer than the bot waits: given up (and logged once)."""


def is_transient(error: BaseException) -> bool:
    """Telegram did not answer, or answered that it could not now: a timeout, a lost connection, a 5xx.
    (PTB calls a 400 a ``NetworkError`` too: that one is final.)"""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest | AnswerDropped)


class Link(Outage):
    """Telegram, as every request of this process finds it."""

    def __init__(self, *, clock: Callable[[], float] | None = None) -> None:
        kwargs = {} if clock is None else {"clock": clock}
        super().__init__(
            "Telegram",
            "answers wait, and go out in each chat's order once it is back",
            "sends tried again",
            **kwargs,
        )
        #: start-up has reached Telegram once (before that, ``reach`` does the trying again, loudly)
        self.reached = False
        #: Telegram refused the token: the bot stops
        self.refused = asyncio.Event()


async def reach(initialize: Callable[[], Coroutine[Any, Any, None]], link: Link) -> None:
    """Call ``initialize`` (PTB's, which asks ``getMe``) until Telegram answers: one line per failed attempt,
    saying why and when the next one is; a refused token raises ``InvalidToken`` at once."""
    pauses = backoff(MOST_START_PAUSE)
    for attempt in itertools.count(1):
        try:
            await initialize()
        except NetworkError as why:
            pause = next(pauses)
            log.warning(
                "could not reach Telegram (%s); attempt %d, trying again in %.1f s", describe(why), attempt, pause
            )
            await asyncio.sleep(pause)
            continue
        link.reached = True
        return


class Patient(BaseRateLimiter[Any]):
    """Every request to Telegram through ``inner`` (the flood limits), tried again through outages."""

    def __init__(self, inner: BaseRateLimiter[Any], link: Link, answer_seconds: float) -> None:
        self.inner = inner
        self.link = link
        self.answer_seconds = answer_seconds

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Any,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        link = self.link
        began = link.clock()
        pauses: Iterator[float] | None = None
        with contextlib.ExitStack() as waiting:
            while True:
                try:
                    result = await self.inner.process_request(callback, args, kwargs, endpoint, data, rate_limit_args)
                except InvalidToken:
                    link.refused.set()
                    raise
                except NetworkError as why:
                    if pauses is not None and endpoint == "answerCallbackQuery" and isinstance(why, BadRequest):
                        return True  # the tap's moment passed while Telegram was away: nothing left to answer
                    if not is_transient(why) or not link.reached:
                        raise
                    link.failed(why)
                    if endpoint in MOMENTARY:
                        return True
                    waited = link.clock() - began
                    if endpoint not in SET_UP and waited > self.answer_seconds:
                        link.dropped += 1
                        log.warning(
                            "dropped %s to chat %s: Telegram has not taken it for %s (ANSWER_RETRY_SECONDS)",
                            endpoint, data.get("chat_id"), duration(waited),
                        )  # fmt: skip
                        raise AnswerDropped(f"{endpoint} given up after {duration(waited)}") from why
                    if pauses is None:
                        pauses = backoff()
                        waiting.enter_context(link.holding())
                    await link.pause(next(pauses))
                    continue
                waiting.close()  # not waiting any more: this answer may be the one that ends the outage
                link.answered()
                return result
