"""The command menus Telegram shows, registered at start-up: one for private chats, one for groups."""

from __future__ import annotations

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.ext import Application

PRIVATE = [
    ("solve", "the best play now, as a picture"),
    ("rack", "set your rack: /rack 3R 4R 5R J, or tap it in"),
    ("draw", "add tiles you drew: /draw 7B, or tap them in"),
    ("table", "set the table: /table 6R 7R 8R | 7K 7O 7R"),
    ("play", "record sets put down: /play 9R 10R 11R"),
    ("status", "the table and your rack"),
    ("undo", "take back your last change"),
    ("fit", "fewest moves to get one tile on: /fit 3R"),
    ("meld", "your initial meld is made"),
    ("pass", "next player's turn"),
    ("games", "the games you play, to switch between"),
    ("new", "a new game: /new meld=25 jokers=1"),
    ("rules", "this game's rules"),
    ("end", "end the game, with the points left"),
    ("help", "how to write tiles, all commands"),
]

GROUP = [
    ("new", "start a game in this group"),
    ("join", "take a seat in the game"),
    ("status", "table, players, whose turn"),
    ("play", "record sets put down: /play 9R 10R 11R"),
    ("table", "set the table: /table 6R 7R 8R | 7K 7O 7R"),
    ("pass", "next player's turn"),
    ("undo", "take back the last change"),
    ("fit", "fewest moves to get one tile on: /fit 3R"),
    ("rack", "open your private rack"),
    ("end", "end the game, with the points left"),
    ("rules", "this game's rules"),
    ("help", "how it works"),
]

#: Every command the handlers answer (the menus may show fewer).
ALL = sorted({name for name, _ in PRIVATE + GROUP} | {"start", "solve", "draw", "meld"})


async def register(application: Application) -> None:  # type: ignore[type-arg]
    bot = application.bot
    await bot.set_my_commands([BotCommand(n, d) for n, d in PRIVATE], scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands([BotCommand(n, d) for n, d in GROUP], scope=BotCommandScopeAllGroupChats())
