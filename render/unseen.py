"""A picture of the tiles a player has not seen (issue 24's ``/unseen``): a row a colour, a column a number,
each unseen tile drawn once with its count beside it ("x2"), the jokers on a row of their own; a number with
none unseen is an empty slot. The words (the heading, where the tiles are) come from ``Wording``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.fonts import draw_args
from render.marks import Mark
from render.png import encode
from render.theme import FELT, RGB, TEXT, TEXT_DIM, TRAY, Metrics
from render.tile import tile_sprite
from render.wording import ENGLISH, Wording
from solver.rules import Rules
from solver.tiles import JOKER, Tile

#: the scale the tiles are drawn at (a picture about 1000 px wide for 13 numbers)
SCALE = 0.95


def render_unseen(
    tiles: Sequence[tuple[Tile, int]], rules: Rules, pool: int, on_racks: int, *, wording: Wording = ENGLISH
) -> bytes:
    """PNG of the unseen ``tiles`` (each kind and how many), with how many are in the pool and on the racks."""
    return encode(draw_unseen(tiles, rules, pool, on_racks, wording=wording))


def draw_unseen(
    tiles: Sequence[tuple[Tile, int]], rules: Rules, pool: int, on_racks: int, *, wording: Wording = ENGLISH
) -> Image.Image:
    m = Metrics.at(SCALE)
    copies = dict(tiles)
    total = sum(copies.values())
    rows: list[list[Tile]] = [[Tile(n, c) for n in range(1, rules.numbers + 1)] for c in rules.colour_order]
    jokers = copies.get(JOKER, 0)
    if jokers or rules.jokers:
        rows.append([JOKER])
    count_w = round(m.tile_w * 0.7)
    pitch = m.tile_w + count_w
    width = 2 * m.margin + rules.numbers * pitch
    head = m.header_font
    line = m.caption_font
    top = m.margin + head + m.row_gap + line + m.section_gap
    row_h = m.tile_h + m.row_gap
    height = top + len(rows) * row_h + m.margin
    img = Image.new("RGB", (width, height), FELT)
    pen = ImageDraw.Draw(img)
    title = wording.unseen.format(tiles=wording.count(wording.tiles, total))
    where = wording.unseen_where.format(pool=pool, racks=on_racks)
    _text(pen, (width / 2, m.margin + head / 2), title, head, TEXT)
    _text(pen, (width / 2, m.margin + head + m.row_gap + line / 2), where, line, TEXT_DIM)
    for r, row in enumerate(rows):
        y = top + r * row_h
        for k, t in enumerate(row):
            x = m.margin + k * pitch
            n = copies.get(t, 0)
            if n <= 0:
                pen.rounded_rectangle(
                    (x, y, x + m.tile_w - 1, y + m.tile_h - 1), radius=m.tile_radius, outline=TRAY, width=m.ring
                )
                continue
            sprite = tile_sprite(t, Mark.PLAIN, m)
            img.paste(sprite, (x, y), sprite)
            if n > 1:
                _text(pen, (x + m.tile_w + count_w / 2, y + m.tile_h / 2), f"\u00d7{n}", m.label_font, TEXT)
    return img


def _text(pen: ImageDraw.ImageDraw, at: tuple[float, float], text: str, size: int, colour: RGB) -> None:
    shown, face, direction = draw_args(text, size)
    pen.text(at, shown, fill=colour, font=face, anchor="mm", direction=direction)
