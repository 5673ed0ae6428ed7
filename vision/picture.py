"""Opening a photo as sent: JPEG (as Telegram sends it), PNG or WebP, at the size that is enough.

A 12-megapixel JPEG is decoded straight at a quarter of its size
(the decoder's draft mode skips the work), since tiles are read from 48-pixel
crops and a tile in a phone photo of a table is far larger than that. Bad
input becomes a ``PhotoError`` with a clear message, never a traceback.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Sequence

from PIL import Image, ImageOps, UnidentifiedImageError

from solver.text import N_
from vision.errors import PhotoError

#: more bytes than any phone photo needs (Telegram's own limit for a photo is 10 MB)
MAX_BYTES = 30 * 1024 * 1024
#: more pixels than a phone's camera gives (a 48 MP sensor gives 8064x6048)
MAX_PIXELS = 50_000_000
#: the longer side wanted after decoding: a tile of a full table is then still larger than the training photos' tiles
WORKING_SIDE = 1000
SMALLEST_SIDE = 32


def open_photo(data: bytes) -> Image.Image:
    """The photo as RGB, turned upright by its EXIF tag, its longer side at most twice ``WORKING_SIDE``."""
    if not data:
        raise PhotoError(N_("the file is empty"))
    if len(data) > MAX_BYTES:
        raise PhotoError(
            N_("the file is too large ({size} MB); send a photo of at most 30 MB"), size=f"{len(data) / 1e6:.0f}"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            opened = Image.open(io.BytesIO(data))
            width, height = opened.size
            if width * height > MAX_PIXELS:
                raise PhotoError(
                    N_(
                        "the picture is too large ({width}x{height}, {megapixels} megapixels); "
                        "send one of at most 50 megapixels"
                    ),
                    width=width,
                    height=height,
                    megapixels=f"{width * height / 1e6:.0f}",
                )
            if min(width, height) < SMALLEST_SIDE:
                raise PhotoError(
                    N_("the picture is too small ({width}x{height}) to show a tile"), width=width, height=height
                )
            if opened.format == "JPEG":  # decode at 1/2, 1/4 or 1/8 when that still leaves WORKING_SIDE
                shrink = WORKING_SIDE / max(width, height)
                opened.draft("RGB", (math.ceil(width * shrink), math.ceil(height * shrink)))
            image = ImageOps.exif_transpose(opened)
            image = image.convert("RGB")
            image.load()
    except PhotoError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError(N_("this is not a picture I can read; send a photo (JPEG, PNG or WebP)")) from None
    except (OSError, ValueError, SyntaxError) as why:  # truncated or broken files
        raise PhotoError(N_("the picture is damaged and cannot be read ({why})"), why=why) from None
    if max(image.size) > 2 * WORKING_SIDE:
        image.thumbnail((WORKING_SIDE, WORKING_SIDE), Image.Resampling.BILINEAR)
    return image


#: a photo whose longer side is this long shows every tile of a full table at 48 px or more
ENOUGH_SIDE = 1280


def enough(sizes: Sequence[tuple[int, int]]) -> int:
    """Which of the sizes Telegram offers for one photo to download: the smallest that is enough, else the largest.

    ``sizes`` are (width, height) pairs; the answer is an index into them.
    """
    if not sizes:
        raise PhotoError(N_("the photo comes in no size"))
    fits = [i for i, (w, h) in enumerate(sizes) if max(w, h) >= ENOUGH_SIDE]
    if fits:
        return min(fits, key=lambda i: max(sizes[i]))
    return max(range(len(sizes)), key=lambda i: max(sizes[i]))
