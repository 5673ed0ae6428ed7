"""Reading a found tile: its number (1-13, joker, or "no tile") and its ink colour, as probabilities.

Each tile is cut out as a square a little larger than its box and scaled to
48x48; the reader network gives two answers, the number and the colour, whose
product is the likelihood of each of the 53 tiles. Keeping the two apart lets
every red tile teach the colour red, whatever its number.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image

from solver.tiles import JOKER, PALETTE, Tile
from vision import models

CROP = 48
#: the square cut around a box, as a share of the box's longer side
MARGIN = 1.15
#: the number head's answers: 1..13, then the joker, then "not a tile"
NUMBERS = 13
JOKER_INDEX = 13
NOTHING_INDEX = 14
MEAN = 0.5


def number_index(t: Tile) -> int:
    return JOKER_INDEX if t.is_joker else t.number - 1


def colour_index(t: Tile) -> int:
    """The colour head's answer; a joker's face colour is not labelled, so it has none (-1)."""
    return -1 if t.colour is None else PALETTE.index(t.colour)


def square(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The square cut around a tile's box."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * MARGIN
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def crop(image: Image.Image, box: tuple[float, float, float, float]) -> np.ndarray:
    """The reader's input for one tile (3x48x48, float32); Pillow's box resize filters a large tile properly."""
    return as_input(cut(image, square(box)))


def cut(image: Image.Image, box: tuple[float, float, float, float]) -> Image.Image:
    """The 48x48 patch of ``box``, black where the box leaves the photo."""
    x0, y0, x1, y1 = box
    ix0, iy0 = math.floor(x0), math.floor(y0)
    ix1, iy1 = max(ix0 + 1, math.ceil(x1)), max(iy0 + 1, math.ceil(y1))
    region = image.crop((ix0, iy0, ix1, iy1))
    inner = (x0 - ix0, y0 - iy0, min(x1 - ix0, region.width), min(y1 - iy0, region.height))
    return region.resize((CROP, CROP), Image.Resampling.BILINEAR, box=inner)


def as_input(patch: Image.Image) -> np.ndarray:
    return (np.asarray(patch, dtype=np.float32) / 255.0 - MEAN).transpose(2, 0, 1)


def both_ways(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number and colour probabilities from each crop read as it lies and turned 180 degrees, combined.

    The reader learnt tiles both ways up (a tile facing another player); a
    6 and a 9 differ by where the logo lies, and two looks at it disagree
    less often than one.
    """
    n = len(crops)
    numbers, colours = models.read_tiles(np.concatenate([crops, crops[:, :, ::-1, ::-1]]))
    return _agree(numbers[:n], numbers[n:]), _agree(colours[:n], colours[n:])


def _agree(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The normalised product of two readings' probabilities (their logits averaged)."""
    return softmax((a + b) / 2)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def tile_likelihoods(numbers: np.ndarray, colours: np.ndarray) -> tuple[list[Tile], np.ndarray]:
    """The 53 tiles (52 numbered, then the joker) and, per crop, each one's probability, plus "no tile" last.

    ``numbers`` is nx15 and ``colours`` nx4 (probabilities); the result is nx54.
    """
    tiles = [Tile(n, c) for c in PALETTE for n in range(1, NUMBERS + 1)] + [JOKER]
    numbered = (colours[:, :, None] * numbers[:, None, :NUMBERS]).reshape(len(numbers), -1)
    table = np.concatenate([numbered, numbers[:, JOKER_INDEX : JOKER_INDEX + 1], numbers[:, NOTHING_INDEX:]], axis=1)
    return tiles, table
