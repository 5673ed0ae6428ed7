"""Hands the delivered updates (``bot.storage.inbox``) to the handlers: each chat's in order, chats at once.

A chat holds one task while it has updates waiting, however many it sent, so a
chat that floods the bot waits behind itself and never takes the slots other
chats need; past ``FLOOD_MOST`` updates from one sender in ``FLOOD_SECONDS``
its updates are skipped and the sender hears once that they were. Chats are
claimed in the database, so with several processes each chat is still handled
by one of them at a time, in order.

With the database away (a server restarting) a chat's task waits with the
update it is on, and handles that same update again once the database is
back; the sweep, every ``SWEEP_SECONDS``, is what finds it back. Nothing is
logged per attempt: the outage is said once when it begins and once when it
ends (``Database.outage``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

from telegram import Update
from telegram.error import TelegramError

from bot.storage.database import is_unreachable
from bot.storage.inbox import MOST_ATTEMPTS, Inbox, Waiting, handling
from bot.storage.outages import backoff
from bot.telegram.words import texts
from bot.telegram.words.language import _, speaking, supported

log = logging.getLogger(__name__)

#: Chats handled at once by one process (each holds one task; the rest wait their turn in the database).
MOST_CHATS = 64
#: How often the database is looked at for chats no process took (a dead one's, another process's webhook).
SWEEP_SECONDS = 0.5
#: More messages than this from one sender in one chat within ``FLOOD_SECONDS`` are skipped.
FLOOD_MOST = 20
#: Taps are counted apart, and more are allowed: a tile keyboard takes one per tile.
FLOOD_MOST_TAPS = 60
FLOOD_SECONDS = 30.0
#: How often handled updates older than a day are dropped.
FORGET_SECONDS = 3600.0
#: An update that meets the database gone this many times while it answers other requests is given up: its
#: failure is its own, not an outage's.
MOST_INTERRUPTIONS = 5


class Dispatcher:
    def __init__(self, application: Any, inbox: Inbox, *, most_chats: int = MOST_CHATS) -> None:
        self.application = application
        self.inbox = inbox
        self.most_chats = most_chats
        self._running: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._fresh: set[int] = set()  # chats with updates just stored here
        self._stopping = False
        self._swept = 0.0

    def wake(self, chats: set[int] | None = None) -> None:
        """New updates were stored (for ``chats``): look for them now (once they have settled, with webhooks)
        rather than at the next sweep."""
        if self.inbox.settle > 0 and chats:
            asyncio.get_running_loop().call_later(self.inbox.settle + 0.005, self._woken, chats)
            return
        self._woken(chats)

    def _woken(self, chats: set[int] | None) -> None:
        if chats:
            self._fresh |= chats
        self._wake.set()

    async def run(self) -> None:
        """Start chats' tasks as their updates come, until cancelled; keep this process's claims alive."""
        renewing = asyncio.create_task(self._renew())
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(SWEEP_SECONDS):
                        await self._wake.wait()
                self._wake.clear()
                try:
                    await self._start_waiting()
                except Exception as why:  # the database may be away: the next sweep tries again
                    if not is_unreachable(why):
                        log.exception("could not look for waiting updates")
        finally:
            renewing.cancel()

    async def stop(self, patience: float = 10.0) -> None:
        """Let each chat finish the update it is on (up to ``patience`` seconds), then give the chats back."""
        self._stopping = True
        running = list(self._running.values())
        if running:
            _, late = await asyncio.wait(running, timeout=patience)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.inbox.release_all()

    async def _start_waiting(self) -> None:
        """Start the chats whose updates were just stored here and, every ``SWEEP_SECONDS``, any chat with
        updates waiting that no process holds (another process's webhook got them; a dead process had them)."""
        if self._stopping:
            return
        fresh, self._fresh = self._fresh, set()
        chats = set(fresh)
        now = asyncio.get_running_loop().time()
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            chats |= set(await self.inbox.waiting_chats(limit=self.most_chats + len(self._running)))
        for chat_id in chats:
            if chat_id in self._running or len(self._running) >= self.most_chats:
                # Its task may take the new update, or may have just let the chat go: look again when a task
                # ends (a chat left over for want of a slot, likewise).
                if chat_id in fresh:
                    self._fresh.add(chat_id)
                continue
            waiting = await self.inbox.take(chat_id)
            if waiting is not None:
                self._running[chat_id] = asyncio.create_task(self._drain(chat_id, waiting), name=f"chat {chat_id}")

    async def _drain(self, chat_id: int, waiting: Waiting | None) -> None:
        """The chat's updates one after another, until none is left; then the chat is given back (in the same
        transaction as the last update's end)."""
        try:
            while waiting is not None:
                outcome = await self._handled(chat_id, waiting)
                if outcome is None:  # another process has the chat now
                    return
                waiting = await self._finished(chat_id, waiting.update_id, outcome)
        except Exception:  # the claim stays ours and runs on; a sweep starts the chat again
            log.exception("handling the updates of a chat failed")
        finally:
            self._running.pop(chat_id, None)
            self._wake.set()  # room for another chat

    async def _handled(self, chat_id: int, waiting: Waiting) -> str | None:
        """``_handle`` the update, again once the database is back if it went away meanwhile (the same update,
        not counted as another start), as a restart would: a change its first attempt committed is not made
        twice (``AlreadyApplied``). ``None`` if by then another process holds the chat."""
        outage = self.inbox.db.outage
        pauses: Iterator[float] | None = None
        interruptions = 0
        with contextlib.ExitStack() as held:
            while True:
                try:
                    if pauses is not None and not await self.inbox.hold(chat_id):
                        return None
                    return await self._handle(chat_id, waiting)
                except Exception as why:
                    if not is_unreachable(why):
                        raise
                    if interruptions >= MOST_INTERRUPTIONS:
                        log.error("update %s keeps failing on the database while it answers; giving it up",
                                  waiting.update_id)  # fmt: skip
                        return "failed"
                if pauses is None:
                    pauses = backoff()
                    held.enter_context(outage.holding())
                if await outage.pause(next(pauses)):  # the database answered someone meanwhile
                    interruptions += 1

    async def _finished(self, chat_id: int, update_id: int, outcome: str) -> Waiting | None:
        """``Inbox.done``, through an outage of the database (after one, only while the chat is still ours)."""
        pauses: Iterator[float] | None = None
        while True:
            try:
                more = not self._stopping and (pauses is None or await self.inbox.hold(chat_id))
                return await self.inbox.done(update_id, outcome, chat_id, more=more)
            except Exception as why:
                if not is_unreachable(why):
                    raise
            pauses = pauses or backoff()
            await self.inbox.db.outage.pause(next(pauses))

    async def _handle(self, chat_id: int, waiting: Waiting) -> str:
        """Handle one update; how it ended (``done``, ``failed``, or a flood's ``slowed``/``skipped``)."""
        update_id = waiting.update_id
        if waiting.attempts >= MOST_ATTEMPTS:
            log.error("update %s was started %s times and never finished; giving it up", update_id, waiting.attempts)
            return "failed"
        flood = await self._flooded(chat_id, waiting)
        if flood is not None:
            return flood
        update = Update.de_json(waiting.payload, self.application.bot)
        started = time.perf_counter()
        try:
            with handling(update_id) as current:
                await self.application.process_update(update)
        except Exception:  # process_update hands handlers' errors to the error handler; this is anything else
            log.exception("update %s could not be handled", update_id)
            return "failed"
        if current.interrupted is not None:  # the database went away under a handler: ``_handled`` waits
            raise current.interrupted
        log.debug("update %s in chat %s handled in %.1f ms", update_id, chat_id, 1000 * (time.perf_counter() - started))
        return "done"

    async def _flooded(self, chat_id: int, waiting: Waiting) -> str | None:
        """Skip the update if its sender sent too many too fast: the first one skipped says so (``slowed``),
        and the backlog already here is skipped with the next one, in one write."""
        count, told = await self.inbox.recent(waiting, chat_id, FLOOD_SECONDS)
        if count <= (FLOOD_MOST_TAPS if waiting.kind == "button" else FLOOD_MOST):
            return None
        if told:
            await self.inbox.skip_flood(waiting, chat_id)
            return "skipped"
        update = Update.de_json(waiting.payload, self.application.bot)
        user = update.effective_user
        with contextlib.suppress(TelegramError), speaking(supported(user.language_code if user else None)):
            if update.callback_query is not None:
                await update.callback_query.answer(_(texts.SLOW_DOWN), show_alert=True)
            else:
                await self.application.bot.send_message(chat_id, _(texts.SLOW_DOWN))
        return "slowed"

    async def _renew(self) -> None:
        """Renew this process's claims well before they run out; drop day-old handled updates now and then."""
        loop = asyncio.get_running_loop()
        forgotten = loop.time()
        while True:
            await asyncio.sleep(self.inbox.claim_seconds / 3)
            try:
                await self.inbox.renew()
                if loop.time() - forgotten > FORGET_SECONDS:
                    forgotten = loop.time()
                    await self.inbox.forget()
            except Exception as why:
                if not is_unreachable(why):
                    log.exception("could not renew this process's claims")
