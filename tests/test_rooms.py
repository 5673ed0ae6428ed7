"""The rooms' one-way imports (DESIGN.md, "The rooms"): a test that fails when an import crosses a wall.

Data flows one way (solver → render/vision → game → storage → chat), and each room may import only the rooms
its row of the design's table names. Every ``.py`` file of a room is parsed with ``ast`` (nothing is
imported, so a broken module still gets checked), and every import of one of our own packages counts:
absolute and relative, at the top, inside functions, and under ``if TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: our own top-level packages; imports of anything else (the standard library, SQLAlchemy...) are not ours
OURS = ("solver", "render", "vision", "bot", "migrations")

#: Each room (a dotted package; ``bot`` alone means the files directly in ``bot/``) and the packages it may
#: import, as DESIGN.md's table says. A room may always import itself. Prefixes match whole dotted names.
ALLOWED: dict[str, tuple[str, ...]] = {
    "solver": (),
    "render": ("solver",),
    "vision": ("solver",),
    "bot.game": ("solver",),
    # the coach (issue 24): pure functions over the solver's answers and the game's state
    "bot.coach": ("solver", "bot.game"),
    # the self-play simulator and the hold-back advice it measures (issue 24): whole games through the core
    "bot.selfplay": ("solver", "bot.game"),
    "bot.storage": ("solver", "bot.game"),
    "bot.telegram": (
        "solver",
        "render",
        "vision",
        "bot.game",
        "bot.coach",
        "bot.selfplay",
        "bot.storage",
        "bot.settings",
    ),
    "bot": ("solver", "render", "vision", "bot"),
    "migrations": ("bot.storage",),
}

#: Crossings the design's table does not name but that stand today, each (file, imported module) with why.
#: The test also fails when one of these is no longer needed, so the list cannot go stale.
KNOWN_CROSSINGS: dict[tuple[str, str], str] = {
    # Alembic's environment falls back to DATABASE_URL from the settings (bot/ top level). DESIGN.md says
    # migrations may import bot/storage only: either the table gains bot.settings for migrations, or the URL
    # is handed over by bot.storage.migrate alone.
    ("migrations/env.py", "bot.settings"): "the database URL from the settings",
}


@dataclass(frozen=True, slots=True)
class Crossing:
    """An import of one of our packages that the importing file's room does not allow."""

    file: str
    line: int
    #: the forbidden package (``bot.storage`` for ``from bot.storage.service import GameService``)
    module: str
    room: str
    statement: str

    def __str__(self) -> str:
        allowed = ", ".join(ALLOWED[self.room]) or "nothing of ours"
        return (
            f"{self.file}:{self.line}: `{self.statement}`: room {self.room} may not import {self.module} "
            f"(it may import {allowed})"
        )


def module_of(path: Path) -> str:
    """The dotted module a file under ROOT is (``bot/game/__init__.py`` → ``bot.game``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str | None:
    """The room a module lives in: the longest room name that is the module or one of its packages."""
    best: str | None = None
    for room in ALLOWED:
        if room == "bot":  # the top level: bot itself and its direct modules, not its sub-packages' modules
            inside = module == "bot" or (module.startswith("bot.") and module.count(".") == 1)
        else:
            inside = module == room or module.startswith(room + ".")
        if inside and (best is None or len(room) > len(best)):
            best = room
    return best


def imported(source: str, module: str, *, is_package: bool) -> Iterator[tuple[ast.stmt, str]]:
    """Every module an ``import`` statement anywhere in ``source`` brings in, absolute, with its line.

    ``from x import y`` counts as ``x.y`` (``y`` may be a module: ``from bot import settings``), unless ``x``
    itself is forbidden; a relative import is resolved against ``module`` (a package against itself).
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                kept = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*kept, *([node.module] if node.module else [])])
            for alias in node.names:
                yield node, base if alias.name == "*" else f"{base}.{alias.name}" if base else alias.name


def is_ours(module: str) -> bool:
    return module.split(".")[0] in OURS


def allowed(room: str, module: str) -> bool:
    """Whether ``room`` may import ``module``: itself, or a package its row names (whole dotted parts)."""
    return any(module == target or module.startswith(target + ".") for target in (room, *ALLOWED[room]))


def reach(room: str, module: str) -> str:
    """The forbidden module to name in a message: the shortest package of ``module`` the room may not import
    and that is no parent of one it may (``bot.storage.service.GameService`` → ``bot.storage``)."""
    parts = module.split(".")
    for n in range(1, len(parts) + 1):
        head = ".".join(parts[:n])
        if not allowed(room, head) and not any(t.startswith(head + ".") for t in (room, *ALLOWED[room])):
            return head
    return module


def crossings(source: str, file: str, module: str, *, is_package: bool = False) -> list[Crossing]:
    """The imports in one file's source that its room forbids, once per line and forbidden package."""
    room = room_of(module)
    if room is None:
        return []
    out: dict[tuple[int, str], Crossing] = {}
    for node, name in imported(source, module, is_package=is_package):
        if is_ours(name) and not allowed(room, name):
            bad = reach(room, name)
            statement = " ".join((ast.get_source_segment(source, node) or name).split())
            out.setdefault((node.lineno, bad), Crossing(file, node.lineno, bad, room, statement))
    return sorted(out.values(), key=lambda c: (c.line, c.module))


def room_files() -> list[Path]:
    """Every ``.py`` file of every room that exists in this checkout."""
    found: list[Path] = []
    for top in OURS:
        folder = ROOT / top
        if folder.is_dir():
            found.extend(p for p in folder.rglob("*.py") if ".venv" not in p.parts)
    return sorted(found)


def all_crossings() -> list[Crossing]:
    out: list[Crossing] = []
    for path in room_files():
        rel = path.relative_to(ROOT).as_posix()
        out.extend(
            crossings(path.read_text(encoding="utf-8"), rel, module_of(path), is_package=path.name == "__init__.py")
        )
    return out


def test_every_room_imports_only_what_the_design_allows() -> None:
    found = all_crossings()
    forbidden = [c for c in found if (c.file, c.module) not in KNOWN_CROSSINGS]
    assert not forbidden, "imports across the rooms' one-way walls (DESIGN.md):\n" + "\n".join(map(str, forbidden))


def test_known_crossings_are_still_there() -> None:
    """A crossing that was fixed leaves the list, so the list never excuses a new one."""
    found = {(c.file, c.module) for c in all_crossings()}
    stale = [f"{file}: {module}" for file, module in KNOWN_CROSSINGS if (file, module) not in found]
    assert not stale, "no longer imported; remove from KNOWN_CROSSINGS: " + ", ".join(stale)


def test_the_rooms_are_all_checked() -> None:
    """Each room that exists has files, and each file belongs to a room (a new top folder must be placed)."""
    files = room_files()
    rooms = {room_of(module_of(p)) for p in files}
    assert None not in rooms, [p for p in files if room_of(module_of(p)) is None]
    for room in (
        "solver",
        "render",
        "bot.game",
        "bot.coach",
        "bot.selfplay",
        "bot.storage",
        "bot.telegram",
        "bot",
        "migrations",
    ):
        assert room in rooms, f"no files found for room {room}"
    assert room_of("bot.cli_db") == "bot" and room_of("bot.storage.service") == "bot.storage"


def test_the_checker_catches_a_forbidden_import() -> None:
    """Synthetic sources: every way of writing an import is seen, and the message names file, line, module."""
    source = "\n".join(
        [
            "from __future__ import annotations",
            "from typing import TYPE_CHECKING",
            "import sqlalchemy",
            "from solver.sets import TileSet",  # allowed for the game core
            "from bot.game import plays",  # itself
            "if TYPE_CHECKING:",
            "    from bot.storage.service import GameService",  # line 7: under TYPE_CHECKING
            "def f() -> None:",
            "    import render.draw",  # line 9: inside a function
            "    from ..telegram import texts",  # line 10: relative, two levels up from bot.game
            "from . import seats",  # itself, relative
        ]
    )
    found = crossings(source, "bot/game/example.py", "bot.game.example")
    assert [(c.line, c.module) for c in found] == [
        (7, "bot.storage"),
        (9, "render"),
        (10, "bot.telegram"),
    ], found
    assert str(found[0]) == (
        "bot/game/example.py:7: `from bot.storage.service import GameService`: room bot.game may not import "
        "bot.storage (it may import solver)"
    )
    assert not crossings("import solver\nfrom render import draw\n", "bot/telegram/x.py", "bot.telegram.x")
    assert [c.module for c in crossings("from bot import settings\n", "solver/x.py", "solver.x")] == ["bot"]
    assert [
        c.module for c in crossings("from bot import settings, storage\n", "bot/telegram/x.py", "bot.telegram.x")
    ] == []
    assert [c.module for c in crossings("from bot import cli_db\n", "bot/telegram/x.py", "bot.telegram.x")] == [
        "bot.cli_db"
    ]
    assert [c.module for c in crossings("import bot.settings\n", "migrations/env.py", "migrations.env")] == [
        "bot.settings"
    ]


def test_no_handler_imports_another() -> None:
    """Handlers are thin and stand alone (issue 25, part 4): the steps they share live in modules beside them in
    ``bot/telegram/``, and only the app (``bot/telegram/app.py``) puts handlers together (an edit read again, a
    question's answer handed to its feature). A handler that imports another fails here."""
    folder = ROOT / "bot" / "telegram" / "handlers"
    leaning: list[str] = []
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node, name in imported(source, module_of(path), is_package=path.name == "__init__.py"):
            if name == "bot.telegram.handlers" or name.startswith("bot.telegram.handlers."):
                leaning.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}: {name}")
    assert not leaning, "handlers importing handlers (move the shared step beside them):\n" + "\n".join(leaning)
