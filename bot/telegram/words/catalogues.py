"""Keeping the catalogues in step with the code: ``python -m bot.telegram.words.catalogues``.

Extracts every marked message (Babel) from ``solver/``, ``render/`` and ``bot/`` into ``bot/locales/bot.pot``
and merges it into each language's ``.po``: new messages arrive untranslated, changed ones fuzzy, gone ones
are dropped. A test reads the same extraction to check each catalogue translates every message. Babel is
a development tool here; the running bot reads only the compiled ``.mo`` files.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.telegram.words.language import DOMAIN, ENGLISH, LANGUAGES, LOCALES

ROOT = LOCALES.parent.parent
#: the rooms whose words reach a chat
SOURCES = ("solver", "render", "bot")
#: how the code marks a message: gettext's names, the chat's plural ``n_``, the engine's ``say`` and ``counted``,
#: and the picture's counted words (``words.picture.plural_forms``)
KEYWORDS = {**DEFAULT_KEYWORDS, "n_": (1, 2), "say": None, "counted": (1, 2), "plural_forms": (1, 2)}
TEMPLATE = LOCALES / f"{DOMAIN}.pot"


def po_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Catalog:
    """Every message the code marks, with the files it is in."""
    catalogue = Catalog(project="rummikub-assistant", domain=DOMAIN, charset="utf-8")
    for source in SOURCES:
        found = extract_from_dir(ROOT / source, method_map=[("**.py", "python")], keywords=KEYWORDS)
        for filename, _lineno, message, comments, context in found:
            catalogue.add(message, locations=[(f"{source}/{filename}", 0)], auto_comments=comments,
                          context=context)  # fmt: skip
    return catalogue


def read(code: str) -> Catalog:
    with po_path(code).open("rb") as source:
        return read_po(source, locale=code, domain=DOMAIN)


def update() -> None:
    """Write the template, and merge it into every language's catalogue (new ones are created)."""
    template = extract()
    with TEMPLATE.open("wb") as target:
        write_po(target, template, width=120, include_lineno=False, sort_output=True)
    for code in LANGUAGES:
        if code == ENGLISH:
            continue
        path = po_path(code)
        if path.exists():
            catalogue = read(code)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalogue = Catalog(locale=code, domain=DOMAIN, project="rummikub-assistant", charset="utf-8")
        catalogue.update(template, no_fuzzy_matching=True)
        catalogue.fuzzy = False  # the header: a fuzzy one would be left out of the compiled catalogue
        with path.open("wb") as target:
            write_po(target, catalogue, width=120, include_lineno=False, sort_output=True, ignore_obsolete=True)


if __name__ == "__main__":
    update()
