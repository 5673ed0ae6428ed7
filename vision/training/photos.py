"""The labelled photos and their split by scene.

The full set (516 images, README "Reading tiles from a photo") lives outside the repo: training and
``bench/photo_bench.py`` are given its path. The repo keeps only the few held-out photos its tests read
(``tests/data/photos``), in the same format: a folder with ``labels.json`` and ``images/``.

The three copies of a source photo, and the ten pairs of photos of one layout,
share a ``scene``; every photo of a scene falls in the same fold, so the
validation figures never come from a copy of a training photo.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from solver.notation import parse_tiles
from solver.rules import STANDARD
from solver.tiles import Tile

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


def labelled_folder(root: Path) -> Path:
    """The folder that holds ``labels.json`` and ``images/``: ``root`` itself, or its ``train/`` (the full set's
    layout), so either folder can be given on the command line."""
    for folder in (root, root / "train"):
        if (folder / "labels.json").is_file() and (folder / "images").is_dir():
            return folder
    raise FileNotFoundError(
        f"no labelled photos in {root}: give the photo set's folder (labels.json and images/, or train/ holding them)"
    )


def load(root: Path) -> list[Photo]:
    """Every labelled image under ``root`` (see ``labelled_folder``), sorted by file name."""
    folder = labelled_folder(root)
    labels = json.loads((folder / "labels.json").read_text())
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
                path=folder / "images" / name,
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


def add_argument(parser: argparse.ArgumentParser) -> None:
    """The photo set's folder as a required argument: the full set is not in the repo, so there is no default."""
    parser.add_argument(
        "photos",
        type=Path,
        help="the labelled photo set's folder (labels.json and images/, or train/ holding them); README, "
        '"Reading tiles from a photo", says where it comes from',
    )
