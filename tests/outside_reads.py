"""A test fails when it opens a file beside the checkout (``../shared`` and the like): the repo tests itself anywhere.

Everything the tests read is in the repo (``tests/data``); a test that quietly reads a folder that happens to lie
next to the maintainer's checkout passes there and fails on everyone else's clone. So an audit hook (PEP 578)
watches, in this process, every file opened (built-in ``open``, ``io.open_code`` for imports, ``os.open``), every
folder listed, every SQLite database connected to, and every subprocess started (its program, the arguments that
look like paths, its folder: a child process is not audited itself, but what it is told to read is). A path under
the checkout's parent but outside the checkout is noted, unless it lies where any test run legitimately reads
(``Watch.__init__``). ``Plugin`` hands each note to the phase that made it (a test's setup, call or teardown, a
module's collection), which fails, naming the path.

The events fire before the file is opened, so a read of a file that does not exist is noted too: a clone without
``../shared`` is told why a test tried to read there, not just that a file was missing.
"""

from __future__ import annotations

import contextlib
import os
import site
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

#: The audit events that name a path read (or written) by this process, or handed to a child process.
EVENTS = frozenset({"open", "os.listdir", "os.scandir", "sqlite3.connect", "subprocess.Popen"})
#: The system's own folders: libraries, fonts, locales, certificates, time zones, devices, the kernel's views.
SYSTEM = (
    "/proc",
    "/dev",
    "/sys",
    "/etc",
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/var",
    "/run",
)


def _under(path: str, folder: str) -> bool:
    return folder == os.sep or path == folder or path.startswith(folder + os.sep)


class Watch:
    """What counts as beside one checkout, and the notes of what was opened there."""

    def __init__(self, root: Path, *, temp: Path | None = None) -> None:
        """Let off what every run reads: the Python install, the virtual environment and every ``sys.path``
        entry, the system's folders, PostgreSQL's binaries (``PG_BIN``), the temp folder, pytest's temp folder
        (``allow``) and the dot-folders of the home directory (tools' caches and settings).

        A place that holds the checkout's parent cannot be let off whole, or nothing beside the checkout would be
        noted: its parts that do are still watched (a checkout at ``/usr/src/app`` watches ``/usr/src``; one at
        ``/repo`` watches ``/`` outside the system's folders). When the parent is the temp folder itself (a
        checkout at ``/tmp/repo``), what the run makes there is let off: a folder or file that was not there when
        it began and is there now. What is still missing is noted when it is read (``../shared`` on a clean
        machine), not when it is written (a temp file being made).
        """
        self.root = os.path.realpath(root)
        self.parent = os.path.dirname(self.root)
        self.temp = os.path.realpath(temp if temp is not None else tempfile.gettempdir())
        self.notes: list[str] = []
        self.allowed: list[str] = []
        self._verdicts: dict[str, bool] = {}  # imports alone open thousands of paths, some twice
        places: list[str] = [*SYSTEM, self.temp, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
        for scheme_paths in (sysconfig.get_paths(), sysconfig.get_paths(vars={"base": sys.base_prefix})):
            places += [p for key, p in scheme_paths.items() if key != "data"]
        places += [*site.getsitepackages(), site.getusersitepackages(), *(p for p in sys.path if p)]
        if os.environ.get("PG_BIN"):
            places.append(os.environ["PG_BIN"])
        home = os.path.expanduser("~")
        with contextlib.suppress(OSError):
            places += [os.path.join(home, name) for name in os.listdir(home) if name.startswith(".")]
        for place in places:
            self.allow(place)
        self.there_before: frozenset[str] | None = None
        if self.temp == self.parent:
            self.there_before = frozenset(os.listdir(self.parent))

    def allow(self, place: str | os.PathLike[str]) -> None:
        """Let off a folder (or file), unless it holds the checkout's parent (then it would hide everything)."""
        resolved = os.path.realpath(place)
        if not _under(self.parent, resolved) and not _under(resolved, self.root) and resolved not in self.allowed:
            self.allowed.append(resolved)
            self._verdicts.clear()

    def beside(self, path: str, *, writing: bool = False) -> bool:
        """Whether an absolute, resolved path lies beside the checkout: under its parent, outside it, not let off
        (``writing``: the path is opened to be made or written, not read)."""
        verdict = self._verdicts.get(path)
        if verdict is None:
            verdict = self._judge(path)
            if verdict is None:  # in the temp folder, made by this run or not yet there: judged each time
                first = os.path.join(self.parent, os.path.relpath(path, self.parent).split(os.sep, 1)[0])
                return not writing and not os.path.lexists(first)
            self._verdicts[path] = verdict
        return verdict

    def _judge(self, path: str) -> bool | None:
        if not _under(path, self.parent) or _under(path, self.root):
            return False
        if any(_under(path, place) for place in self.allowed):
            return False
        if self.there_before is not None:
            first = os.path.relpath(path, self.parent).split(os.sep, 1)[0]
            return True if first in self.there_before else None
        return True

    def note(self, event: str, path: str, *, writing: bool = False) -> None:
        """Note ``path`` (as the event named it, relative to the current folder) if it lies beside the checkout."""
        resolved = os.path.realpath(path)
        if self.beside(resolved, writing=writing):
            self.notes.append(f"{event} {os.path.relpath(resolved, self.root)} ({resolved})")

    def take(self) -> list[str]:
        """The notes so far, and a clean slate."""
        taken, self.notes = self.notes, []
        return taken


_watches: list[Watch] = []
_busy = threading.local()
_hooked = False


def _paths_of(event: str, args: tuple[Any, ...]) -> Iterator[str]:
    """The paths an audit event names (as strings; an open file descriptor names none)."""
    if event == "subprocess.Popen":
        executable, argv, cwd, _env = args
        words = [argv] if isinstance(argv, str | bytes | os.PathLike) else list(argv or ())
        base = os.fsdecode(cwd) if cwd is not None else os.getcwd()
        for word in [executable, *words]:
            if word is None:
                continue
            text = os.fsdecode(word)
            for part in dict.fromkeys((text, text.split("=", 1)[-1])):  # "--out=../x" names ../x
                if os.sep in part:
                    yield os.path.join(base, part)
        if cwd is not None:
            yield base
        return
    path = args[0] if args else None
    if path is None or isinstance(path, int):
        return
    text = os.fsdecode(path)
    if event == "sqlite3.connect" and (text.startswith((":", "file:")) or not text):
        return
    yield text


#: the ``os.open`` flags of a file opened to be made or written
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND


def _writes(args: tuple[Any, ...]) -> bool:
    """Whether an ``open`` event (path, mode, flags) opens its file to make or write it."""
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    if isinstance(mode, str) and any(c in mode for c in "wxa+"):
        return True
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    """Note the paths beside a watched checkout; never raises (an audit hook's exception would fail the open)."""
    if event not in EVENTS or not _watches or getattr(_busy, "now", False):
        return
    _busy.now = True
    try:
        writing = event == "open" and _writes(args)
        for path in _paths_of(event, args):
            for watch in _watches:
                watch.note(event, path, writing=writing)
    except Exception:  # a path we cannot read is not one we can judge
        pass
    finally:
        _busy.now = False


@contextlib.contextmanager
def watching(watch: Watch) -> Iterator[Watch]:
    """Watch a checkout for the block (the audit hook, added once per process, cannot be removed: it idles)."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_hook)
        _hooked = True
    _watches.append(watch)
    try:
        yield watch
    finally:
        _watches.remove(watch)


def message(notes: Sequence[str], root: str) -> str:
    """Why the phase failed: what it opened beside the checkout, and where such data belongs instead."""
    shown = "\n".join(f"  {n}" for n in dict.fromkeys(notes))
    return (
        f"opened beside the checkout ({root}):\n{shown}\n"
        "A clone elsewhere has nothing there: keep what the tests read in the repo (tests/data)."
    )


class Plugin:
    """pytest hooks that fail the test (or the module being collected) that opened a path beside the checkout."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self.stray: list[str] = []
        self._watching = watching(watch)

    def pytest_configure(self, config: pytest.Config) -> None:
        self._watching.__enter__()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._watching.__exit__(None, None, None)

    def _phase(self) -> Generator[None, object, object]:
        self.stray += self.watch.take()  # opened between phases (a thread left running): reported at the end
        try:
            return (yield)
        finally:
            if notes := self.watch.take():
                pytest.fail(message(notes, self.watch.root), pytrace=False)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from self._phase())

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from self._phase())

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from self._phase())

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(
        self, collector: pytest.Collector
    ) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
        self.stray += self.watch.take()
        report = yield
        if notes := self.watch.take():
            report.outcome = "failed"
            report.longrepr = message(notes, self.watch.root)
        return report

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.stray += self.watch.take()
        if self.stray:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.stray:
            terminalreporter.section("opened beside the checkout, outside any test", red=True)
            terminalreporter.line(message(self.stray, self.watch.root))
