"""`python -m vision.training`: retrain both shipped networks with the fixed seed, then print the validation figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "photo_bench.py"


def main() -> int:
    for module in ("vision.training.train_finder", "vision.training.train_reader"):
        done = subprocess.run([sys.executable, "-m", module], check=False)
        if done.returncode != 0:
            return done.returncode
    return subprocess.run([sys.executable, str(BENCH)], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
