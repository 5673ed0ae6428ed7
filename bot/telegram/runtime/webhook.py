"""Webhook mode: Telegram POSTs each update here; it is stored before Telegram hears 200.

Refused unless the request carries the webhook's secret (compared in constant
time); a body over ``MOST_BODY`` bytes is refused before it is read. Without a
configured secret one is derived from the token, so every process of the bot
registers and expects the same one and nothing is ever open by default.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass

import tornado.web
from telegram import Bot, Update
from tornado.httpserver import HTTPServer

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
        await keep(self.receiver.inbox, self.receiver.dispatcher, [update])  # stored: now Telegram may forget it
        self.set_status(200)
        self.finish()

    def log_exception(self, *args: object) -> None:  # tornado's own would print the request, secret header included
        log.error("a webhook request failed: %s", args[1] if len(args) > 1 else args)


def listen(receiver: Receiver, url_path: str, host: str, port: int) -> HTTPServer:
    application = tornado.web.Application([(rf"/{url_path.strip('/')}/?", UpdateHandler, {"receiver": receiver})])
    server = HTTPServer(application, max_body_size=MOST_BODY, max_buffer_size=MOST_BODY)
    server.listen(port, host)
    return server
