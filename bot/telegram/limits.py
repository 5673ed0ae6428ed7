"""Telegram's limits on what one message carries, each defined once (from python-telegram-bot's constants)."""

from __future__ import annotations

from telegram.constants import CallbackQueryLimit, MessageLimit

#: characters of one text message
TEXT_LIMIT = int(MessageLimit.MAX_TEXT_LENGTH)
#: characters of a photo's caption
CAPTION_LIMIT = int(MessageLimit.CAPTION_LENGTH)
#: characters of the alert a tapped button is answered with
ALERT_LIMIT = int(CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH)
