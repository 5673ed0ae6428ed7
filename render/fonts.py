"""The one font every picture uses, loaded from the package so no system font is ever needed.

Text is laid out with Pillow's basic layout, so a picture looks the same whether or not libraqm is
installed. A text with right-to-left letters (Hebrew, Arabic) is the exception: it needs the bidirectional
algorithm, so it is shaped by raqm as a right-to-left line (its numbers and Latin words keep their own
order); without raqm it is put in display order here, roughly. ``text_width`` measures exactly what
``draw_args`` draws, so a label's box holds its text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont, features

FONT_FILE = "DejaVuSans-Bold.ttf"

#: Letters written right to left: Hebrew, Arabic, Syriac, Thaana, NKo, and their presentation forms.
_RTL = re.compile("[\u0590-\u07ff\u0800-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
#: What keeps its own left-to-right order inside a right-to-left line (without raqm): Latin words, numbers.
_LTR_RUN = re.compile(r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff](?:[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff.,:/+\- ]*"
                      r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff])?")  # fmt: skip
_MIRRORED = str.maketrans("()[]{}<>", ")(][}{><")


def right_to_left(text: str) -> bool:
    """Whether ``text`` has a letter written right to left (so the whole line reads right to left)."""
    return _RTL.search(text) is not None


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    return resources.files("render").joinpath("fonts", FONT_FILE).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Bold at ``size`` pixels, cached because loading a face is slow."""
    # Basic layout (no raqm) so text looks the same whether or not libraqm is installed.
    return ImageFont.truetype(BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def shapes_bidi() -> bool:
    """Whether Pillow has raqm, and the FriBiDi it loads, to lay out right-to-left text."""
    return bool(features.check("raqm") and features.check("fribidi"))


@lru_cache(maxsize=64)
def _shaping_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.RAQM)


def draw_args(text: str, size: int) -> tuple[str, ImageFont.FreeTypeFont, str | None]:
    """What to hand Pillow to draw ``text`` at ``size``: the text, the font and the direction.

    Left-to-right text goes as it is, in the basic layout. A right-to-left line is shaped by raqm as one
    right-to-left paragraph, or, without raqm, reordered for display by ``visual_order``.
    """
    if not right_to_left(text):
        return text, font(size), None
    if shapes_bidi():
        return text, _shaping_font(size), "rtl"
    return visual_order(text), font(size), None


def visual_order(text: str) -> str:
    """A right-to-left line in the order its characters are shown from left to right, for a font without the
    bidirectional algorithm: reversed, with each run of Latin or Cyrillic words and numbers kept as it reads,
    and brackets mirrored. Rough (no nesting, no shaping), but right for a label like "5, מפוצל מ-1"."""
    reversed_text = text[::-1].translate(_MIRRORED)
    return _LTR_RUN.sub(lambda run: run.group(0)[::-1].translate(_MIRRORED), reversed_text)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    """How many pixels ``text`` takes at ``size`` (rounded up); cached: a layout measures its labels many times."""
    shown, face, direction = draw_args(text, size)
    return int(-(-face.getlength(shown, direction=direction) // 1))
