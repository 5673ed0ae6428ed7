"""Rules options as people type them after `/new`: ``meld=25 jokers=1``.

Read in one pass over the words (no backtracking), numbers in ASCII digits
only, so any text gets a clear error naming the option at fault, in time
linear in its length.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.errors import RummikubError
from solver.rules import LIMITS, STANDARD, Rules
from solver.text import N_, say
from solver.whole import shown, whole

#: the names an option may use, and the rule each sets
RULE_NAMES = {
    "meld": "initial_meld",
    "initial_meld": "initial_meld",
    "jokers": "jokers",
    "joker_value": "joker_value",
    "numbers": "numbers",
    "colours": "colours",
    "colors": "colours",
    "copies": "copies",
    "smallest": "smallest_set",
    "smallest_set": "smallest_set",
    "deal": "deal",
    "rack": "deal",
}
_SHORT_NAMES = ("colours", "copies", "deal", "joker_value", "jokers", "meld", "numbers", "smallest")
EXAMPLE = N_("write rule options as name=number, like /new meld=25 jokers=1")


class OptionError(RummikubError):
    """A /new option that is not a rule or not a number."""


def options(text: str) -> Iterator[str]:
    """The ``name=value`` words of ``text``, with any spaces around ``=`` closed up, one at a time."""
    parts: list[str] = []
    for word in text.split():
        if parts and not parts[-1].endswith("=") and not word.startswith("="):
            yield "".join(parts)
            parts = []
        parts.append(word)
    if parts:
        yield "".join(parts)


def parse_rules(text: str, base: Rules = STANDARD) -> Rules:
    """``meld=25 jokers=1`` and friends on top of ``base`` (validated like any rules variant)."""
    changes: dict[str, int] = {}
    for option in options(text):
        name, equals, value = option.partition("=")
        if not equals or not name or not value or "=" in value:
            raise OptionError(N_("{option}: {example}"), option=shown(option), example=say(EXAMPLE))
        if name.lower() not in RULE_NAMES:
            raise OptionError(
                N_("{option}: unknown rule; the rules are {rules}"),
                option=shown(option),
                rules=", ".join(_SHORT_NAMES),
            )
        rule = RULE_NAMES[name.lower()]
        low, high = LIMITS[rule]
        number = whole(value)
        if number is None:
            raise OptionError(
                N_("{option}: {name} takes a whole number in digits 0-9, like {like}"),
                option=shown(option),
                name=name.lower(),
                like=f"{name}=25",
            )
        if not low <= number <= high:
            raise OptionError(
                N_("{option}: {name} goes from {low} to {high}"),
                option=shown(option),
                name=name.lower(),
                low=low,
                high=high,
            )
        changes[rule] = number
    return base.replace(**changes)
