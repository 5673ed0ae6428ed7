"""Painting a layout straight into the shared palette: the fast path behind every picture the bot sends.

``render.draw`` composites in RGB, and the whole picture is then mapped to the
palette (``render.png``). Here each piece (a tile on its ground, a set's tray
with its label tab, the rack tray, a line of text on its ground) is drawn once
in RGB exactly as ``render.draw`` draws it, mapped to the palette, and cached;
a picture is then only copies of 8-bit pieces, with no blending and no
mapping of a million pixels. It comes out pixel for pixel the same as mapping
``render.draw``'s picture (the tests compare them): 0.5 ms of painting instead
of 1.7 ms of drawing and 1.6 ms of mapping for the largest table.

That holds because the pieces of a layout never overlap and each lies on one
flat colour: trays and tabs on the felt (a set's tab stands on its tray's left
end), tiles on their tray, the rack's wood or the felt, set labels on their
tab, other text on the felt.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.draw import text_colour, text_origin
from render.fonts import draw_args
from render.layout import Layout, TextPlace, TextRole
from render.marks import Mark
from render.png import palette
from render.shapes import fill_rounded
from render.theme import FELT, RACK_WOOD, RACK_WOOD_EDGE, RGB, TRAY, Metrics
from render.tile import grounded_sprite
from solver.rules import Rules
from solver.tiles import Tile


def draw_indexed(layout: Layout) -> Image.Image:
    """The picture as a 'P' image in the shared palette, exactly ``layout.width`` x ``layout.height``."""
    img = Image.new("P", (layout.width, layout.height), _index(FELT))
    img.putpalette(_entries())
    m = layout.metrics
    r = m.tray_radius
    if layout.empty_table is not None:
        b = layout.empty_table
        img.paste(_tray(b.w, b.h, r, TRAY, None, 0), (b.x, b.y))
    for s in layout.sets:
        for tab, tray in zip(s.tabs, s.trays, strict=True):
            t = tab.box
            img.paste(_set_ground(t.w, t.h, tray.y - t.y, tray.w, tray.h, r), (t.x, t.y))
    if layout.rack_tray is not None:
        b, edge = layout.rack_tray, max(1, m.ring // 2)
        img.paste(_tray(b.w, b.h, r, RACK_WOOD, RACK_WOOD_EDGE, edge), (b.x - edge, b.y - edge))
    for places, ground in ((layout.tiles, TRAY), (layout.rack, RACK_WOOD), (layout.legend, FELT)):
        for place in places:
            img.paste(_tile(place.tile, place.mark, place.metrics, ground), (place.box.x, place.box.y))
    for text in layout.texts:
        _text(img, text, TRAY if text.role is TextRole.EMPTY else FELT)
    for s in layout.sets:
        for tab in s.tabs:
            _text(img, tab, TRAY)
    return img


def warm_pieces(rules: Rules, m: Metrics) -> None:
    """Cut every tile's pieces at ``m`` now: each mark on a tray, plain on the rack (about 0.1 s).

    Otherwise a solver process's first pictures pay for them, some 0.5 ms a tile.
    """
    for t in {*rules.tiles(), Tile()}:
        for mark in Mark:
            _tile(t, mark, m, TRAY)
        _tile(t, Mark.PLAIN, m, RACK_WOOD)


def clear_caches() -> None:
    """Forget every piece (they are mapped to the palette, so a new palette needs new pieces)."""
    for cached in (_entries, _indices, _tile, _set_ground, _tray, _text_piece):
        cached.cache_clear()


def _indexed(img: Image.Image) -> Image.Image:
    return img.quantize(palette=palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _entries() -> list[int]:
    return palette().getpalette() or []


@lru_cache(maxsize=1)
def _indices() -> dict[RGB, int]:
    entries = _entries()
    found: dict[RGB, int] = {}
    for i in range(len(entries) // 3):
        found.setdefault((entries[3 * i], entries[3 * i + 1], entries[3 * i + 2]), i)
    return found


def _index(colour: RGB) -> int:
    """A theme colour's palette entry (the palette keeps every theme colour exactly)."""
    return _indices()[colour]


@lru_cache(maxsize=4096)
def _tile(t: Tile, mark: Mark, m: Metrics, ground: RGB) -> Image.Image:
    return _indexed(grounded_sprite(t, mark, m, ground))


@lru_cache(maxsize=1024)
def _set_ground(tab_w: int, tab_h: int, tray_dy: int, tray_w: int, tray_h: int, radius: int) -> Image.Image:
    """A set's label tab and tray on the felt, as ``render.draw`` paints them (the tab reaches into the tray)."""
    img = Image.new("RGB", (max(tab_w, tray_w), tray_dy + tray_h), FELT)
    fill_rounded(img, (0, 0, tab_w, tab_h + 2 * radius), TRAY, radius)
    fill_rounded(img, (0, tray_dy, tray_w, tray_dy + tray_h), TRAY, radius)
    return _indexed(img)


@lru_cache(maxsize=256)
def _tray(w: int, h: int, radius: int, colour: RGB, edge_colour: RGB | None, edge: int) -> Image.Image:
    """A rounded tray on the felt, ``edge`` pixels of ``edge_colour`` around it (the rack's wooden rim)."""
    img = Image.new("RGB", (w + 2 * edge, h + 2 * edge), FELT)
    if edge_colour is not None:
        fill_rounded(img, (0, 0, w + 2 * edge, h + 2 * edge), edge_colour, radius)
    fill_rounded(img, (edge, edge, edge + w, edge + h), colour, radius)
    return _indexed(img)


def _text(img: Image.Image, text: TextPlace, ground: RGB) -> None:
    x, y, anchor = text_origin(text)
    ix, iy = int(x), int(y)
    piece, dx, dy = _text_piece(text.text, text.size, text_colour(text), ground, anchor, x - ix, y - iy)
    if piece is not None:
        img.paste(piece, (ix + dx, iy + dy))


@lru_cache(maxsize=4096)
def _text_piece(
    text: str, size: int, colour: RGB, ground: RGB, anchor: str, fx: float, fy: float
) -> tuple[Image.Image | None, int, int]:
    """The inked part of a line of text drawn on ``ground`` (same fractional origin, so the same pixels).

    Only the pixels the text changes are kept, with where they sit relative to
    the text's origin; None when it inks nothing.
    """
    shown, f, direction = draw_args(text, size)
    # room for the text on every side of its origin, whose integer part stays positive as on the picture
    mx, my = int(f.getlength(shown, direction=direction)) + size + 2, 2 * size + 2
    img = Image.new("RGB", (2 * mx, 2 * my), ground)
    ImageDraw.Draw(img).text((mx + fx, my + fy), shown, fill=colour, font=f, anchor=anchor, direction=direction)
    inked = ImageChops.difference(img, Image.new("RGB", img.size, ground)).getbbox()
    if inked is None:
        return None, 0, 0
    return _indexed(img.crop(inked)), inked[0] - mx, inked[1] - my
