"""The tile keyboard's words and buttons: what ``/rack`` and ``/draw`` alone show, one tap at a time."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram import callbacks
from bot.telegram.words.language import _
from solver.notation import format_tiles
from solver.rules import Rules
from solver.text import N_
from solver.tiles import Colour, Tile

#: Telegram's limits: at most 100 buttons, at most 8 in a row
MOST_BUTTONS = 100
ROW = 7

RACK = "rack"
DRAW = "draw"
#: the tiles left on the rack at the end of a game (``/left``)
LEFT = "left"
MODES = (RACK, DRAW, LEFT)

#: What each colour's buttons show (the circles the notation also reads)
COLOUR_MARK = {Colour.RED: "🔴", Colour.BLUE: "🔵", Colour.BLACK: "⚫", Colour.ORANGE: "🟠"}

JOKER = N_("🃏 Joker")
DELETE = "⌫"
DONE = N_("✅ Done")

_PROMPT = {
    RACK: N_("Tap the tiles of your rack, then Done."),
    DRAW: N_("Tap the tiles you drew, then Done."),
    LEFT: N_("Tap the tiles left on your rack, then Done."),
}
_SO_FAR = {RACK: N_("New rack ({n}): {tiles}"), DRAW: N_("Drawn ({n}): {tiles}"), LEFT: N_("Left ({n}): {tiles}")}
NOTHING_YET = N_("(none yet)")
TOO_MANY_KEYS = N_("This game has too many different tiles for buttons; type them instead, like /{mode} {example}")
EMPTY_DONE = {
    RACK: N_("Tap your tiles first (or type /rack {example})"),
    DRAW: N_("Tap the tiles you drew first"),
    LEFT: N_("Tap the tiles left on your rack first (an empty rack: /left none)"),
}
GONE = N_("This keyboard was already used; send /{mode} again for a new one")
NOT_YOURS = N_("This keyboard is not yours")
NO_MORE = N_("There are only {copies} of {tile} in this game, all counted already (on the table or in your tiles)")
FULL = N_("That is more tiles than a rack can hold")


def fits(rules: Rules) -> bool:
    """Whether every tile of the game has a button, within Telegram's 100."""
    return rules.numbers * len(rules.colour_order) + (1 if rules.jokers else 0) + 2 <= MOST_BUTTONS


def text(mode: str, tiles: Sequence[Tile], rules: Rules, before: str = "") -> str:
    """The keyboard's message: what it is for, and the tiles tapped so far (kept in step with the database)."""
    so_far = format_tiles(tiles, rules) if tiles else _(NOTHING_YET)
    head = f"{before}\n" if before else ""
    return head + _(_PROMPT[mode]) + "\n" + _(_SO_FAR[mode]).format(n=len(tiles), tiles=so_far)


def markup(token: str, rules: Rules) -> InlineKeyboardMarkup:
    """A row or two of numbers per colour, then the joker, ⌫ and Done."""
    rows: list[list[InlineKeyboardButton]] = []
    for colour in rules.colour_order:
        keys = [
            InlineKeyboardButton(f"{COLOUR_MARK[colour]}{n}", callback_data=callbacks.key(token, f"{n}{colour.letter}"))
            for n in range(1, rules.numbers + 1)
        ]
        rows.extend(keys[i : i + ROW] for i in range(0, len(keys), ROW))
    last = [InlineKeyboardButton(_(JOKER), callback_data=callbacks.key(token, "J"))] if rules.jokers else []
    last += [
        InlineKeyboardButton(DELETE, callback_data=callbacks.key(token, callbacks.DELETE)),
        InlineKeyboardButton(_(DONE), callback_data=callbacks.key(token, callbacks.DONE)),
    ]
    rows.append(last)
    assert sum(len(r) for r in rows) <= MOST_BUTTONS
    return InlineKeyboardMarkup(rows)
