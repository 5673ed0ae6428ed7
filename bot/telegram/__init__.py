"""The Telegram bot: python-telegram-bot handlers over the game service, the solver and the renderer.

``build_application`` wires everything; ``bot.run`` starts it (polling or a
webhook). Each module holds one idea: private and group commands, the solve
answer and its buttons, plain-text messages, captions, deep links, chat
migration, the error handler, command registration.
"""

from bot.telegram.app import build_application

__all__ = ["build_application"]
