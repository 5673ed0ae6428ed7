"""`python -m bot photo FILE [--json]` as a user runs it, on a held-out real photo and on bad files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.files import PHOTOS

ROOT = Path(__file__).resolve().parents[2]
#: a held-out table photo (fold 0): five sets on a wooden table
TABLE = next((PHOTOS / "images").glob("rummy-14_*.jpg"))


def photo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "photo", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_json_has_the_promised_fields() -> None:
    done = photo(str(TABLE), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert {"tiles", "sets", "kind", "uncertain", "ms", "corrections"} <= set(answer)
    assert answer["kind"] in ("rack", "table")
    assert len(answer["tiles"]) >= 12
    assert all(isinstance(t, str) for t in answer["tiles"])
    assert answer["ms"] > 0
    if answer["kind"] == "table":
        assert isinstance(answer["sets"], list)
    else:
        assert answer["sets"] is None


def test_plain_output_says_what_it_read() -> None:
    done = photo(str(TABLE), "--kind", "rack")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("I read ")
    assert "(rack)" in done.stdout.splitlines()[0]


def test_a_file_that_is_not_a_picture_is_a_one_line_error(tmp_path: Path) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo at all")
    done = photo(str(text), "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("photo: ") and "not a picture" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    done = photo(str(tmp_path / "nowhere.jpg"))
    assert done.returncode == 2
    assert done.stderr.startswith("photo: cannot read ")
    assert len(done.stderr.splitlines()) == 1
