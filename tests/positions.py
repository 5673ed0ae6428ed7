"""The benchmark positions (``tests/data/positions``): 60 positions with their proven best answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.files import POSITIONS


def load_positions(path: Path = POSITIONS) -> list[dict[str, Any]]:
    with path.open() as f:
        positions: list[dict[str, Any]] = json.load(f)
    return positions
