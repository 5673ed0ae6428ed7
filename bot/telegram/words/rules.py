"""A game's rules in words, and examples that keep to them.

`Rules.describe()` stays the machine's line (`smallest_set=3 …`, the suggestions' key); a player reads
this instead: the standard game in a sentence, and what this game does differently. Examples are built
from the rules, so a game without jokers never suggests one.
"""

from __future__ import annotations

from solver.notation import format_tiles
from solver.rules import STANDARD, Rules
from solver.tiles import JOKER, Colour, Tile

COLOUR_NAMES: dict[Colour, str] = {
    Colour.RED: "red",
    Colour.BLUE: "blue",
    Colour.BLACK: "black",
    Colour.ORANGE: "orange",
}
COUNTS = {1: "one", 2: "two", 3: "three", 4: "four"}
COPIES = {1: "one copy", 2: "two copies", 3: "three copies", 4: "four copies"}


def _count(n: int) -> str:
    return COUNTS.get(n, str(n))


def _colours(rules: Rules) -> str:
    names = [COLOUR_NAMES[c] for c in rules.colour_order]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"one colour ({listed})" if len(names) == 1 else f"{_count(len(names))} colours ({listed})"


def _jokers(n: int) -> str:
    return "no jokers" if n == 0 else "1 joker" if n == 1 else f"{n} jokers"


def _meld(n: int) -> str:
    if n == 0:
        return "a first play of any points"
    return f"a first play (initial meld) of at least {n} points from your own rack"


def _parts(rules: Rules) -> list[tuple[str, str]]:
    """Each rule as (name, words), in the order a player explains the game."""
    return [
        ("deck", f"numbers 1 to {rules.numbers} in {_colours(rules)}"),
        ("copies", f"{COPIES.get(rules.copies, f'{rules.copies} copies')} of each"),
        ("jokers", _jokers(rules.jokers)),
        ("sets", f"sets of at least {rules.smallest_set} tiles"),
        ("meld", _meld(rules.initial_meld)),
        ("joker value", f"a joker counts {rules.joker_value} points"),
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
        return f"Standard rules: {_sentence(parts)}"
    return f"Standard rules, except: {_sentence(changes)}\nIn full: {_sentence(parts)}"


def rules_short(rules: Rules) -> str:
    """The rules in a few words for a new game's announcement: "standard rules" or what differs."""
    changes = _changes(rules)
    return "standard rules" if not changes else "standard rules except: " + "; ".join(changes)


def new_game(rules: Rules) -> str:
    return f"New game ({rules_short(rules)})."


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
    return f"Send your rack: /rack {example_tiles(rules)}"
