"""One tile as a small picture: face, number or joker, colour cue, highlight ring and badge.

A table repeats the same few dozen tiles, so each (tile, mark, size) is drawn
once and cached; a picture is then mostly pasting sprites, which keeps it fast.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font, text_width
from render.marks import Mark
from render.shapes import SUPERSAMPLE, disc_mask, rounded_mask
from render.theme import (
    INK,
    JOKER_ACCENT,
    JOKER_INK,
    MOVED_BADGE_TEXT,
    MOVED_FACE,
    MOVED_RING,
    RACK_BADGE_TEXT,
    RACK_FACE,
    RACK_RING,
    RGB,
    SHADOW,
    TILE_EDGE,
    TILE_FACE,
    Metrics,
)
from solver.tiles import Tile

#: Ring colour, face colour, badge glyph and badge text colour for each mark.
_STYLE: dict[Mark, tuple[RGB, RGB, str, RGB]] = {
    Mark.PLAIN: (TILE_EDGE, TILE_FACE, "", TILE_EDGE),
    Mark.RACK: (RACK_RING, RACK_FACE, "+", RACK_BADGE_TEXT),
    Mark.MOVED: (MOVED_RING, MOVED_FACE, "\u2194", MOVED_BADGE_TEXT),
}

#: Where the number's and the cue letter's centres sit, as a fraction of the tile height.
NUMBER_Y = 0.49
CUE_Y = 0.81


def ring_width(mark: Mark, m: Metrics) -> int:
    """A plain tile has a thin edge; a highlighted one a thick coloured ring (inside its box)."""
    return m.ring if mark is not Mark.PLAIN else max(1, m.ring // 3)


@lru_cache(maxsize=1024)
def tile_sprite(t: Tile, mark: Mark, m: Metrics) -> Image.Image:
    """The tile as an RGBA image exactly ``m.tile_w`` x ``m.tile_h``, transparent outside its corners."""
    w, h = m.tile_w, m.tile_h
    ring_colour, face_colour, badge, badge_ink = _STYLE[mark]
    ring = ring_width(mark, m)
    img = Image.new("RGBA", (w, h), (*face_colour, 0))
    img.paste(ring_colour, (0, 0, w, h), rounded_mask(w, h, m.tile_radius))
    inner = rounded_mask(w - 2 * ring, h - 2 * ring, max(1, m.tile_radius - ring))
    img.paste(face_colour, (ring, ring, w - ring, h - ring), inner)
    draw = ImageDraw.Draw(img)
    if t.colour is None:
        _joker(img, m)
        _cue(draw, "J", JOKER_ACCENT, m)
    else:
        ink = INK[t.colour]
        text = str(t.number)
        size = m.number_font
        while size > 6 and text_width(text, size) > w - 2 * ring - max(2, w // 7):
            size -= 1
        draw.text((w / 2, h * NUMBER_Y), text, fill=ink, font=font(size), anchor="mm")
        _cue(draw, t.colour.letter, ink, m)
    if badge:
        _badge(img, badge, ring_colour, badge_ink, m)
    return img


def shadow_drop(m: Metrics) -> int:
    """How far below a tile its shadow shows."""
    return max(1, round(3 * m.scale))


@lru_cache(maxsize=2048)
def grounded_sprite(t: Tile, mark: Mark, m: Metrics, ground: RGB) -> Image.Image:
    """The tile with its shadow, already laid on a flat ``ground`` colour: an opaque RGB image.

    Tiles always sit on a flat tray or felt, so compositing once here lets the
    picture be built by plain copies instead of one alpha blend per tile and shadow.
    """
    w, h = m.tile_w, m.tile_h
    drop = shadow_drop(m)
    img = Image.new("RGB", (w, h + drop), ground)
    img.paste(SHADOW, (0, drop, w, h + drop), rounded_mask(w, h, m.tile_radius))
    sprite = tile_sprite(t, mark, m)
    img.paste(sprite, (0, 0), sprite)
    return img


def _cue(draw: ImageDraw.ImageDraw, letter: str, ink: RGB, m: Metrics) -> None:
    """The colour-blind cue: the colour's letter (as typed in the notation) under the number."""
    draw.text((m.tile_w / 2, m.tile_h * CUE_Y), letter, fill=ink, font=font(m.cue_font), anchor="mm")


def _badge(img: Image.Image, glyph: str, fill: RGB, ink: RGB, m: Metrics) -> None:
    """A small disc in the top-right corner with a glyph, so the mark reads without its colour."""
    d = m.badge
    ring = m.ring
    x, y = m.tile_w - ring - d, ring
    img.paste(fill, (x, y, x + d, y + d), disc_mask(d))
    ImageDraw.Draw(img).text((x + d / 2, y + d / 2), glyph, fill=ink, font=font(max(6, d * 4 // 5)), anchor="mm")


def _joker(img: Image.Image, m: Metrics) -> None:
    """A smiling face (red rim, black eyes and smile), drawn large and shrunk so its curves are smooth."""
    s = SUPERSAMPLE
    d = int(min(m.tile_w * 0.78, m.tile_h * 0.52))
    big = d * s
    line = max(s, round(big * 0.08))
    rim = Image.new("L", (big, big), 0)
    ImageDraw.Draw(rim).ellipse((0, 0, big - 1, big - 1), outline=255, width=line)
    features = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(features)
    eye = big * 0.13
    for ex in (0.35, 0.65):
        cx, cy = big * ex, big * 0.4
        draw.ellipse((cx - eye / 2, cy - eye / 2, cx + eye / 2, cy + eye / 2), fill=255)
    draw.arc((big * 0.25, big * 0.22, big * 0.75, big * 0.74), 25, 155, fill=255, width=line)
    x = (m.tile_w - d) // 2
    y = round(m.tile_h * NUMBER_Y - d / 2)
    img.paste(JOKER_ACCENT, (x, y, x + d, y + d), rim.resize((d, d), Image.Resampling.BOX))
    img.paste(JOKER_INK, (x, y, x + d, y + d), features.resize((d, d), Image.Resampling.BOX))
