"""Updates in from Telegram, stored before they are confirmed: long polling here, webhooks in ``webhook``.

``getUpdates`` confirms every update before the offset it is called with, so
the next call is made only once the last batch is stored: a crash loses
nothing Telegram delivered; the batch is fetched again and stored once.

Through an outage of Telegram (``link``) or of the database the poll waits
quietly, each outage said once (``bot.storage.outages``): with the database away the
batch is stored once it is back, and confirmed only then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Sequence

from telegram import Bot, Update
from telegram.error import Conflict, InvalidToken, NetworkError, RetryAfter, TelegramError

from bot.storage.database import is_unreachable
from bot.storage.inbox import Delivered, Inbox
from bot.storage.outages import backoff
from bot.telegram.runtime.dispatch import Dispatcher
from bot.telegram.runtime.link import Link, is_transient
from bot.telegram.runtime.pacing import retry_seconds

log = logging.getLogger(__name__)

#: Seconds a long poll waits for an update.
POLL_TIMEOUT = 10


def delivered(update: Update) -> Delivered:
    """What the inbox keeps of an update: the chat whose order it keeps (the user's own for a button on an
    inline message, which has no chat), the sender, the whole update as JSON."""
    user = update.effective_user
    chat = update.effective_chat
    chat_id = chat.id if chat is not None else user.id if user is not None else 0
    kind = "button" if update.callback_query is not None else "message" if update.effective_message else "other"
    return Delivered(update.update_id, chat_id, user.id if user is not None else None, update.to_dict(), kind)


async def keep(inbox: Inbox, dispatcher: Dispatcher, updates: Sequence[Update]) -> None:
    dispatcher.wake(await inbox.keep([delivered(u) for u in updates]))


async def poll(bot: Bot, inbox: Inbox, dispatcher: Dispatcher, allowed_updates: list[str], link: Link) -> None:
    """Fetch, store, then confirm by asking for the next ones; until cancelled, or until Telegram refuses the
    token (``link.refused``)."""
    offset: int | None = None  # at start: whatever Telegram still holds (stored ones are recognised)
    pauses: Iterator[float] | None = None
    with contextlib.ExitStack() as waiting:
        while True:
            try:
                updates = await bot.get_updates(
                    offset=offset,
                    timeout=POLL_TIMEOUT,
                    allowed_updates=allowed_updates,
                    read_timeout=POLL_TIMEOUT + 5,
                )
            except RetryAfter as why:
                await asyncio.sleep(retry_seconds(why))
                continue
            except InvalidToken:
                link.refused.set()
                return
            except (NetworkError, Conflict) as why:  # Conflict: another process polls with this token
                if pauses is None:
                    pauses = backoff()
                    waiting.enter_context(link.holding(counted=False))
                pause = next(pauses)
                if is_transient(why):
                    link.failed(why)
                else:
                    log.warning("getUpdates failed (%s); trying again in %.0f s", why, pause)
                await link.pause(pause)
                continue
            if pauses is not None:
                pauses = None
                waiting.close()
            link.answered()
            if updates:
                await store(inbox, dispatcher, updates)
                offset = updates[-1].update_id + 1


async def store(inbox: Inbox, dispatcher: Dispatcher, updates: Sequence[Update]) -> None:
    """Store a batch, through an outage of the database if need be (it is not confirmed before)."""
    pauses = backoff()
    while True:
        try:
            await keep(inbox, dispatcher, updates)
            return
        except Exception as why:  # the outage itself is said by the database (``Database.watched``)
            pause = next(pauses)
            if not is_unreachable(why):
                log.exception("could not store %s updates; trying again in %.0f s", len(updates), pause)
        await inbox.db.outage.pause(pause)


async def confirm(bot: Bot, inbox: Inbox) -> None:
    """On a clean stop: confirm what is stored, so a restart does not fetch it again."""
    try:
        last = await inbox.last_kept()
        if last is not None:
            await bot.get_updates(offset=last + 1, timeout=0, limit=1)
    except Exception as why:  # it is stored: fetching it again later changes nothing
        if not isinstance(why, TelegramError) and not is_unreachable(why):
            raise
        log.info("could not confirm the last updates; they will be fetched (and recognised) again")
