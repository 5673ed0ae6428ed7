"""Updates in from Telegram, stored before they are confirmed: long polling here, webhooks in ``webhook``.

``getUpdates`` confirms every update before the offset it is called with, so
the next call is made only once the last batch is stored: a crash loses
nothing Telegram delivered; the batch is fetched again and stored once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from telegram import Bot, Update
from telegram.error import Conflict, NetworkError, RetryAfter, TelegramError, TimedOut

from bot.storage.inbox import Delivered, Inbox
from bot.telegram.runtime.dispatch import Dispatcher
from bot.telegram.runtime.pacing import retry_seconds

log = logging.getLogger(__name__)

#: Seconds a long poll waits for an update.
POLL_TIMEOUT = 10
#: The longest pause after a failed poll, in seconds.
MOST_BACKOFF = 30.0


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


async def poll(bot: Bot, inbox: Inbox, dispatcher: Dispatcher, allowed_updates: list[str]) -> None:
    """Fetch, store, then confirm by asking for the next ones; until cancelled."""
    offset: int | None = None  # at start: whatever Telegram still holds (stored ones are recognised)
    backoff = 1.0
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
        except (TimedOut, NetworkError, Conflict) as why:  # Conflict: another process polls with this token
            log.warning("getUpdates failed (%s); trying again in %.0f s", type(why).__name__, backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MOST_BACKOFF)
            continue
        backoff = 1.0
        if updates:
            try:
                await keep(inbox, dispatcher, updates)
            except Exception:  # not stored: not confirmed either; fetched again after a pause
                log.exception("could not store %s updates; fetching them again in %.0f s", len(updates), backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, MOST_BACKOFF)
                continue
            offset = updates[-1].update_id + 1


async def confirm(bot: Bot, inbox: Inbox) -> None:
    """On a clean stop: confirm what is stored, so a restart does not fetch it again."""
    last = await inbox.last_kept()
    if last is not None:
        try:
            await bot.get_updates(offset=last + 1, timeout=0, limit=1)
        except TelegramError:  # it is stored: fetching it again later changes nothing
            log.info("could not confirm the last updates; they will be fetched (and recognised) again")
