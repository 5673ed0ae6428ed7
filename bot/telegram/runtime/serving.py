"""The running bot: the application started, updates coming in (polling or a webhook), the dispatcher
handing them out, and everything stopped cleanly in the reverse order.

Start-up waits for Telegram (``link.reach``); the block runs until it ends, or
until Telegram refuses the token (``Link.refused``, which the caller awaits).
``python -m bot`` and the end-to-end tests run exactly this.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from bot.settings import Settings
from bot.storage.health import Checkup
from bot.storage.inbox import Inbox
from bot.telegram.runtime.deps import KEY, Deps
from bot.telegram.runtime.dispatch import Dispatcher
from bot.telegram.runtime.intake import confirm, poll
from bot.telegram.runtime.link import Link, reach
from bot.telegram.runtime.webhook import Receiver, derived_secret, listen

log = logging.getLogger(__name__)

#: With webhooks, how long an update waits for one Telegram sent ahead of it over another connection.
SETTLE = 0.1


@dataclass(frozen=True, slots=True)
class Webhook:
    url: str
    listen: str
    port: int
    secret: str
    #: where GET answers the health check (``bot.storage.health``), beside the webhook
    health_path: str = "/health"


def webhook_of(settings: Settings) -> Webhook | None:
    """The webhook the settings ask for (``WEBHOOK_URL``), its secret given or derived from the token."""
    if not settings.webhook_url:
        return None
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else ""
    token = settings.telegram_bot_token.get_secret_value() if settings.telegram_bot_token else ""
    secret = secret or derived_secret(token)
    return Webhook(settings.webhook_url, settings.webhook_listen, settings.webhook_port, secret, settings.health_path)


@contextlib.asynccontextmanager
async def serving(
    application: Any, allowed_updates: list[str], *, webhook: Webhook | None = None
) -> AsyncIterator[Link]:
    """Run the bot until the block ends; the block gets Telegram's ``Link`` (its ``refused`` set: stop)."""
    deps: Deps = application.bot_data[KEY]
    link = deps.telegram
    settle = SETTLE if webhook is not None else 0.0
    inbox = Inbox(deps.db, claim_seconds=deps.settings.claim_seconds, settle=settle)
    dispatcher = Dispatcher(application, inbox)
    dispatching: asyncio.Task[None] | None = None
    polling: asyncio.Task[None] | None = None
    server = None
    try:
        await reach(application.initialize, link)
        if application.post_init is not None:
            await application.post_init(application)
        await application.start()
        dispatching = asyncio.create_task(dispatcher.run(), name="dispatcher")
        if webhook is None:
            await application.bot.delete_webhook()  # polling is refused while a webhook is set
            polling = asyncio.create_task(
                poll(application.bot, inbox, dispatcher, allowed_updates, link), name="polling"
            )
        else:
            receiver = Receiver(application.bot, inbox, dispatcher, webhook.secret, Checkup(deps.db.engine))
            server = listen(receiver, urlparse(webhook.url).path, webhook.listen, webhook.port, webhook.health_path)
            await application.bot.set_webhook(webhook.url, secret_token=webhook.secret, allowed_updates=allowed_updates)
        yield link
    finally:
        # No more updates in, each chat finishes the update it is on, then the rest stops.
        log.info("stopping: no more updates in")
        if server is not None:
            server.stop()
        await _cancel(polling)
        await dispatcher.stop()
        await _cancel(dispatching)
        log.info("stopping: every chat let go")
        if polling is not None and link.reached and not link.refused.is_set():
            await confirm(application.bot, inbox)
        if application.running:
            await application.stop()
        await application.shutdown()
        if application.post_shutdown is not None:
            await application.post_shutdown(application)


async def _cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
