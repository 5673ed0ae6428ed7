"""The watch in ``tests/outside_reads.py`` (installed by ``conftest.py``): a read beside the checkout is caught, and
fails the test that made it; what every run reads (Python, the system, temp files, the repo) is not."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.outside_reads import Plugin, Watch, watching

ROOT = Path(__file__).resolve().parent.parent


def session_watch(config: pytest.Config) -> Watch:
    plugin = config.pluginmanager.get_plugin("outside-reads")
    assert isinstance(plugin, Plugin)
    return plugin.watch


def test_reading_the_shared_folder_beside_the_checkout_is_caught(pytestconfig: pytest.Config) -> None:
    """The very reads the tests used to make: noted whether ``../shared`` is there or not (a clean clone)."""
    watch = session_watch(pytestconfig)
    with contextlib.suppress(OSError):
        (ROOT.parent / "shared" / "bench" / "positions.json").read_bytes()
    with contextlib.suppress(OSError):
        os.listdir(ROOT.parent / "shared" / "photos")
    notes = watch.take()  # taken, so that this test itself passes
    assert [n.split(" (")[0] for n in notes] == [
        "open ../shared/bench/positions.json",
        "os.listdir ../shared/photos",
    ]


def test_a_path_beside_the_checkout_handed_to_a_subprocess_is_caught(pytestconfig: pytest.Config) -> None:
    watch = session_watch(pytestconfig)
    subprocess.run([sys.executable, "-c", "pass", "--photos=../shared/photos"], cwd=ROOT, check=True)
    assert [n.split(" (")[0] for n in watch.take()] == ["subprocess.Popen ../shared/photos"]


def test_what_every_run_reads_is_not_caught(pytestconfig: pytest.Config, tmp_path: Path) -> None:
    """The Python install and site-packages (imports), the system, temp files, the repo: none is beside it."""
    watch = session_watch(pytestconfig)
    watch.take()
    (tmp_path / "made.txt").write_text("x")
    read: list[str | Path] = [str(json.__file__), str(pytest.__file__), "/proc/self/status", tmp_path / "made.txt"]
    for path in read:
        Path(path).read_bytes()
    for folder in ("/usr/share/fonts", "/usr/share/locale", "/usr/share/zoneinfo", "/etc"):
        with contextlib.suppress(OSError):
            os.listdir(folder)
    (ROOT / "pyproject.toml").read_text()
    os.listdir(ROOT / "tests" / "data")
    sqlite3.connect(tmp_path / "game.sqlite3").close()
    subprocess.run([sys.executable, "-c", "pass", str(ROOT / "tests" / "data")], cwd=tmp_path, check=True)
    assert watch.take() == []


def test_a_checkout_anywhere_watches_its_own_parent(tmp_path: Path) -> None:
    """A checkout in a temp folder (as a clean clone for CI is): its siblings are watched, the temp folder that
    holds its parent is not let off whole, every kind of access is noted."""
    repo, shared = tmp_path / "repo", tmp_path / "shared"
    repo.mkdir()
    shared.mkdir()
    (shared / "positions.json").write_text("[]")
    (repo / "inside.json").write_text("[]")
    with watching(Watch(repo)) as watch:
        (repo / "inside.json").read_text()
        (shared / "positions.json").read_text()
        list(os.scandir(shared))
        sqlite3.connect(shared / "beside.sqlite3").close()
        subprocess.run([sys.executable, "-c", "pass", "../shared/positions.json"], cwd=repo, check=True)
        subprocess.run([sys.executable, "-c", "pass"], cwd=shared, check=True)
    assert [n.split(" (")[0] for n in watch.take()] == [
        "open ../shared/positions.json",
        "os.scandir ../shared",
        "sqlite3.connect ../shared/beside.sqlite3",
        "subprocess.Popen ../shared/positions.json",
        "subprocess.Popen ../shared",
    ]


def test_a_checkout_right_in_the_temp_folder_lets_off_only_what_the_run_makes(tmp_path: Path) -> None:
    """With ``/tmp/repo``, ``/tmp`` is the parent: a temp file made during the run is fine, ``/tmp/shared`` is not."""
    repo, shared = tmp_path / "repo", tmp_path / "shared"
    repo.mkdir()
    shared.mkdir()
    (shared / "positions.json").write_text("[]")
    with watching(Watch(repo, temp=tmp_path)) as watch:
        made = tmp_path / "tmp-made-by-a-test"
        made.write_text("x")
        made.read_text()
        (shared / "positions.json").read_text()
    assert [n.split(" (")[0] for n in watch.take()] == ["open ../shared/positions.json"]


INNER_CONFTEST = """
from pathlib import Path

from tests.outside_reads import Plugin, Watch


def pytest_configure(config):
    config.pluginmanager.register(Plugin(Watch(Path(__file__).resolve().parent)), "outside-reads")
"""

INNER_TESTS = """
from pathlib import Path

import pytest

BESIDE = Path(__file__).resolve().parent.parent / "shared"


@pytest.fixture
def positions():
    return (BESIDE / "positions.json").read_text()


def test_reads_only_the_repo():
    assert Path(__file__).read_text()


def test_reads_beside():
    assert (BESIDE / "positions.json").read_text() == "[]"


def test_reads_beside_what_is_not_there():
    (BESIDE / "missing.json").read_text()


def test_reads_beside_in_a_fixture(positions):
    assert positions == "[]"
"""


def test_a_test_that_reads_beside_the_checkout_fails(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end, in a pytest run of its own: each test (and module) that read ``../shared`` fails, naming it."""
    repo = pytester.mkdir("repo")
    shared = pytester.mkdir("shared")
    (shared / "positions.json").write_text("[]")
    (repo / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")  # the checkout is the rootdir, as ours is
    (repo / "conftest.py").write_text(INNER_CONFTEST)
    (repo / "test_reads.py").write_text(INNER_TESTS)
    (repo / "test_reads_when_imported.py").write_text(
        "from pathlib import Path\n\n"
        'POSITIONS = (Path(__file__).resolve().parent.parent / "shared" / "positions.json").read_text()\n\n\n'
        "def test_nothing():\n    pass\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_subprocess(str(repo), "--continue-on-collection-errors", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=2, errors=2)
    result.stdout.fnmatch_lines(["*opened beside the checkout*", "*open ../shared/positions.json*"])
    result.stdout.fnmatch_lines(["*open ../shared/missing.json*"])
    failed = {line.split(" - ")[0] for line in result.stdout.lines if line.startswith(("FAILED", "ERROR"))}
    assert failed == {
        "FAILED repo/test_reads.py::test_reads_beside",
        "FAILED repo/test_reads.py::test_reads_beside_what_is_not_there",
        "ERROR repo/test_reads.py::test_reads_beside_in_a_fixture",
        "ERROR repo/test_reads_when_imported.py",
    }


def test_a_checkout_in_the_temp_folder_itself_watches_what_was_there_and_what_is_missing(tmp_path: Path) -> None:
    """A clone at /tmp/repo: a sibling that was there before the run is watched, one the run makes is its own, a
    read of one still missing (``../shared`` on a clean machine) is noted, and writing a new file is not."""
    repo, old = tmp_path / "repo", tmp_path / "old"
    repo.mkdir()
    old.mkdir()
    (old / "data.json").write_text("[]")
    with watching(Watch(repo, temp=tmp_path)) as watch:
        made = tmp_path / "made"
        made.mkdir()
        (made / "x.txt").write_text("x")
        (made / "x.txt").read_text()
        (tmp_path / "new.txt").write_text("written, not read")
        (old / "data.json").read_text()
        with contextlib.suppress(OSError):
            (tmp_path / "shared" / "positions.json").read_bytes()
    assert [n.split(" (")[0] for n in watch.take()] == ["open ../old/data.json", "open ../shared/positions.json"]
