"""The picture's words in the reader's language: a ``render.wording.Wording`` filled from the catalogues.

The renderer knows no languages and runs in a worker process, so it gets its words as plain data, made here
in the current language before the work is handed over. Counted words keep each plural form of the
language and its gettext rule, which the renderer applies to the number it draws.
"""

from __future__ import annotations

import functools
from gettext import c2py

from bot.telegram.words.language import _, catalogue, current, right_to_left, speaking
from render.wording import ENGLISH, Wording

#: numbers enough to meet every plural form of the languages spoken (Russian's third form first shows at 5)
_SAMPLES = range(0, 200)


def plural_rule(code: str) -> str:
    """The language's gettext plural expression (``n != 1`` for English), from its catalogue's header."""
    for part in catalogue(code).info().get("plural-forms", "").split(";"):
        name, _equals, rule = part.strip().partition("=")
        if name.strip() == "plural" and rule:
            return rule.strip()
    return ENGLISH.plural


def plural_forms(singular: str, plural: str, rule: str) -> tuple[str, ...]:
    """Every plural form of a message, in the order of the rule's indices: the form ``ngettext`` gives for
    the first number that picks each index."""
    choose, found = c2py(rule), dict[int, str]()
    for n in _SAMPLES:
        found.setdefault(choose(n), catalogue(current()).ngettext(singular, plural, n))
    return tuple(found[i] for i in sorted(found))


@functools.cache
def wording_in(code: str) -> Wording:
    with speaking(code):
        rule = plural_rule(code)
        return Wording(
            from_rack=_("from your rack"),
            moved=_("moved from another set"),
            unchanged=_("unchanged"),
            just_played=_("just played"),
            split_from=_("{label}, split from {home}"),
            continued=_("{label} cont."),
            empty_table=_("The table is empty"),
            no_play=_("No play: draw a tile"),
            play=_("{tiles}, {points}"),
            initial_meld=_("initial meld"),
            best_in_time=_("best found in time"),
            your_rack=_("Your rack: {tiles}"),
            rack=_("Rack: {tiles}"),
            rack_left=_("Rack left: {tiles}"),
            rack_empty=_("Your rack is empty"),
            rack_won=_("Rack left: empty, you win!"),
            unseen=_("Unseen: {tiles}"),
            unseen_where=_("{pool} in the pool, {racks} on the other racks"),
            tiles=plural_forms("{n} tile", "{n} tiles", rule),
            points=plural_forms("{n} point", "{n} points", rule),
            plural=rule,
            right_to_left=right_to_left(),
        )


def picture_wording() -> Wording:
    """The words of a picture for the current reader."""
    return wording_in(current())
