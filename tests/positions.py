"""The shared benchmark positions (../shared/bench/positions.json), read in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

POSITIONS_FILE = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "positions.json"


def load_positions(path: Path = POSITIONS_FILE) -> list[dict[str, Any]]:
    with path.open() as f:
        positions: list[dict[str, Any]] = json.load(f)
    return positions
