"""How a photo's reading reads in the chat: the tiles (in a ``<code>`` span, so a tap copies them), what is in
doubt, and the buttons that say what the tiles are.

Replies here are Telegram HTML: everything that is not our markup is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.telegram.words.language import _, n_, spoken
from solver.notation import format_table, format_tiles
from solver.rules import Rules
from solver.sets import TileSet
from solver.text import N_, Text
from solver.tiles import Tile

RACK = N_("That's my rack")
TABLE = N_("That's the table")
DRAWN = N_("Tiles I drew")
FIX = N_("Correct the table to it")
NEITHER = N_("Neither")

NO_TILES = N_(
    "I see no tiles in this photo. Send a photo of your rack or of the table, taken from above in good light, "
    "or type the tiles, like 3R 4R 5R J."
)
NO_TILES_GROUP = N_(
    "I see no tiles in this photo. Send a photo of the table, taken from above in good light, with /table as its "
    "caption."
)
NOT_A_PICTURE = N_("That file is not a picture. Send a photo of your rack or of the table (JPEG, PNG or WebP).")
UNREADABLE = N_("I cannot read that photo: {why}")
TOO_LARGE = N_("That file is too large for me to fetch ({size} MB; at most {limit} MB). Send it as a photo instead.")
FETCH_FAILED = N_("I could not fetch that photo from Telegram; send it again.")


def reading_text(
    tiles: Sequence[Tile],
    sets: Sequence[TileSet] | None,
    loose: Sequence[Tile],
    uncertain: Sequence[Tile],
    corrections: Sequence[str | Text],
    rules: Rules,
    *,
    copy_as: str,
    ask: str,
) -> str:
    """The reading as HTML: a rack's tiles (colour by colour), or a table's sets as they lie, ready to copy.

    ``copy_as``: what the copied text starts with (``table:`` or ``/table`` so sending it back sets the
    table; nothing for a rack's tiles, which are then asked about); ``ask``: the last line, what to do now.
    """
    n = len(tiles)
    count = n_("{n} tile", "{n} tiles", n).format(n=n)
    if sets:
        written = _code(copy_as, format_table(sets))
        head = n_("I read {tiles}, in {n} set: {sets}", "I read {tiles}, in {n} sets: {sets}", len(sets))
        head = head.format(tiles=count, n=len(sets), sets=written)
    else:
        head = _("I read {tiles}: {list}").format(tiles=count, list=_code(copy_as, format_tiles(tiles, rules)))
    lines = [head]
    if sets and loose:
        apart = f"<code>{escape(format_tiles(loose, rules))}</code>"
        lines.append(_("Lying apart, in no set: {tiles}").format(tiles=apart))
    for note in corrections:
        lines.append(_("Corrected: {note}").format(note=escape(spoken(note))))
    if uncertain:
        doubts = ", ".join(str(t) for t in sorted(uncertain, key=rules.tile_key))
        check = n_("Not sure of {tiles}: check it.", "Not sure of {tiles}: check them.", len(uncertain))
        lines.append(check.format(tiles=escape(doubts)))
    lines.append(ask)
    return "\n".join(lines)


def _code(prefix: str, text: str) -> str:
    return f"<code>{escape(f'{prefix} {text}' if prefix else text)}</code>"


PRIVATE_ASK = N_("What are they? (Or tap the tiles to copy them, fix them and send them back.)")
GROUP_ASK = N_("Is this the table? A player taps to set it (or copies it, fixes it and sends it).")
