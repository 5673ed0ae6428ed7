"""The tile keyboard's words and buttons: what ``/rack`` and ``/draw`` alone show, one tap at a time."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram import callbacks
from solver.notation import format_tiles
from solver.rules import Rules
from solver.tiles import Colour, Tile

#: Telegram's limits: at most 100 buttons, at most 8 in a row
MOST_BUTTONS = 100
ROW = 7

RACK = "rack"
DRAW = "draw"

#: What each colour's buttons show (the circles the notation also reads)
COLOUR_MARK = {Colour.RED: "🔴", Colour.BLUE: "🔵", Colour.BLACK: "⚫", Colour.ORANGE: "🟠"}

JOKER = "🃏 Joker"
DELETE = "⌫"
DONE = "✅ Done"

_PROMPT = {
    RACK: "Tap the tiles of your rack, then Done.",
    DRAW: "Tap the tiles you drew, then Done.",
}
_SO_FAR = {RACK: "New rack", DRAW: "Drawn"}
NOTHING_YET = "(none yet)"
TOO_MANY_KEYS = "This game has too many different tiles for buttons; type them instead, like /{mode} {example}"
EMPTY_DONE = {RACK: "Tap your tiles first (or type /rack {example})", DRAW: "Tap the tiles you drew first"}
GONE = "This keyboard was already used; send /{mode} again for a new one"
NOT_YOURS = "This keyboard is not yours"
NO_MORE = "There are only {copies} of {tile} in this game, all counted already (on the table or in your tiles)"
FULL = "That is more tiles than a rack can hold"


def fits(rules: Rules) -> bool:
    """Whether every tile of the game has a button, within Telegram's 100."""
    return rules.numbers * len(rules.colour_order) + (1 if rules.jokers else 0) + 2 <= MOST_BUTTONS


def text(mode: str, tiles: Sequence[Tile], rules: Rules, before: str = "") -> str:
    """The keyboard's message: what it is for, and the tiles tapped so far (kept in step with the database)."""
    so_far = format_tiles(tiles, rules) if tiles else NOTHING_YET
    head = f"{before}\n" if before else ""
    return f"{head}{_PROMPT[mode]}\n{_SO_FAR[mode]} ({len(tiles)}): {so_far}"


def markup(token: str, rules: Rules) -> InlineKeyboardMarkup:
    """A row or two of numbers per colour, then the joker, ⌫ and Done."""
    rows: list[list[InlineKeyboardButton]] = []
    for colour in rules.colour_order:
        keys = [
            InlineKeyboardButton(f"{COLOUR_MARK[colour]}{n}", callback_data=callbacks.key(token, f"{n}{colour.letter}"))
            for n in range(1, rules.numbers + 1)
        ]
        rows.extend(keys[i : i + ROW] for i in range(0, len(keys), ROW))
    last = [InlineKeyboardButton(JOKER, callback_data=callbacks.key(token, "J"))] if rules.jokers else []
    last += [
        InlineKeyboardButton(DELETE, callback_data=callbacks.key(token, callbacks.DELETE)),
        InlineKeyboardButton(DONE, callback_data=callbacks.key(token, callbacks.DONE)),
    ]
    rows.append(last)
    assert sum(len(r) for r in rows) <= MOST_BUTTONS
    return InlineKeyboardMarkup(rows)
