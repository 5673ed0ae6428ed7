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
