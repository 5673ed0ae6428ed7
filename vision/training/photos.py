"""The labelled photos in ``../shared/photos`` (read in place) and their split by scene.

The three copies of a source photo, and the ten pairs of photos of one layout,
share a ``scene``; every photo of a scene falls in the same fold, so the
validation figures never come from a copy of a training photo.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from solver.notation import parse_tiles
from solver.rules import STANDARD
from solver.tiles import Tile

#: ``../shared/photos`` next to the checkout (CI clones with shared/ beside it)
PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "photos"
FOLDS = 5
#: the fold kept out of training: the benchmark and the tests read these scenes only
VALIDATION_FOLD = 0


@dataclass(frozen=True, slots=True)
class LabelledTile:
    tile: Tile
    box: tuple[float, float, float, float]
    polygon: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Photo:
    path: Path
    source: str
    scene: str
    size: tuple[int, int]
    unaugmented: bool
    tiles: tuple[LabelledTile, ...]


def fold_of(scene: str) -> int:
    """A scene's fold: a hash of its name, so the split does not depend on which photos exist."""
    return int(hashlib.sha1(scene.encode()).hexdigest(), 16) % FOLDS


def load(root: Path = PHOTOS) -> list[Photo]:
    """Every labelled image, sorted by file name."""
    labels = json.loads((root / "train" / "labels.json").read_text())
    photos = []
    for name in sorted(labels):
        entry = labels[name]
        tiles = tuple(
            LabelledTile(
                tile=parse_tiles(t["tile"], STANDARD)[0],
                box=tuple(t["box"]),
                polygon=tuple((p[0], p[1]) for p in t["polygon"]),
            )
            for t in entry["tiles"]
        )
        photos.append(
            Photo(
                path=root / "train" / "images" / name,
                source=entry["source"],
                scene=entry["scene"],
                size=(entry["size"][0], entry["size"][1]),
                unaugmented=entry["crop_from_640"] is not None,
                tiles=tiles,
            )
        )
    return photos


def split(photos: list[Photo], fold: int = VALIDATION_FOLD) -> tuple[list[Photo], list[Photo]]:
    """(training, validation): the validation photos are those of the scenes in ``fold``."""
    training = [p for p in photos if fold_of(p.scene) != fold]
    validation = [p for p in photos if fold_of(p.scene) == fold]
    return training, validation
