"""The one font every picture uses, loaded from the package so no system font is ever needed."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont

FONT_FILE = "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    return resources.files("render").joinpath("fonts", FONT_FILE).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Bold at ``size`` pixels, cached because loading a face is slow."""
    # Basic layout (no raqm) so text looks the same whether or not libraqm is installed.
    return ImageFont.truetype(BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """How many pixels ``text`` takes at ``size`` (rounded up); cached: a layout measures its labels many times."""
    return int(-(-font(size).getlength(text) // 1))
