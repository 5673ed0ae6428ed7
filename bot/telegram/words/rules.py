"""A game's rules in words, and examples that keep to them.

`Rules.describe()` stays the machine's line (`smallest_set=3 …`, the suggestions' key); a player reads
this instead: the standard game in a sentence, and what this game does differently. Examples are built
from the rules, so a game without jokers never suggests one.
"""

from __future__ import annotations

from bot.telegram.words.language import _, n_
from solver.notation import format_tiles
from solver.rules import STANDARD, Rules
from solver.text import N_
from solver.tiles import JOKER, Colour, Tile

COLOUR_NAMES: dict[Colour, str] = {
    Colour.RED: N_("red"),
    Colour.BLUE: N_("blue"),
    Colour.BLACK: N_("black"),
    Colour.ORANGE: N_("orange"),
}
#: counts of colours in words, as they read in a sentence ("four colours")
COUNTS = {2: N_("two"), 3: N_("three"), 4: N_("four")}
COPIES = {1: N_("one copy of each"), 2: N_("two copies of each"), 3: N_("three copies of each"),
          4: N_("four copies of each")}  # fmt: skip


def _colours(rules: Rules) -> str:
    names = [_(COLOUR_NAMES[c]) for c in rules.colour_order]
    if len(names) == 1:
        return _("one colour ({name})").format(name=names[0])
    listed = _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
    count = _(COUNTS[len(names)]) if len(names) in COUNTS else str(len(names))
    return _("{count} colours ({names})").format(count=count, names=listed)


def _copies(n: int) -> str:
    return _(COPIES[n]) if n in COPIES else _("{n} copies of each").format(n=n)


def _jokers(n: int) -> str:
    return _("no jokers") if n == 0 else n_("{n} joker", "{n} jokers", n).format(n=n)


def _meld(n: int) -> str:
    if n == 0:
        return _("a first play of any points")
    meld = n_(
        "a first play (initial meld) of at least {n} point from your own rack",
        "a first play (initial meld) of at least {n} points from your own rack",
        n,
    )
    return meld.format(n=n)


def _parts(rules: Rules) -> list[tuple[str, str]]:
    """Each rule as (name, words), in the order a player explains the game."""
    return [
        ("deck", _("numbers 1 to {high} in {colours}").format(high=rules.numbers, colours=_colours(rules))),
        ("copies", _copies(rules.copies)),
        ("jokers", _jokers(rules.jokers)),
        ("deal", n_("{n} tile each to begin", "{n} tiles each to begin", rules.deal).format(n=rules.deal)),
        (
            "sets",
            n_("sets of at least {n} tile", "sets of at least {n} tiles", rules.smallest_set).format(
                n=rules.smallest_set
            ),
        ),
        ("meld", _meld(rules.initial_meld)),
        (
            "joker value",
            n_("a joker counts {n} point", "a joker counts {n} points", rules.joker_value).format(n=rules.joker_value),
        ),
    ]


def _changes(rules: Rules) -> list[str]:
    """What this game does differently from the boxed game (a joker's value only when there are jokers)."""
    standard = dict(_parts(STANDARD))
    differ = [(name, words) for name, words in _parts(rules) if standard[name] != words]
    return [words for name, words in differ if name != "joker value" or rules.jokers]


def _sentence(parts: list[str]) -> str:
    return "; ".join(parts) + "."


def rules_text(rules: Rules) -> str:
    """The answer to /rules: the whole game in a sentence, and what differs from the boxed game."""
    parts = [words for name, words in _parts(rules) if name != "joker value" or rules.jokers > 0]
    changes = _changes(rules)
    if not changes:
        return _("Standard rules: {rules}").format(rules=_sentence(parts))
    except_ = _("Standard rules, except: {changes}").format(changes=_sentence(changes))
    return except_ + "\n" + _("In full: {rules}").format(rules=_sentence(parts))


def rules_short(rules: Rules) -> str:
    """The rules in a few words for a new game's announcement: "standard rules" or what differs."""
    changes = _changes(rules)
    if not changes:
        return _("standard rules")
    return _("standard rules except: {changes}").format(changes="; ".join(changes))


def new_game(rules: Rules) -> str:
    return _("New game ({rules}).").format(rules=rules_short(rules))


def example_tiles(rules: Rules) -> str:
    """A rack to copy, like 3R 4R 5R J: a run as long as the smallest set, and a joker only if the game has one."""
    length = min(rules.smallest_set, rules.numbers)
    start = max(1, min(3, rules.numbers - length + 1))
    first = rules.colour_order[0]
    tiles = [Tile(n, first) for n in range(start, start + length)]
    tiles.append(JOKER if rules.jokers else example_tile(rules))
    return format_tiles(tiles, rules)


def example_table(rules: Rules) -> str:
    """A set to copy onto the table, like 6R 7R 8R."""
    length = min(rules.smallest_set, rules.numbers)
    start = max(1, min(6, rules.numbers - length + 1))
    return format_tiles([Tile(n, rules.colour_order[0]) for n in range(start, start + length)], rules)


def example_tile(rules: Rules) -> Tile:
    """One tile to draw, like 7B: the second colour if there is one."""
    colour = rules.colour_order[1] if rules.colours > 1 else rules.colour_order[0]
    return Tile(min(7, rules.numbers), colour)


def example_draw(rules: Rules) -> str:
    return format_tiles([example_tile(rules)], rules)


def send_rack(rules: Rules) -> str:
    """The request for a rack, with an example that fits the game."""
    return _("Send your rack: /rack {tiles}").format(tiles=example_tiles(rules))
