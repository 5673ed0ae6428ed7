"""The data the tests read, all of it in ``tests/data`` inside the repo, so a clone anywhere tests itself.

``tests/data/README.md`` says where each file comes from and under which licence. Nothing beside the checkout
is read: ``tests/conftest.py`` fails a test that opens a file there.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
#: the Telegram Bot API, machine-readable (MIT, LICENSE beside it): the fake Bot API checks requests against it
SPEC = DATA / "telegram" / "bot-api-10.1.json"
#: 60 positions with their proven best answers: expected answers here, the load of the benchmarks
POSITIONS = DATA / "positions" / "positions.json"
#: the held-out photos the reader's tests read (CC BY 4.0, attribution in the README beside them)
PHOTOS = DATA / "photos"
