"""How a photo's reading reads in the chat: the tiles (in a ``<code>`` span, so a tap copies them), what is in
doubt, and the buttons that say what the tiles are.

Replies here are Telegram HTML: everything that is not our markup is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from solver.notation import format_table, format_tiles
from solver.rules import Rules
from solver.sets import TileSet
from solver.tiles import Tile

RACK = "That's my rack"
TABLE = "That's the table"
DRAWN = "Tiles I drew"

NO_TILES = (
    "I see no tiles in this photo. Send a photo of your rack or of the table, taken from above in good light, "
    "or type the tiles, like 3R 4R 5R J."
)
NO_TILES_GROUP = (
    "I see no tiles in this photo. Send a photo of the table, taken from above in good light, with /table as its "
    "caption."
)
NOT_A_PICTURE = "That file is not a picture. Send a photo of your rack or of the table (JPEG, PNG or WebP)."
UNREADABLE = "I cannot read that photo: {why}"
TOO_LARGE = "That file is too large for me to fetch ({size:.0f} MB; at most {limit} MB). Send it as a photo instead."
FETCH_FAILED = "I could not fetch that photo from Telegram; send it again."


def reading_text(
    tiles: Sequence[Tile],
    sets: Sequence[TileSet] | None,
    loose: Sequence[Tile],
    uncertain: Sequence[Tile],
    corrections: Sequence[str],
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
    count = f"{n} tile{'' if n == 1 else 's'}"
    if sets:
        written = format_table(sets)
        head = f"I read {count}, in {len(sets)} set{'' if len(sets) == 1 else 's'}: {_code(copy_as, written)}"
    else:
        head = f"I read {count}: {_code(copy_as, format_tiles(tiles, rules))}"
    lines = [head]
    if sets and loose:
        lines.append(f"Lying apart, in no set: <code>{escape(format_tiles(loose, rules))}</code>")
    for note in corrections:
        lines.append(f"Corrected: {escape(note)}")
    if uncertain:
        them = "it" if len(uncertain) == 1 else "them"
        doubts = ", ".join(str(t) for t in sorted(uncertain, key=rules.tile_key))
        lines.append(f"Not sure of {escape(doubts)}: check {them}.")
    lines.append(ask)
    return "\n".join(lines)


def _code(prefix: str, text: str) -> str:
    return f"<code>{escape(f'{prefix} {text}' if prefix else text)}</code>"


PRIVATE_ASK = "What are they? (Or tap the tiles to copy them, fix them and send them back.)"
GROUP_ASK = "Is this the table? A player taps to set it (or copies it, fixes it and sends it)."
