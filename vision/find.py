"""Finding tiles: where each tile lies in the photo, from the finder network's heat map of tile centres.

The photo is scaled to fit a 320-pixel square (a tile 30 px wide in a 640 px
photo is still 15 px there); each local peak of the heat map above the
threshold is a tile, with the size the network reads at that peak.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

SIDE = 320
STRIDE = 4
#: a peak at least this likely is a tile (the reader can still call it "no tile")
THRESHOLD = 0.3
#: ImageNet-free plain scaling: the networks see pixels / 255 - 0.5
MEAN = 0.5


@dataclass(frozen=True, slots=True)
class Found:
    """A tile's place in the photo's pixels (box corners) and how sure the finder is."""

    x0: float
    y0: float
    x1: float
    y1: float
    score: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def canvas(image: Image.Image) -> tuple[np.ndarray, float]:
    """The network's input (1x3x320x320, float32) and the scale from photo pixels to canvas pixels."""
    scale = SIDE / max(image.size)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    small = image.resize(size, Image.Resampling.BILINEAR)
    board = np.zeros((SIDE, SIDE, 3), dtype=np.float32)
    board[: size[1], : size[0]] = np.asarray(small, dtype=np.float32) / 255.0
    return (board - MEAN).transpose(2, 0, 1)[None].copy(), scale


def peaks(output: np.ndarray, scale: float, threshold: float = THRESHOLD) -> list[Found]:
    """Tiles from the network's output (1x5x80x80): local maxima of the heat, sized, in photo pixels."""
    heat = 1.0 / (1.0 + np.exp(-output[0, 0]))
    padded = np.pad(heat, 1, constant_values=0.0)
    h, w = heat.shape
    local = np.max([padded[dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)], axis=0)
    ys, xs = np.nonzero((heat >= local) & (heat >= threshold))
    found = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx = (x + float(output[0, 3, y, x]) + 0.5) * STRIDE / scale
        cy = (y + float(output[0, 4, y, x]) + 0.5) * STRIDE / scale
        bw = float(np.exp(output[0, 1, y, x])) * STRIDE / scale
        bh = float(np.exp(output[0, 2, y, x])) * STRIDE / scale
        found.append(Found(cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2, float(heat[y, x])))
    return _apart(found)


def _apart(found: list[Found]) -> list[Found]:
    """Drops a weaker peak whose centre lies inside a stronger tile's box (one tile seen twice)."""
    kept: list[Found] = []
    for f in sorted(found, key=lambda f: -f.score):
        cx, cy = f.centre
        if not any(abs(cx - k.centre[0]) < 0.35 * k.width and abs(cy - k.centre[1]) < 0.35 * k.height for k in kept):
            kept.append(f)
    return kept
