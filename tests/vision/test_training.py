"""The training command and the photo benchmark are given the photo set's folder: the full set is not in the repo,
so no default may point outside it, and a missing or wrong folder is a clear error before any work starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.files import PHOTOS
from vision.training import photos

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", [("-m", "vision.training"), ("bench/photo_bench.py",)])
def test_the_photo_set_is_a_required_argument(command: tuple[str, ...]) -> None:
    done = run(*command)
    assert done.returncode == 2
    assert "the following arguments are required: photos" in done.stderr


@pytest.mark.parametrize("command", [("-m", "vision.training"), ("bench/photo_bench.py",)])
def test_a_folder_without_labelled_photos_is_a_clear_error(command: tuple[str, ...], tmp_path: Path) -> None:
    done = run(*command, str(tmp_path))
    assert done.returncode == 2
    assert f"no labelled photos in {tmp_path}" in done.stderr


def test_the_full_sets_folder_or_its_train_folder_may_be_given(tmp_path: Path) -> None:
    """The full set keeps its photos in ``train/``; the repo's held-out few sit at the top of their folder."""
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "labels.json").write_text((PHOTOS / "labels.json").read_text())
    (tmp_path / "train" / "images").symlink_to(PHOTOS / "images")
    assert photos.labelled_folder(tmp_path) == tmp_path / "train"
    assert photos.labelled_folder(tmp_path / "train") == tmp_path / "train"
    assert [p.path.name for p in photos.load(tmp_path)] == [p.path.name for p in photos.load(PHOTOS)]
    assert photos.labelled_folder(PHOTOS) == PHOTOS
