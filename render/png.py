"""PNG encoding through one fixed 256-colour palette: small files, fast, and the same bytes every time.

A picture uses a few dozen theme colours plus the anti-aliased blends between
them, so a palette taken once from sample pictures fits every picture well.
Encoding 8-bit indices is about ten times faster than 24-bit RGB (zlib sees a
third of the bytes, with long runs). Pillow writes the file: a writer of our
own around ISA-L's deflate took 1.4 ms instead of 4.4 ms on the largest table,
not worth a dependency and a file format of our own (BENCHMARKS.md, Issue 16).
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from render import theme
from render.draw import draw
from render.examples import full_deck_play, small_play
from render.layout import layout_solution, layout_table
from render.theme import RGB

#: zlib's level for the picture's rows. Telegram re-encodes a photo as JPEG, so the PNG's bytes only travel
#: from the bot to Telegram: the fastest level that still finds the long runs of one colour.
COMPRESS_LEVEL = 1


def theme_colours() -> list[RGB]:
    """Every flat colour of the theme, kept exactly in the palette (pixel tests and flat areas rely on it)."""
    colours = [v for v in vars(theme).values() if _is_rgb(v)]
    colours += list(theme.INK.values())
    return sorted(set(colours))


def _is_rgb(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 3 and all(isinstance(c, int) for c in value)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The shared palette: the theme colours, then the blends most used in the sample pictures."""
    samples = [
        draw(layout_solution(small_play())),
        draw(layout_solution(small_play(), scale=0.5)),
        draw(layout_solution(full_deck_play())),
        draw(layout_table([], full_deck_play().rules, rack=[], header="The table")),
    ]
    width = max(s.width for s in samples)
    sheet = Image.new("RGB", (width, sum(s.height for s in samples)), theme.FELT)
    y = 0
    for s in samples:
        sheet.paste(s, (0, y))
        y += s.height
    fixed = theme_colours()
    blends = sheet.quantize(256 - len(fixed), method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
    entries: list[int] = [c for colour in fixed for c in colour]
    used = blends.getpalette() or []
    entries += used[: 3 * (256 - len(fixed))]
    entries += [0] * (3 * 256 - len(entries))
    out = Image.new("P", (1, 1))
    out.putpalette(entries)
    return out


def encode(img: Image.Image) -> bytes:
    """PNG bytes of a picture; no timestamps or other metadata, so equal pictures give equal bytes.

    An RGB picture (``render.draw``) is mapped to the palette first; a 'P' one
    (``render.indexed.draw_indexed``) already is.
    """
    indexed = img if img.mode == "P" else img.quantize(palette=palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
