"""``ARCHITECTURE.md`` stays true with the code: every file, folder, module, name, table and setting it quotes in
backticks exists (a rename that forgets the page fails here)."""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.storage import models

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "ARCHITECTURE.md"
#: where a short path in the page is read from (``handlers/table.py`` is the chat's)
BASES = (ROOT, ROOT / "bot" / "telegram", ROOT / "bot")
QUOTED = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^[\w.\-/]+(?:\.py|/)$")
DOTTED = re.compile(r"^(?:solver|render|vision|bot)(?:\.\w+)+$")
NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?$")
SETTING = re.compile(r"^[A-Z][A-Z_]+$")
#: names of the libraries and of Telegram, not ours
OUTSIDE = {"Application", "getUpdates", "optimizeNogil", "mypy", "ruff"}


def quoted() -> list[str]:
    return sorted(set(QUOTED.findall(PAGE.read_text(encoding="utf-8"))))


@cache
def source() -> str:
    files = [*ROOT.glob("solver/**/*.py"), *ROOT.glob("render/**/*.py"), *ROOT.glob("vision/**/*.py"),
             *ROOT.glob("bot/**/*.py"), *ROOT.glob("migrations/**/*.py"), *ROOT.glob("tests/**/*.py")]  # fmt: skip
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def exists(item: str) -> bool:
    if item in OUTSIDE or (ROOT / item).is_dir():
        return True
    if PATH.match(item):
        return any((base / item).exists() for base in BASES)
    if DOTTED.match(item):
        parts = item.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attribute in parts[cut:]:
                if not hasattr(found, attribute):
                    return False
                found = getattr(found, attribute)
            return True
        return False
    if SETTING.match(item):
        return item.lower() in Settings.model_fields or item in source()
    if item in models.Base.metadata.tables:
        return True
    if NAME.match(item):
        last = item.split(".")[-1]
        return bool(re.search(rf"(?:def|class)\s+{re.escape(last)}\b|^{re.escape(last)}\s*[:=]", source(), re.M))
    return True  # a command line or an example: words, not a name


@pytest.mark.parametrize("item", quoted())
def test_every_name_the_page_quotes_exists(item: str) -> None:
    assert exists(item), f"ARCHITECTURE.md quotes `{item}`, which the code no longer has"


def test_the_page_quotes_the_tours_steps() -> None:
    """The check above is only as good as what it sees: the tours' steps are among the quoted names."""
    found = quoted()
    for step in ("rack_and_table", "send_answer", "advance", "GameService.record_play", "plain_text"):
        assert step in found
