"""The words and buttons the bot shows: replies, fixed texts, the command menus."""
