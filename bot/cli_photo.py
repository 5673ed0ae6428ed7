"""`python -m bot photo FILE [--json]`: read the tiles in a photo from the terminal.

Exit status: 0 with a reading (also when no tile is seen); 2 for a file that
cannot be read or is not a picture, with a one-line message on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from solver.errors import RummikubError
from solver.notation import format_tiles
from solver.rules import STANDARD


def register(commands: Any) -> None:
    p: argparse.ArgumentParser = commands.add_parser(
        "photo",
        help="read the tiles in a photo of a rack or a table",
        description="Read the tiles in a photo (JPEG, PNG or WebP) of a rack or of the table.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="the photo")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--kind", choices=["rack", "table"], help="say what the photo shows (default: guess)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from vision import read_photo  # the networks load only for this command

    try:
        data = args.file.read_bytes()
    except OSError as why:
        print(f"photo: cannot read {args.file}: {why.strerror or why}", file=sys.stderr)
        return 2
    try:
        reading = read_photo(data, STANDARD, args.kind)
    except RummikubError as why:
        print(f"photo: {why}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(reading.as_json(), ensure_ascii=False))
        return 0
    if not reading.tiles:
        print(f"I see no tiles in this photo.\n  {reading.ms:.0f} ms")
        return 0
    marked = " ".join(f"{s.tile}?" if s.uncertain else str(s.tile) for s in reading.seen)
    print(
        f"I read {len(reading.tiles)} tile{'' if len(reading.tiles) == 1 else 's'} ({reading.kind}): {marked}".rstrip()
    )
    if reading.sets is not None:
        for s in reading.sets:
            print(f"  set: {s}")
        if reading.loose:
            print(f"  loose: {format_tiles(reading.loose, STANDARD)}")
    for note in reading.corrections:
        print(f"  corrected: {note}")
    if reading.uncertain:
        print("  ? read with low confidence")
    print(f"  {reading.ms:.0f} ms")
    return 0
