"""Reading a photo: find the tiles, read each one, lay a table out into sets, let the rules correct misreads.

A photo is a *table* photo when most of its tiles lie in lines that read as
valid sets; otherwise it is a *rack* (or a heap of loose tiles), read as a
plain list, in rows from the top left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
from PIL import Image

from solver.notation import format_tile
from solver.rules import STANDARD, Rules
from solver.sets import TileSet
from solver.text import Text, say
from solver.tiles import JOKER, Tile
from vision import correct, find, layout, models, read
from vision.picture import open_photo

Kind = Literal["rack", "table"]
#: a found tile the reader calls "not a tile" at least this likely is dropped
NOT_A_TILE = 0.5
#: a tile read with less likelihood than this is marked uncertain
SURE = 0.75
#: a photo is a table photo when at least this share of its tiles lie in valid sets
TABLE_SHARE = 0.6


@dataclass(frozen=True, slots=True)
class SeenTile:
    """One tile as read: what it is, how likely, and where it lies (box in the photo's pixels, upright)."""

    tile: Tile
    confidence: float
    box: tuple[float, float, float, float]
    corrected_from: Tile | None = None

    @property
    def uncertain(self) -> bool:
        return self.confidence < SURE or self.corrected_from is not None


@dataclass(frozen=True, slots=True)
class PhotoReading:
    """What a photo shows: ``tiles`` in reading order, ``sets`` for a table photo, and what is in doubt."""

    kind: Kind
    seen: tuple[SeenTile, ...]
    sets: tuple[TileSet, ...] | None
    loose: tuple[Tile, ...]
    corrections: tuple[Text, ...]
    ms: float

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(s.tile for s in self.seen)

    @property
    def uncertain(self) -> tuple[Tile, ...]:
        return tuple(s.tile for s in self.seen if s.uncertain)

    def as_json(self) -> dict[str, object]:
        """The CLI's ``--json`` object (canonical notation throughout)."""
        return {
            "kind": self.kind,
            "tiles": [format_tile(t) for t in self.tiles],
            "sets": None if self.sets is None else [[format_tile(t) for t in s.tiles] for s in self.sets],
            "loose": [format_tile(t) for t in self.loose],
            "uncertain": [format_tile(t) for t in self.uncertain],
            "corrections": [str(note) for note in self.corrections],
            "seen": [
                {"tile": format_tile(s.tile), "confidence": round(s.confidence, 3), "box": [round(v) for v in s.box]}
                for s in self.seen
            ],
            "ms": round(self.ms, 1),
        }


def read_photo(data: bytes, rules: Rules = STANDARD, kind: Kind | None = None) -> PhotoReading:
    """Read the tiles in a photo (JPEG/PNG/WebP bytes). ``kind`` forces rack or table; by default it is guessed.

    Raises ``PhotoError`` for input that is not a readable picture. A photo
    without tiles is not an error: its reading has no tiles.
    """
    start = time.process_time()
    image = open_photo(data)
    canvas, scale = find.canvas(image)
    found = find.peaks(models.find_tiles(canvas), scale)
    options, likely, found = _read(image, found, rules)
    places = [layout.Place(*f.centre, f.width, f.height) for f in found]
    reading = _lay_out(options, likely, found, places, rules, kind)
    return PhotoReading(
        kind=reading[0],
        seen=reading[1],
        sets=reading[2],
        loose=reading[3],
        corrections=reading[4],
        ms=(time.process_time() - start) * 1000,
    )


def _read(image: Image.Image, found: list[find.Found], rules: Rules) -> tuple[list[Tile], np.ndarray, list[find.Found]]:
    """Each found tile's likelihood over the tiles of these rules (rows sum to 1); "not a tile" finds dropped."""
    if not found:
        return [], np.zeros((0, 0)), []
    crops = np.stack([read.crop(image, (f.x0, f.y0, f.x1, f.y1)) for f in found])
    names, table = read.tile_likelihoods(*read.both_ways(crops))
    keep = table[:, -1] < NOT_A_TILE
    allowed = [k for k, t in enumerate(names) if rules.copies_of(t) > 0]
    options = [names[k] for k in allowed]
    likely = table[keep][:, allowed]
    likely = likely / np.maximum(likely.sum(axis=1, keepdims=True), 1e-9)
    return options, likely, [f for f, k in zip(found, keep.tolist(), strict=True) if k]


def _lay_out(
    options: list[Tile],
    likely: np.ndarray,
    found: list[find.Found],
    places: list[layout.Place],
    rules: Rules,
    kind: Kind | None,
) -> tuple[Kind, tuple[SeenTile, ...], tuple[TileSet, ...] | None, tuple[Tile, ...], tuple[Text, ...]]:
    first = [options[int(k)] for k in likely.argmax(axis=1)] if len(found) else []
    lines, loose = layout.lines(places)
    readings: list[tuple[list[int], correct.LineReading]] = []
    unread: list[int] = list(loose)
    for line in lines:
        got = correct.read_line(options, likely[line], rules) if len(line) >= rules.smallest_set else None
        if got is None:
            unread.extend(line)
        else:
            readings.append((line, got))
    in_sets = sum(len(line) for line, _ in readings)
    guessed: Kind = "table" if found and in_sets >= TABLE_SHARE * len(found) else "rack"
    chosen = kind or guessed
    if chosen == "rack":
        order = sorted(range(len(found)), key=lambda i: _reading_order(places, i))
        seen = tuple(_seen(options, likely, found, i, first[i], None) for i in order)
        return "rack", seen, None, (), ()
    seen_list: list[SeenTile] = []
    sets: list[TileSet] = []
    notes: list[Text] = []
    for line, got in readings:
        sets.extend(got.sets)
        for pos, i in enumerate(line):
            was = first[i] if pos in got.changed else None
            seen_list.append(_seen(options, likely, found, i, got.tiles[pos], was))
        for pos in got.changed:
            before, after = format_tile(first[line[pos]]), format_tile(got.tiles[pos])
            sets_now = " | ".join(str(s) for s in got.sets)
            notes.append(say("read {was} as {read} so that {sets} is valid", was=before, read=after, sets=sets_now))
    unread.sort(key=lambda i: _reading_order(places, i))
    loose_tiles = tuple(first[i] for i in unread)
    seen_list.extend(_seen(options, likely, found, i, first[i], None) for i in unread)
    return "table", tuple(seen_list), tuple(sets), loose_tiles, tuple(notes)


def _reading_order(places: list[layout.Place], i: int) -> tuple[int, float]:
    """Rows from the top (a row is a tile height), left to right within a row."""
    p = places[i]
    height = float(np.median([q.height for q in places]))
    return (round(p.y / max(height, 1.0)), p.x)


def _seen(
    options: list[Tile], likely: np.ndarray, found: list[find.Found], i: int, tile: Tile, was: Tile | None
) -> SeenTile:
    k = options.index(tile) if tile in options else options.index(JOKER)
    f = found[i]
    return SeenTile(tile, float(likely[i, k]), (f.x0, f.y0, f.x1, f.y1), was)
