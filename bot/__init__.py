"""The application: settings, storage, the Telegram bot and the terminal commands."""
