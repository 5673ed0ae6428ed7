"""Words for a person, kept as a template and its values, so the chat can say them in the reader's language.

The engine speaks English (``str(text)``), and knows nothing of languages: it marks each template with
``N_`` (or ``counted`` for one that depends on a number) so Babel finds it for the catalogues, and the
chat translates the template, and each value that is itself a ``Text``, where it shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues; it is translated where it is shown."""
    return message


@dataclass(frozen=True, slots=True)
class Text:
    """``template`` (``str.format`` fields by name) and the ``params`` to fill it with. ``plural`` is the
    template's plural form, chosen by ``count`` (``ngettext``); a value may itself be a ``Text``."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    count: int = 1

    def __str__(self) -> str:
        template = self.template if self.plural is None or self.count == 1 else self.plural
        if not self.params:  # a plain message (it may quote the user's braces): nothing to fill in
            return template
        return template.format(**{name: str(value) for name, value in self.params.items()})


def say(template: str, **params: object) -> Text:
    """A text of ``template`` (already marked, or a literal Babel finds under ``say``) with ``params``."""
    return Text(template, params)


def counted(singular: str, plural: str, count: int, **params: object) -> Text:
    """A text whose words depend on ``count`` ("1 tile", "2 tiles"); ``count`` is also a value, ``{n}``."""
    return Text(singular, {"n": count, **params}, plural, count)


__all__ = ["N_", "Text", "counted", "say"]
