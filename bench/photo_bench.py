"""Measure the photo reader on the held-out scenes of the labelled photo set and time it on the CPU.

Run: ``python bench/photo_bench.py PHOTOS [--all-copies]``, PHOTOS the full set's folder (not in the repo; the
README says where it comes from). The validation photos are the scenes of fold 0 (``vision.training.photos``),
which the shipped networks never saw in training. Given ``tests/data/photos`` (the few of them the tests read),
it runs on those alone; BENCHMARKS.md's figures are on the full set's fold 0. Per kind (rack, table) it prints
the share of labelled tiles read right (number and colour, matched by position), the share of read tiles that
are right, the sets read right on table photos and how often the kind was guessed right; then the CPU time of a
640x480 photo and of a 4000x3000 JPEG (a validation photo scaled up, as a phone sends it).

A photo's kind is taken from its labels: a *table* photo is one whose
labelled tiles, laid out by position (``vision.layout``), lie mostly in valid
sets, and those sets are the ones to read; any other photo (racks, heaps,
single tiles) is a *rack* photo, read as a list.
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from solver.rules import STANDARD
from solver.sets import SetError, make_set
from solver.tiles import Tile
from vision import PhotoReading, read_photo
from vision.layout import Place, lines
from vision.photo import TABLE_SHARE
from vision.training import photos


@dataclass
class Tally:
    labelled: int = 0
    read: int = 0
    right: int = 0
    sets: int = 0
    sets_right: int = 0
    photos: int = 0
    kind_right: int = 0

    def line(self, name: str) -> str:
        recall = self.right / max(1, self.labelled)
        precision = self.right / max(1, self.read)
        out = (
            f"{name} {self.photos:3d} photos, {self.labelled:4d} labelled tiles, {self.read:4d} read: "
            f"read right {recall:6.1%}, reads right {precision:6.1%}, kind right {self.kind_right}/{self.photos}"
        )
        if self.sets:
            out += f", sets right {self.sets_right}/{self.sets} ({self.sets_right / self.sets:.1%})"
        return out


def true_sets(photo: photos.Photo) -> list[tuple[Tile, ...]] | None:
    """The labelled sets of a table photo (canonical tiles), or None when the photo is not a table."""
    if not photo.tiles:
        return None
    places = [Place((t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2, *_size(t.box)) for t in photo.tiles]
    found, _ = lines(places)
    sets = []
    for line in found:
        try:
            sets.append(make_set([photo.tiles[i].tile for i in line], STANDARD).tiles)
        except SetError:
            continue
    covered = sum(len(s) for s in sets)
    return sets if sets and covered >= TABLE_SHARE * len(photo.tiles) else None


def _size(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[2] - box[0], box[3] - box[1])


def score(photo: photos.Photo, reading: PhotoReading, tally: Tally, sets: list[tuple[Tile, ...]] | None) -> None:
    """Match each read tile to the labelled tile whose box holds its centre (nearest first), and count."""
    tally.photos += 1
    tally.labelled += len(photo.tiles)
    tally.read += len(reading.seen)
    tally.kind_right += reading.kind == ("table" if sets is not None else "rack")
    free = set(range(len(photo.tiles)))
    for seen in reading.seen:
        cx, cy = (seen.box[0] + seen.box[2]) / 2, (seen.box[1] + seen.box[3]) / 2
        inside = [i for i in free if _holds(photo.tiles[i].box, cx, cy)]
        if not inside:
            continue
        i = min(inside, key=lambda i: _distance(photo.tiles[i].box, cx, cy))
        free.discard(i)
        tally.right += photo.tiles[i].tile == seen.tile
    if sets is not None:
        got = Counter(s.tiles for s in reading.sets or ())
        want = Counter(sets)
        tally.sets += sum(want.values())
        tally.sets_right += sum((got & want).values())


def _holds(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _distance(box: tuple[float, float, float, float], x: float, y: float) -> float:
    return ((box[0] + box[2]) / 2 - x) ** 2 + ((box[1] + box[3]) / 2 - y) ** 2


def phone_photo(path: Path) -> bytes:
    """A 4000x3000 JPEG made from a validation photo, as a 12-megapixel phone photo."""
    with Image.open(path) as im:
        big = im.convert("RGB").resize((4000, 3000), Image.Resampling.BICUBIC)
    out = io.BytesIO()
    big.save(out, "JPEG", quality=90)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    photos.add_argument(parser)
    parser.add_argument("--all-copies", action="store_true", help="also the two turned copies of each photo")
    parser.add_argument("--runs", type=int, default=5, help="timing runs of the 12-megapixel photo")
    args = parser.parse_args()
    try:
        _, validation = photos.split(photos.load(args.photos))
    except FileNotFoundError as why:
        parser.error(str(why))
    chosen = [p for p in validation if p.unaugmented or args.all_copies]
    tallies = {"rack": Tally(), "table": Tally()}
    unhelped = Tally()  # the table photos read as plain lists: what the rules add
    small_ms = []
    corrections = 0
    read_photo(chosen[0].path.read_bytes())  # load the networks before timing
    for p in chosen:
        sets = true_sets(p)
        reading = read_photo(p.path.read_bytes())
        corrections += len(reading.corrections)
        score(p, reading, tallies["table" if sets is not None else "rack"], sets)
        if sets is not None:
            score(p, read_photo(p.path.read_bytes(), kind="rack"), unhelped, None)
        if p.size == (640, 480):
            small_ms.append(reading.ms)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, python {platform.python_version()}, {_cpu()}")
    print(
        f"validation: {len(chosen)} photos of {len({p.scene for p in chosen})} held-out scenes (fold 0) "
        f"of {photos.labelled_folder(args.photos)}"
    )
    for name, tally in tallies.items():
        print(tally.line(f"{name:<6}"))
    print(unhelped.line("table photos without the rules' help:"))
    print(f"rule-based corrections made: {corrections}")
    big = phone_photo(next(p.path for p in chosen if p.size == (640, 480)))
    big_ms = [read_photo(big).ms for _ in range(args.runs)]
    print(f"CPU per 640x480 photo: median {statistics.median(small_ms):.0f} ms, max {max(small_ms):.0f} ms")
    print(f"CPU per 4000x3000 JPEG ({len(big) / 1e6:.1f} MB): median {statistics.median(big_ms):.0f} ms")


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


if __name__ == "__main__":
    main()
