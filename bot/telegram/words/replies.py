"""Captions, short answers and buttons: how the bot's replies read.

Captions stay under Telegram's 1024 characters; a move list that would not
fit ends with how many moves were left out. Nothing here ever prints a rack
unless the caller is answering that rack's owner in private.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.game import GameResult, GameState, PlayerState
from bot.telegram import callbacks
from bot.telegram.links import deep_link
from bot.telegram.words.rules import example_draw, example_table, example_tiles
from solver.notation import format_tiles
from solver.rules import Rules
from solver.solution import Objective, Solution
from solver.tiles import Tile

CAPTION_LIMIT = 1024


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def tiles_text(tiles: Sequence[Tile], rules: Rules) -> str:
    return format_tiles(tiles, rules) or "(none)"


def placed_text(solution: Solution) -> str:
    """The tiles a play puts down, set by set in the order of the new table (a set's tiles in its order), so
    they can be found on the picture: "3R 4R 5R J | 7B"."""
    sets = []
    for tile_set, origins in zip(solution.table, solution.origins, strict=True):
        mine = [t for t, o in zip(tile_set.tiles, origins, strict=True) if o.from_rack]
        if mine:
            sets.append(" ".join(str(t) for t in mine))
    return " | ".join(sets) or "no tile"


def summary(solution: Solution) -> str:
    what = "Best opening" if solution.initial_meld else "Best play"
    goal = "most points" if solution.objective is Objective.POINTS else "most tiles"
    line = (
        f"{what} ({goal}): {plural(solution.tiles_placed, 'tile')}, {plural(solution.points_placed, 'point')}: "
        f"{placed_text(solution)}"
    )
    if not solution.optimal:
        line += "\n(best found in the time allowed; there may be better)"
    return line


def solve_caption(solution: Solution, moves: Sequence[str], note: str = "") -> str:
    """Summary, numbered moves, rack left (and a ``note`` after it, kept whole); cut to fit a photo caption."""
    head = summary(solution)
    tail = rack_left(solution) + (f"\n{note}" if note else "")
    lines: list[str] = []
    for i, move in enumerate(moves, start=1):
        line = f"{i}. {move}"
        rest = len(moves) - i
        more = f"… and {plural(rest, 'more move')}" if rest else ""
        body = "\n".join([head, *lines, line, more, tail])
        if len(body) > CAPTION_LIMIT:
            lines.append(f"… and {plural(len(moves) - i + 1, 'more move')}")
            break
        lines.append(line)
    text = "\n".join([head, *lines, tail])
    return text[:CAPTION_LIMIT]


def rack_left(solution: Solution) -> str:
    """What the play leaves on the rack; a play that empties it says so."""
    if not solution.rack_left:
        return "Your rack is empty after this play."
    return f"Rack left: {tiles_text(solution.rack_left, solution.rules)}"


def no_play(solution: Solution, onto_table: Solution | None = None) -> str:
    rack = tiles_text(solution.rack_left, solution.rules)
    draw = f"Draw a tile: /draw {example_draw(solution.rules)}, then /pass."
    if solution.initial_meld:
        opening = f"No opening worth {solution.rules.initial_meld} points from your rack yet ({rack}). {draw}\n"
        if onto_table is not None:
            return opening + melded_note(onto_table)
        return opening + "Already made your initial meld? Send /meld, then /solve plays onto the table."
    return f"No play with your rack ({rack}). {draw}"


def objective_code(objective: Objective) -> str:
    return "p" if objective is Objective.POINTS else "t"


def objective_of(code: str) -> Objective:
    return Objective.POINTS if code == "p" else Objective.TILES


def solve_buttons(game_id: int, solution: Solution, fingerprint: str, *, melded: bool = False) -> InlineKeyboardMarkup:
    """ "I played this", the other objective, and (``melded``) the play onto the table instead of an opening."""
    code = objective_code(solution.objective)
    other = Objective.TILES if solution.objective is Objective.POINTS else Objective.POINTS
    label = "Most tiles instead" if other is Objective.TILES else "Most points instead"
    rows = [
        [InlineKeyboardButton("✅ I played this", callback_data=callbacks.played_this(game_id, code, fingerprint))],
        [InlineKeyboardButton(label, callback_data=callbacks.other_objective(game_id, objective_code(other)))],
    ]
    if melded:
        rows.append(melded_row(game_id, solution.objective))
    return InlineKeyboardMarkup(rows)


MELDED_BUTTON = "I have melded: play onto the table"


def melded_row(game_id: int, objective: Objective) -> list[InlineKeyboardButton]:
    data = callbacks.melded_instead(game_id, objective_code(objective))
    return [InlineKeyboardButton(MELDED_BUTTON, callback_data=data)]


def melded_buttons(game_id: int, objective: Objective) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([melded_row(game_id, objective)])


def melded_note(onto_table: Solution) -> str:
    """Under an opening: what playing onto the table would put down, for a player who has melded already."""
    figures = f"{plural(onto_table.tiles_placed, 'tile')}, {plural(onto_table.points_placed, 'point')}"
    return f"Made your initial meld already? Playing onto the table puts down more ({figures}): tap {MELDED_BUTTON}."


def melded_noted(name: str) -> str:
    return f"Noted: {name} has made the initial meld."


def same_play(objective: Objective) -> str:
    """The other objective's best play is the one already shown: said, not sent again."""
    goal = "most points" if objective is Objective.POINTS else "most tiles"
    return f"The play with the {goal} is the same one: tap ✅ I played this above to record it."


def group_buttons(bot_username: str, invite: str, *, join: bool) -> InlineKeyboardMarkup:
    """Join (in the group) and the deep link to the player's private chat, already tied to this game."""
    row = [InlineKeyboardButton("🔒 My rack", url=deep_link(bot_username, invite))]
    if join:
        row.insert(0, InlineKeyboardButton("🙋 Join", callback_data=callbacks.JOIN))
    return InlineKeyboardMarkup([row])


def rack_button(bot_username: str, invite: str) -> InlineKeyboardMarkup:
    return group_buttons(bot_username, invite, join=False)


def game_name(state: GameState) -> str:
    """How a private reply names a group's game ("Family: "), so a player at two tables knows which; empty
    for a private game."""
    if state.chat_id > 0:
        return ""
    return f"{state.title or 'Your group'}: "


def turn_line(state: GameState) -> str:
    """Whose turn it is, when there is more than one player to take turns."""
    p = state.turn_player
    return f"{p.name} to play." if p is not None and len(state.active_players) > 1 else ""


def players_text(state: GameState) -> str:
    """Seats, the count of tiles on each rack (never the tiles), whose turn it is."""
    lines = []
    for p in state.active_players:
        arrow = " ← to play" if p.user_id == state.turn else ""
        meld = "" if p.melded else ", no meld yet"
        tiles = plural(len(p.rack), "tile") if p.rack_known else "rack not set"
        lines.append(f"{p.seat + 1}. {p.name}: {tiles}{meld}{arrow}")
    return "\n".join(lines) or "No players yet: /join"


def table_header(state: GameState) -> str | None:
    """The picture's heading; none for an empty table, whose picture already says it is empty."""
    tiles = sum(len(s) for s in state.table)
    return f"Table: {plural(len(state.table), 'set')}, {plural(tiles, 'tile')}" if state.table else None


def empty_table(rules: Rules) -> str:
    """The caption under an empty table's picture: how to set it (the picture says it is empty)."""
    return f"No sets yet. Set the table: /table {example_table(rules)}"


def rack_text(player: PlayerState, rules: Rules) -> str:
    if not player.rack:
        return "Your rack is empty."
    return f"Your rack ({plural(len(player.rack), 'tile')}): {tiles_text(player.rack, rules)}"


def rack_answer(player: PlayerState, rules: Rules) -> str:
    """The answer to a rack set (typed or tapped): the rack, and what to do next."""
    hint = "\n/solve for your best play." if player.rack else f"\nSet it: /rack {example_tiles(rules)}"
    return rack_text(player, rules) + hint


def draw_answer(drawn: Sequence[Tile], player: PlayerState, rules: Rules) -> str:
    """The answer to tiles drawn (typed or tapped): what was drawn, and the rack now."""
    return f"Drew {tiles_text(drawn, rules)}.\n" + rack_text(player, rules)


def won_line(name: str) -> str:
    """What the group reads when a player's last tiles went down."""
    return f"{name} has no tile left: {name} won! /end closes the game."


def scores_text(result: GameResult) -> str:
    known = [s for s in result.scores if s.rack_known]
    lines = ["Game over. Points left on each rack:" if known else "Game over."]
    for i, s in enumerate(known, start=1):
        lines.append(f"{i}. {s.name}: {plural(s.points_left, 'point')} ({plural(s.tiles_left, 'tile')})")
    unknown = [s.name for s in result.scores if not s.rack_known]
    if unknown:
        lines.append(f"Rack never set, so no score: {', '.join(unknown)}")
    if not result.scores:
        lines.append("(nobody was playing)")
    return "\n".join(lines)
