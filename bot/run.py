"""`python -m bot` with no sub-command: run the Telegram bot (polling, or a webhook when WEBHOOK_URL is set).

Start-up: read the settings, refuse to start without a token (one line on
stderr, exit status 2), bring the database to the latest migration, then hand
over to PTB, which runs until interrupted. A token Telegram refuses (revoked
or mistyped) also ends in one line and status 2, never in a traceback that
prints the token.
"""

from __future__ import annotations

import logging
import sys
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

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secret:
            return True
        text = record.getMessage()
        if self.secret in text:
            record.msg, record.args = self.redact(text), None
        # The traceback is formatted here, as a formatter would, when it carries the token: the formatter then
        # prints this text as it is, and without exc_info nothing later can format the exception again.
        exc_text = record.exc_text
        if record.exc_info and not exc_text:
            exc_text = logging.Formatter().formatException(record.exc_info)
        if exc_text and self.secret in exc_text:
            record.exc_text, record.exc_info = self.redact(exc_text), None
        if record.stack_info and self.secret in record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True

    def redact(self, text: str) -> str:
        return text.replace(self.secret, "<token>")


def configure_logging(level: str, secret: str = "") -> RedactSecret:
    """Our log level everywhere, httpx at WARNING (its request lines show the token in the URL), and every
    handler of the root logger redacting the token from whatever else might print it."""
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=level.upper())
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
        configure_logging(settings.log_level, token)
    except ValueError:
        print(f"error: LOG_LEVEL={settings.log_level!r} is not a log level (DEBUG, INFO, WARNING)", file=sys.stderr)
        return 2

    from telegram.error import InvalidToken

    from bot.storage import migrate
    from bot.telegram.app import ALLOWED_UPDATES, build_application
    from bot.telegram.runtime import collector

    migrate.upgrade(settings.database_url)
    application = build_application(settings)
    collector.settle()  # everything is imported and built: out of the cycle collector's sight from now on
    try:
        if settings.webhook_url:
            path = urlparse(settings.webhook_url).path.lstrip("/")
            secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            log.info("starting with a webhook on %s:%s/%s", settings.webhook_listen, settings.webhook_port, path)
            application.run_webhook(
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                url_path=path,
                webhook_url=settings.webhook_url,
                secret_token=secret,
                allowed_updates=ALLOWED_UPDATES,
            )
        else:
            log.info("starting with long polling")
            application.run_polling(allowed_updates=ALLOWED_UPDATES)
    except InvalidToken:  # its message and its traceback carry the token: neither is printed
        print(REFUSED_TOKEN, file=sys.stderr)
        return 2
    return 0
