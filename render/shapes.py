"""Anti-aliased rounded shapes as masks, cached: Pillow's own rounded rectangles have jagged corners."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

#: Corners and discs are drawn this many times larger, then shrunk, for smooth edges.
SUPERSAMPLE = 4


@lru_cache(maxsize=64)
def _corner(radius: int) -> Image.Image:
    """The top-left quarter of a disc, as an 'L' mask ``radius`` pixels square."""
    big = radius * SUPERSAMPLE
    img = Image.new("L", (big, big), 0)
    ImageDraw.Draw(img).ellipse((0, 0, 2 * big - 1, 2 * big - 1), fill=255)
    return img.resize((radius, radius), Image.Resampling.BOX)


@lru_cache(maxsize=512)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An 'L' mask of a ``width`` x ``height`` rectangle with smooth corners of ``radius``."""
    mask = Image.new("L", (width, height), 255)
    radius = max(0, min(radius, width // 2, height // 2))
    if radius == 0:
        return mask
    corner = _corner(radius)
    mask.paste(corner, (0, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (width - radius, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (0, height - radius))
    mask.paste(corner.transpose(Image.Transpose.ROTATE_180), (width - radius, height - radius))
    return mask


@lru_cache(maxsize=64)
def disc_mask(diameter: int) -> Image.Image:
    """An 'L' mask of a smooth disc ``diameter`` pixels across."""
    big = diameter * SUPERSAMPLE
    img = Image.new("L", (big, big), 0)
    ImageDraw.Draw(img).ellipse((0, 0, big - 1, big - 1), fill=255)
    return img.resize((diameter, diameter), Image.Resampling.BOX)


def fill_rounded(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], radius: int) -> None:
    """Fill a smooth rounded rectangle: plain fills for the body, masks only at the corners (much faster)."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    r = max(0, min(radius, w // 2, h // 2))
    if w <= 0 or h <= 0:
        return
    if r == 0:
        img.paste(colour, box)
        return
    img.paste(colour, (left + r, top, right - r, bottom))
    img.paste(colour, (left, top + r, left + r, bottom - r))
    img.paste(colour, (right - r, top + r, right, bottom - r))
    corner = _corner(r)
    img.paste(colour, (left, top, left + r, top + r), corner)
    img.paste(colour, (right - r, top, right, top + r), _flipped(r, Image.Transpose.FLIP_LEFT_RIGHT))
    img.paste(colour, (left, bottom - r, left + r, bottom), _flipped(r, Image.Transpose.FLIP_TOP_BOTTOM))
    img.paste(colour, (right - r, bottom - r, right, bottom), _flipped(r, Image.Transpose.ROTATE_180))


@lru_cache(maxsize=256)
def _flipped(radius: int, how: Image.Transpose) -> Image.Image:
    return _corner(radius).transpose(how)
