"""What every test shares: a test fails when it opens a file beside the checkout (``tests/outside_reads.py``)."""

from __future__ import annotations

import getpass
import tempfile
from pathlib import Path

import pytest

from tests.outside_reads import Plugin, Watch

#: pytester runs a small pytest session in a subprocess, to prove the watch fails a test (test_outside_reads.py)
pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    watch = Watch(ROOT)
    # pytest's own temp root, which it lists (to number and clean its runs) before any fixture can let the run's
    # folder off: beside a checkout that lies in the temp folder itself (a clone at /tmp/repo) it is no read of
    # the test's
    given = config.option.basetemp
    watch.allow(Path(given) if given else Path(tempfile.gettempdir()) / f"pytest-of-{_user()}")
    config.pluginmanager.register(Plugin(watch), "outside-reads")


def _user() -> str:
    """The name pytest gives its temp root (``pytest-of-<user>``)."""
    try:
        return getpass.getuser()
    except (ImportError, KeyError, OSError):
        return "unknown"


@pytest.fixture(scope="session", autouse=True)
def temp_folder_is_the_tests_own(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """pytest's temp folder is the tests' own wherever it lies (``--basetemp`` may put it beside the checkout)."""
    plugin = request.config.pluginmanager.get_plugin("outside-reads")
    assert isinstance(plugin, Plugin)
    plugin.watch.allow(tmp_path_factory.getbasetemp())
