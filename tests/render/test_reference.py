"""Reference pictures: the rendering must stay close to pictures a person has looked at and approved.

Compared decoded, with a small tolerance, so a different zlib or a one-shade
change in anti-aliasing passes while a moved tile, a lost highlight or a new
colour fails. After a deliberate change, look at the new pictures and refresh
them with ``RENDER_UPDATE_REFERENCE=1 python -m pytest tests/render/test_reference.py``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import render
from render.examples import FULL_DECK_TABLE, full_deck_play, no_play, small_play
from solver.notation import parse_table, parse_tiles
from solver.rules import STANDARD

REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("RENDER_UPDATE_REFERENCE") == "1"

#: Mean difference per channel (0-255) the whole picture may drift by.
MEAN_TOLERANCE = 1.0
#: Share of pixels that may differ by more than ``PIXEL_TOLERANCE`` in some channel.
CHANGED_SHARE = 0.002
PIXEL_TOLERANCE = 48

CASES: dict[str, Callable[[], bytes]] = {
    "small_play": lambda: render.render_solution(small_play()),
    "no_play": lambda: render.render_solution(no_play()),
    "largest_play": lambda: render.render_solution(full_deck_play()),
    "empty_table": lambda: render.render_table([], STANDARD, rack=parse_tiles("4B 9O J", STANDARD), header="Table"),
    "table_status": lambda: render.render_table(
        parse_table(FULL_DECK_TABLE, STANDARD)[-4:], STANDARD, header="Your game: 4 sets on the table"
    ),
}


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_reference(name: str) -> None:
    data = CASES[name]()
    path = REFERENCE / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no reference picture {path.name}: look at the output and set RENDER_UPDATE_REFERENCE=1")
        path.write_bytes(data)
    got, want = _rgb(data), _rgb(path.read_bytes())
    assert got.size == want.size, f"{name}: size {got.size}, reference {want.size}"
    diff = ImageChops.difference(got, want)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    changed = sum(worst[PIXEL_TOLERANCE + 1 :]) / (got.width * got.height)
    assert mean <= MEAN_TOLERANCE, f"{name}: mean difference {mean:.3f}"
    assert changed <= CHANGED_SHARE, f"{name}: {changed:.2%} of pixels changed"
