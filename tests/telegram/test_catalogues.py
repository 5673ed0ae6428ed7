"""Every message the bot can send has a translation in every language it speaks, with the same placeholders
as the English, and the compiled catalogues the bot reads are the ones in the repository."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Catalog, Message

from bot.telegram.words.catalogues import KEYWORDS, ROOT, SOURCES, TEMPLATE, extract, read
from bot.telegram.words.language import ENGLISH, LANGUAGES, catalogue

TRANSLATED = [code for code in LANGUAGES if code != ENGLISH]
#: the plural forms each language needs (CLDR, as Babel writes them into a new catalogue)
PLURALS = {"de": 2, "nl": 2, "es": 2, "fr": 2, "ru": 3, "he": 2}


@pytest.fixture(scope="module")
def marked() -> Catalog:
    return extract()


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (str(message.id),)


def _forms(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple | list) else (str(message.string or ""),)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def entries(code: str) -> Iterator[Message]:
    return (m for m in read(code) if m.id)


def test_the_template_holds_every_marked_message(marked: Catalog) -> None:
    """``bot/locales/bot.pot`` is the extraction of the code as it is (run ``python -m
    bot.telegram.words.catalogues`` after changing a message)."""
    with TEMPLATE.open("rb") as source:
        from babel.messages.pofile import read_po

        kept = {m.id for m in read_po(source) if m.id}
    missing = {m.id for m in marked if m.id} - kept
    assert not missing, f"messages not in the template: {sorted(map(str, missing))[:10]}"
    assert len(kept) > 250  # the chat's, the engine's and the pictures' words


def marked_in_code() -> Iterator[tuple[str, str]]:
    """Every literal message passed to a marker, found by Python's own parser (also inside f-strings, where
    Babel's extractor does not look): the file and the message."""
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                first = node.args[0]
                if name in KEYWORDS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                    yield str(path.relative_to(ROOT)), first.value


def test_every_message_marked_in_the_code_is_extracted(marked: Catalog) -> None:
    """A message the extraction misses would silently stay English (Babel skips ``_()`` inside an f-string)."""
    extracted = {i for m in marked if m.id for i in _ids(m)}
    missed = [(path, message) for path, message in marked_in_code() if message not in extracted]
    assert not missed, f"marked but not extracted (write them outside f-strings): {missed[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(marked: Catalog, code: str) -> None:
    done = {m.id: m for m in entries(code)}
    missing = [m.id for m in marked if m.id and m.id not in done]
    assert not missing, f"{code}: {len(missing)} messages not in the catalogue, like {missing[:5]}"
    empty = [m.id for m in done.values() if not all(_forms(m)) or m.fuzzy]
    assert not empty, f"{code}: {len(empty)} messages untranslated or fuzzy, like {empty[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_match_the_english(code: str) -> None:
    """A translation names exactly the values the English fills in (a missing one would drop a tile list, an
    unknown one would fail to format), in every plural form."""
    wrong = []
    for m in entries(code):
        english = set().union(*(placeholders(i) for i in _ids(m)))
        for form in filter(None, _forms(m)):  # (an untranslated one is the test above's to report)
            mine = placeholders(form)
            # a plural form for one may leave out the count itself ("one tile"), never anything else
            allowed = english - {"n"} if len(_ids(m)) > 1 else english
            if not (allowed <= mine <= english):
                wrong.append((m.id, form))
    assert not wrong, f"{code}: placeholders differ from the English: {wrong[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_fit_the_language(code: str) -> None:
    c = read(code)
    assert c.num_plurals == PLURALS[code], c.plural_forms
    for m in c:
        if m.id and isinstance(m.id, tuple):
            assert len(_forms(m)) == c.num_plurals, m.id


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_the_repositorys(code: str) -> None:
    """The bot reads ``.mo`` files compiled when the package is built; they say what the ``.po`` says."""
    compiled = catalogue(code)
    for m in entries(code):
        if isinstance(m.id, tuple):
            for n in (1, 2, 5):
                assert compiled.ngettext(m.id[0], m.id[1], n) in _forms(m)
        else:
            assert compiled.gettext(str(m.id)) == (m.string or m.id), m.id
