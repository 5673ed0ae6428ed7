"""Webhook mode: Telegram POSTs each update here; it is stored before Telegram hears 200.

Refused unless the request carries the webhook's secret (compared in constant
time); a body over ``MOST_BODY`` bytes is refused before it is read. Without a
configured secret one is derived from the token, so every process of the bot
registers and expects the same one and nothing is ever open by default. With
the database away an update is answered 503, unstored: Telegram posts it
again later. Beside the webhook, GET on the health path answers the health
check's line (``bot.storage.health``): 200 when well, else 503.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

import tornado.web
from telegram import Bot, Update
from tornado.httpserver import HTTPServer

from bot.storage.database import is_unreachable
from bot.storage.health import Checkup
from bot.storage.inbox import Inbox
from bot.telegram.runtime.dispatch import Dispatcher
from bot.telegram.runtime.intake import keep

log = logging.getLogger(__name__)

#: The largest update body read, in bytes (Telegram's updates are a few kilobytes).
MOST_BODY = 256 * 1024
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def derived_secret(token: str) -> str:
    """The webhook secret when none is configured: the same in every process, unguessable without the token."""
    return hmac.new(token.encode(), b"rummikub webhook secret", hashlib.sha256).hexdigest()


@dataclass
class Receiver:
    bot: Bot
    inbox: Inbox
    dispatcher: Dispatcher
    secret: str
    health: Checkup


class UpdateHandler(tornado.web.RequestHandler):
    def initialize(self, receiver: Receiver) -> None:
        self.receiver = receiver

    async def post(self) -> None:
        given = self.request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.receiver.secret.encode()):
            self.send_error(403)
            return
        try:
            data = json.loads(self.request.body)
            update = Update.de_json(data, self.receiver.bot)
        except (ValueError, TypeError, KeyError):
            self.send_error(400)
            return
        if update is None:
            self.send_error(400)
            return
        try:
            await keep(self.receiver.inbox, self.receiver.dispatcher, [update])  # stored: Telegram may forget it
        except Exception as why:
            if not is_unreachable(why):
                raise
            self.send_error(503)  # not stored: Telegram posts it again (the outage is said by the database)
            return
        self.set_status(200)
        self.finish()

    def log_exception(self, *args: object) -> None:  # tornado's own would print the request, secret header included
        log.error("a webhook request failed: %s", args[1] if len(args) > 1 else args)


class HealthHandler(tornado.web.RequestHandler):
    def initialize(self, receiver: Receiver) -> None:
        self.receiver = receiver

    async def get(self) -> None:
        health = await self.receiver.health()
        self.set_status(200 if health.ok else 503)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(health.line + "\n")


def listen(receiver: Receiver, url_path: str, host: str, port: int, health_path: str = "/health") -> HTTPServer:
    """Serve the webhook on ``url_path`` and the health check on ``health_path`` (the webhook wins if the two
    are the same path)."""
    routes: list[Any] = [(rf"/{url_path.strip('/')}/?", UpdateHandler, {"receiver": receiver})]
    routes.append((rf"/{re.escape(health_path.strip('/'))}/?", HealthHandler, {"receiver": receiver}))
    application = tornado.web.Application(routes)
    server = HTTPServer(application, max_body_size=MOST_BODY, max_buffer_size=MOST_BODY)
    server.listen(port, host)
    return server
