"""The build step pyproject.toml cannot say: compile the chat's gettext catalogues (``bot/locales``).

Each ``.po`` becomes the ``.mo`` the bot reads, in the built package; an editable install compiles them
beside their ``.po`` files, where the bot runs from. Untranslated or fuzzy messages stay English.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALES = Path("bot") / "locales"


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        editable = getattr(self, "editable_mode", False)
        for po in sorted(LOCALES.glob("*/LC_MESSAGES/*.po")):
            mo = po.with_suffix(".mo") if editable else Path(self.build_lib) / po.with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parent.parent.name)
            with mo.open("wb") as target:
                write_mo(target, catalogue)


setup(cmdclass={"build_py": BuildWithCatalogues})
