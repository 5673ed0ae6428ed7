"""Colours, sizes and Telegram's photo limits: every look-and-feel number in one place.

Sizes are given at scale 1 (a picture about 1200 px wide, tiles readable on a
phone); ``Metrics.at(scale)`` shrinks them for tables too big to fit Telegram's
limits at full size.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.tiles import Colour

RGB = tuple[int, int, int]

# Telegram's limits for a photo (sendPhoto): width + height, the long side over
# the short side, and the file size.
TELEGRAM_MAX_SUM = 10_000
TELEGRAM_MAX_RATIO = 20
TELEGRAM_MAX_BYTES = 10 * 1024 * 1024

#: The widest picture we make; Telegram shows about this many pixels across a phone.
MAX_WIDTH = 1200
#: The narrowest: room for the header and the legend even for a single set.
MIN_WIDTH = 720

FELT: RGB = (30, 94, 66)
TRAY: RGB = (22, 72, 50)
LABEL_TAB: RGB = (12, 46, 31)
RACK_WOOD: RGB = (121, 85, 61)
RACK_WOOD_EDGE: RGB = (92, 63, 44)
SHADOW: RGB = (10, 36, 24)
TEXT: RGB = (245, 245, 240)
TEXT_DIM: RGB = (190, 214, 200)

TILE_FACE: RGB = (255, 250, 236)
TILE_EDGE: RGB = (196, 186, 160)

#: Strong highlight for a tile played from the rack: bright yellow ring, tinted face, a "+" badge.
RACK_RING: RGB = (255, 196, 0)
RACK_FACE: RGB = (255, 245, 204)
RACK_BADGE_TEXT: RGB = (40, 30, 0)
#: Second highlight for a tile moved from another table set: light blue ring and an arrow badge.
MOVED_RING: RGB = (64, 196, 255)
MOVED_FACE: RGB = (226, 244, 255)
MOVED_BADGE_TEXT: RGB = (0, 40, 70)

#: Tile colours, dark enough on the cream face; the letter under the number is the colour-blind cue.
INK: dict[Colour, RGB] = {
    Colour.RED: (206, 32, 41),
    Colour.BLUE: (21, 88, 190),
    Colour.BLACK: (28, 28, 28),
    Colour.ORANGE: (222, 110, 0),
}
JOKER_INK: RGB = (28, 28, 28)
JOKER_ACCENT: RGB = (206, 32, 41)


@dataclass(frozen=True, slots=True)
class Metrics:
    """Pixel sizes of everything the layout places, at one scale."""

    scale: float
    margin: int
    tile_w: int
    tile_h: int
    tile_gap: int
    tile_radius: int
    ring: int
    tray_pad: int
    tray_radius: int
    set_gap: int
    row_gap: int
    label_h: int
    label_font: int
    number_font: int
    cue_font: int
    badge: int
    header_font: int
    caption_font: int
    section_gap: int
    legend_scale: float

    @staticmethod
    def at(scale: float) -> Metrics:
        def px(value: float, least: int = 1) -> int:
            return max(least, round(value * scale))

        return Metrics(
            scale=scale,
            margin=px(24, 8),
            tile_w=px(56, 12),
            tile_h=px(78, 16),
            tile_gap=px(4),
            tile_radius=px(9, 2),
            ring=px(4, 2),
            tray_pad=px(6, 2),
            tray_radius=px(10, 2),
            set_gap=px(18, 4),
            row_gap=px(10, 2),
            label_h=px(26, 8),
            label_font=px(19, 8),
            number_font=px(34, 8),
            cue_font=px(15, 6),
            badge=px(19, 6),
            header_font=px(32, 12),
            caption_font=px(22, 10),
            section_gap=px(18, 4),
            legend_scale=0.6 * scale,
        )

    @property
    def tile_pitch(self) -> int:
        return self.tile_w + self.tile_gap
