"""The command menus Telegram shows, registered at start-up: one for private chats, one for groups, each in
every language the bot speaks (Telegram shows a user the one of their app's language, else the English)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.ext import Application

from bot.telegram.words.language import ENGLISH, LANGUAGES, _, speaking
from solver.text import N_

PRIVATE = [
    ("solve", N_("the best play now, as a picture")),
    ("hint", N_("a hint, a little more each time")),
    ("unseen", N_("the tiles you have not seen, and your odds")),
    ("review", N_("how you played this game")),
    ("rack", N_("set your rack: /rack 3R 4R 5R J, or tap it in")),
    ("draw", N_("you drew (your turn ends): /draw 7B, or tap it in")),
    ("table", N_("set the table: /table 6R 7R 8R | 7K 7O 7R")),
    ("play", N_("record sets put down: /play 9R 10R 11R")),
    ("status", N_("the table and your rack")),
    ("undo", N_("take back your last change")),
    ("fit", N_("fewest moves to get one tile on: /fit 3R")),
    ("meld", N_("your initial meld is made (a game of your own)")),
    ("left", N_("the tiles left on your rack at the end: /left 7R 8K")),
    ("games", N_("the games you play, to switch between")),
    ("new", N_("a new game: /new meld=25 jokers=1")),
    ("rules", N_("this game's rules")),
    ("end", N_("end the game now and score it")),
    ("scores", N_("this game's score and the totals")),
    ("language", N_("the language I speak")),
    ("help", N_("how to write tiles, all commands")),
]

GROUP = [
    ("new", N_("start a game in this group")),
    ("join", N_("take a seat in the game")),
    ("status", N_("table, players, whose turn")),
    ("play", N_("record sets put down: /play 9R 10R 11R")),
    ("draw", N_("you drew a tile: your turn ends")),
    ("table", N_("set the table: /table 6R 7R 8R | 7K 7O 7R")),
    ("pass", N_("no play, the pool is empty: next player")),
    ("undo", N_("take back the last change")),
    ("fit", N_("fewest moves to get one tile on: /fit 3R")),
    ("rack", N_("open your private rack")),
    ("left", N_("the tiles left on your rack at the end: /left 7R 8K")),
    ("scores", N_("this game's score, the totals, games won")),
    ("end", N_("end the game now and score it")),
    ("rules", N_("this game's rules")),
    ("language", N_("the language I speak in this group")),
    ("help", N_("how it works")),
]

#: Every command the handlers answer (the menus may show fewer).
ALL = sorted({name for name, _description in PRIVATE + GROUP} | {"start", "solve", "draw", "meld", "pass"})


def menu(commands: Sequence[tuple[str, str]], code: str) -> list[BotCommand]:
    """A menu's commands, described in ``code``."""
    with speaking(code):
        return [BotCommand(name, _(description)) for name, description in commands]


async def register(application: Application) -> None:  # type: ignore[type-arg]
    """Both menus in every language; English is also the default, for the languages the bot does not speak."""
    bot = application.bot
    for code in LANGUAGES:
        language = None if code == ENGLISH else code
        private, group = BotCommandScopeAllPrivateChats(), BotCommandScopeAllGroupChats()
        await bot.set_my_commands(menu(PRIVATE, code), scope=private, language_code=language)
        await bot.set_my_commands(menu(GROUP, code), scope=group, language_code=language)
