"""What every test shares: a test fails when it opens a file beside the checkout (``tests/outside_reads.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.outside_reads import Plugin, Watch

#: pytester runs a small pytest session in a subprocess, to prove the watch fails a test (test_outside_reads.py)
pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Plugin(Watch(ROOT)), "outside-reads")


@pytest.fixture(scope="session", autouse=True)
def temp_folder_is_the_tests_own(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """pytest's temp folder is the tests' own wherever it lies (``--basetemp`` may put it beside the checkout)."""
    plugin = request.config.pluginmanager.get_plugin("outside-reads")
    assert isinstance(plugin, Plugin)
    plugin.watch.allow(tmp_path_factory.getbasetemp())
