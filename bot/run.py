"""`python -m bot` with no sub-command: run the Telegram bot (polling, or a webhook when WEBHOOK_URL is set).

Start-up: read the settings, refuse to start without a token (one line on
stderr, exit status 2), bring the database to the latest migration (waiting
for a database that does not answer yet), reach Telegram (waiting for it
likewise, one line per attempt), then run until interrupted. Ctrl-C stops it
at once while it waits. A token Telegram refuses (revoked or mistyped), at
start-up or later, ends in one line and status 2, never in a traceback that
prints the token.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import signal
import sys
import time
from urllib.parse import urlparse

from pydantic import ValidationError

from bot.settings import Settings

log = logging.getLogger("bot")

NO_TOKEN = "error: TELEGRAM_BOT_TOKEN is not set; get a token from @BotFather and put it in the environment or .env"
REFUSED_TOKEN = (
    "error: Telegram refused TELEGRAM_BOT_TOKEN (revoked or mistyped?); "
    "get the current token from @BotFather and put it in the environment or .env"
)


class RedactSecret(logging.Filter):
    """Replace the token in any record that carries it: PTB logs its API URL, token included, at DEBUG, and
    the exception of a refused token says the token, so its traceback is redacted too."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        text = record.getMessage()
        if self.carries(text):
            record.msg, record.args = self.redact(text), None
        # The traceback is formatted here, as a formatter would, when it carries the token: the formatter then
        # prints this text as it is, and without exc_info nothing later can format the exception again.
        exc_text = record.exc_text
        if record.exc_info and not exc_text:
            exc_text = logging.Formatter().formatException(record.exc_info)
        if exc_text and self.carries(exc_text):
            record.exc_text, record.exc_info = self.redact(exc_text), None
        if record.stack_info and self.carries(record.stack_info):
            record.stack_info = self.redact(record.stack_info)
        return True

    def carries(self, text: str) -> bool:
        return any(secret in text for secret in self.secrets)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<secret>")
        return text


def configure_logging(level: str, secret: str = "") -> RedactSecret:
    """``LOG_LEVEL`` for our own loggers (``bot.*``); every library at INFO at most (at DEBUG, PTB, tornado
    and the database drivers log whole requests, updates and SQL parameters: a webhook's secret, a player's
    rack) and httpx at WARNING (its request lines show the token in the URL); every handler of the root
    logger redacts the secrets from whatever else might print them."""
    wanted = logging.getLevelName(level.upper())
    if not isinstance(wanted, int):
        raise ValueError(f"{level!r} is not a log level")
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=max(wanted, logging.INFO))
    logging.getLogger("bot").setLevel(wanted)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    redact = RedactSecret(secret)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    return redact


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as why:
        first = why.errors()[0]
        print(f"error: setting {'.'.join(str(p) for p in first['loc'])}: {first['msg']}", file=sys.stderr)
        return 2
    token = settings.telegram_bot_token.get_secret_value().strip() if settings.telegram_bot_token else ""
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:
        redact = configure_logging(settings.log_level, token)
    except ValueError:
        print(f"error: LOG_LEVEL={settings.log_level!r} is not a log level (DEBUG, INFO, WARNING)", file=sys.stderr)
        return 2

    from telegram.error import InvalidToken

    try:
        migrated(settings.database_url)
        refused = asyncio.run(serve(settings, redact))
    except InvalidToken:  # its message and its traceback carry the token: neither is printed
        refused = True
    except KeyboardInterrupt:  # Ctrl-C while waiting for the database
        log.info("stopped")
        return 0
    if refused:
        print(REFUSED_TOKEN, file=sys.stderr)
        return 2
    return 0


def migrated(url: str) -> None:
    """Bring the database to the latest migration, once it answers: until then one line per attempt. SIGTERM
    stops the waiting as Ctrl-C does (``KeyboardInterrupt``)."""
    from bot.storage import migrate
    from bot.storage.database import is_unreachable
    from bot.storage.outages import MOST_START_PAUSE, backoff, describe

    pauses = backoff(MOST_START_PAUSE)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for attempt in itertools.count(1):
            try:
                migrate.upgrade(url)
                return
            except Exception as why:
                if not is_unreachable(why):
                    raise
                pause = next(pauses)
                log.warning(
                    "the database does not answer (%s); attempt %d, trying again in %.1f s",
                    describe(why), attempt, pause,
                )  # fmt: skip
                time.sleep(pause)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


async def serve(settings: Settings, redact: RedactSecret) -> bool:
    """Run until SIGINT or SIGTERM (then each chat finishes the update it is on, and the rest stops), or until
    Telegram refuses the token: whether it did. A signal during start-up (waiting for Telegram) stops at once."""
    from bot.telegram.app import ALLOWED_UPDATES, build_application
    from bot.telegram.runtime import collector
    from bot.telegram.runtime.serving import serving, webhook_of

    application = build_application(settings)
    collector.settle()  # everything is imported and built: out of the cycle collector's sight from now on
    webhook = webhook_of(settings)
    if webhook is not None:
        redact.secrets.append(webhook.secret)
        log.info("starting with a webhook on %s:%s%s", webhook.listen, webhook.port, urlparse(webhook.url).path)
    else:
        log.info("starting with long polling")
    stop, started = asyncio.Event(), asyncio.Event()
    starting = asyncio.current_task()

    def signalled() -> None:
        if starting is not None and not starting.done() and not started.is_set():
            starting.cancel()  # nothing is under way yet: stop now, not at the end of a pause
        stop.set()

    loop = asyncio.get_running_loop()
    for name in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(name, signalled)
    try:
        async with serving(application, ALLOWED_UPDATES, webhook=webhook) as link:
            started.set()
            refusing = asyncio.create_task(link.refused.wait())
            stopping = asyncio.create_task(stop.wait())
            try:
                await asyncio.wait([refusing, stopping], return_when=asyncio.FIRST_COMPLETED)
            finally:
                refusing.cancel()
                stopping.cancel()
    except asyncio.CancelledError:
        if not stop.is_set():
            raise
        log.info("stopped before start-up was over")
        return False
    log.info("stopped")
    return link.refused.is_set()
