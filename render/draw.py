"""Painting a layout: the only module that turns boxes into pixels."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import draw_args
from render.geometry import Box
from render.layout import Layout, TextPlace, TextRole
from render.marks import Mark
from render.shapes import fill_rounded
from render.theme import (
    FELT,
    MOVED_RING,
    RACK_RING,
    RACK_WOOD,
    RACK_WOOD_EDGE,
    RGB,
    TEXT,
    TEXT_DIM,
    TRAY,
)
from render.tile import grounded_sprite

_TEXT_COLOUR: dict[TextRole, RGB] = {
    TextRole.HEADER: TEXT,
    TextRole.LEGEND: TEXT,
    TextRole.CAPTION: TEXT_DIM,
    TextRole.EMPTY: TEXT_DIM,
    TextRole.LABEL: TEXT,
}
_EMPHASIS: dict[Mark, RGB] = {Mark.RACK: RACK_RING, Mark.MOVED: MOVED_RING}


def draw(layout: Layout) -> Image.Image:
    """The picture as an RGB image, exactly ``layout.width`` x ``layout.height``."""
    img = Image.new("RGB", (layout.width, layout.height), FELT)
    m = layout.metrics
    if layout.empty_table is not None:
        _fill(img, layout.empty_table, TRAY, m.tray_radius)
    for s in layout.sets:
        for tab in s.tabs:
            # The tab reaches down into its tray so the two read as one shape.
            b = tab.box
            _fill(img, Box(b.x, b.y, b.w, b.h + m.tray_radius * 2), TRAY, m.tray_radius)
        for tray in s.trays:
            _fill(img, tray, TRAY, m.tray_radius)
    if layout.rack_tray is not None:
        _fill(img, layout.rack_tray.grown(max(1, m.ring // 2)), RACK_WOOD_EDGE, m.tray_radius)
        _fill(img, layout.rack_tray, RACK_WOOD, m.tray_radius)
    for places, ground in ((layout.tiles, TRAY), (layout.rack, RACK_WOOD), (layout.legend, FELT)):
        for place in places:
            img.paste(grounded_sprite(place.tile, place.mark, place.metrics, ground), (place.box.x, place.box.y))
    pen = ImageDraw.Draw(img)
    for text in layout.texts:
        _text(pen, text)
    for s in layout.sets:
        for tab in s.tabs:
            _text(pen, tab)
    return img


def _fill(img: Image.Image, box: Box, colour: RGB, radius: int) -> None:
    fill_rounded(img, box.as_tuple(), colour, radius)


def _text(pen: ImageDraw.ImageDraw, text: TextPlace) -> None:
    x, y, anchor = text_origin(text)
    shown, face, direction = draw_args(text.text, text.size)
    pen.text((x, y), shown, fill=text_colour(text), font=face, anchor=anchor, direction=direction)


def text_colour(text: TextPlace) -> RGB:
    return _EMPHASIS.get(text.emphasis, _TEXT_COLOUR[text.role])


def text_origin(text: TextPlace) -> tuple[float, float, str]:
    """Where a text is drawn from and how it hangs there: set labels centred in their tab, the rest from the left."""
    b = text.box
    if text.role is TextRole.LABEL:
        return b.x + b.w / 2, b.y + b.h / 2 + 1, "mm"
    return b.x, b.y + b.h / 2, "lm"
