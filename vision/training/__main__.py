"""`python -m vision.training PHOTOS`: retrain both shipped networks with the fixed seed, then print the validation
figures.

PHOTOS is the full labelled photo set's folder; it is not in the repo (the README says where it comes from), so
it has no default. It is checked before any training starts, so a wrong path fails at once, not after an hour.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from vision.training import photos

BENCH = Path(__file__).resolve().parents[2] / "bench" / "photo_bench.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training", description=__doc__)
    photos.add_argument(parser)
    args = parser.parse_args(argv)
    try:
        folder = str(photos.labelled_folder(args.photos))
    except FileNotFoundError as why:
        parser.error(str(why))
    for module in ("vision.training.train_finder", "vision.training.train_reader"):
        done = subprocess.run([sys.executable, "-m", module, folder], check=False)
        if done.returncode != 0:
            return done.returncode
    return subprocess.run([sys.executable, str(BENCH), folder], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
