"""Captions, short answers and buttons: how the bot's replies read.

Captions stay under Telegram's 1024 characters; a move list that would not
fit ends with how many moves were left out. Nothing here ever prints a rack
unless the caller is answering that rack's owner in private.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.game import Finish, GameState, PlayerState
from bot.game.ending import scores, waiting_for
from bot.telegram import callbacks
from bot.telegram.chats import SHARED
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.links import deep_link
from bot.telegram.words import coach
from bot.telegram.words.language import _, n_, spoken
from bot.telegram.words.rules import example_draw, example_table, example_tiles
from render.scores import score_text
from solver.notation import format_tiles
from solver.rules import Rules
from solver.solution import Objective, Solution
from solver.text import N_, Text
from solver.tiles import Tile


def count_tiles(n: int) -> str:
    return n_("{n} tile", "{n} tiles", n).format(n=n)


def count_points(n: int) -> str:
    return n_("{n} point", "{n} points", n).format(n=n)


def tiles_and_points(tiles: int, points: int) -> str:
    """ "5 tiles, 23 points" """
    return _("{tiles}, {points}").format(tiles=count_tiles(tiles), points=count_points(points))


def tiles_text(tiles: Sequence[Tile], rules: Rules) -> str:
    return format_tiles(tiles, rules) or _("(none)")


def placed_text(solution: Solution) -> str:
    """The tiles a play puts down, set by set in the order of the new table (a set's tiles in its order), so
    they can be found on the picture: "3R 4R 5R J | 7B"."""
    sets = []
    for tile_set, origins in zip(solution.table, solution.origins, strict=True):
        mine = [t for t, o in zip(tile_set.tiles, origins, strict=True) if o.from_rack]
        if mine:
            sets.append(" ".join(str(t) for t in mine))
    return " | ".join(sets) or _("no tile")


def summary(solution: Solution) -> str:
    points = solution.objective is Objective.POINTS
    if solution.initial_meld:
        what = _("Best opening (most points)") if points else _("Best opening (most tiles)")
    else:
        what = _("Best play (most points)") if points else _("Best play (most tiles)")
    figures = tiles_and_points(solution.tiles_placed, solution.points_placed)
    line = f"{what}: {figures}: {placed_text(solution)}"
    if not solution.optimal:
        line += "\n" + _("(best found in the time allowed; there may be better)")
    return line


def solve_caption(solution: Solution, moves: Sequence[str | Text], note: str = "", *, head: str | None = None) -> str:
    """Summary (or ``head``), numbered moves, rack left (and a ``note`` after it, kept whole); cut to fit a photo
    caption."""
    head = summary(solution) if head is None else head
    tail = rack_left(solution) + (f"\n{note}" if note else "")
    lines: list[str] = []
    for i, move in enumerate(moves, start=1):
        line = f"{i}. {spoken(move)}"
        rest = len(moves) - i
        more = _more_moves(rest) if rest else ""
        body = "\n".join([head, *lines, line, more, tail])
        if len(body) > CAPTION_LIMIT:
            lines.append(_more_moves(len(moves) - i + 1))
            break
        lines.append(line)
    text = "\n".join([head, *lines, tail])
    return text[:CAPTION_LIMIT]


def _more_moves(n: int) -> str:
    return n_("… and {n} more move", "… and {n} more moves", n).format(n=n)


def rack_left(solution: Solution) -> str:
    """What the play leaves on the rack; a play that empties it says so."""
    if not solution.rack_left:
        return _("Your rack is empty after this play.")
    return _("Rack left: {tiles}").format(tiles=tiles_text(solution.rack_left, solution.rules))


def no_play(solution: Solution, onto_table: Solution | None = None, *, explain: bool = True) -> str:
    """No play: draw. ``explain``: say how to tell the tile drawn (once a game is enough)."""
    rack = tiles_text(solution.rack_left, solution.rules)
    if explain:
        draw = _("Draw a tile: /draw {tile} (your turn ends).").format(tile=example_draw(solution.rules))
    else:
        draw = _("Draw a tile.")
    if solution.initial_meld:
        meld = solution.rules.initial_meld
        opening = n_(
            "No opening worth {n} point from your rack yet ({rack}).",
            "No opening worth {n} points from your rack yet ({rack}).",
            meld,
        ).format(n=meld, rack=rack)
        opening = f"{opening} {draw}\n"
        if onto_table is not None:
            return opening + melded_note(onto_table)
        return opening.rstrip("\n")
    return _("No play with your rack ({rack}).").format(rack=rack) + f" {draw}"


def objective_code(objective: Objective) -> str:
    return "p" if objective is Objective.POINTS else "t"


def objective_of(code: str) -> Objective:
    return Objective.POINTS if code == "p" else Objective.TILES


def solve_buttons(
    game_id: int, solution: Solution, fingerprint: str, *, melded: bool = False, simpler: bool = False
) -> InlineKeyboardMarkup:
    """ "I played this", the other objective, (``melded``) the play onto the table instead of an opening, the
    unseen tiles, and (``simpler``: the play takes more than three moves) a simpler play."""
    code = objective_code(solution.objective)
    other = Objective.TILES if solution.objective is Objective.POINTS else Objective.POINTS
    label = _("Most tiles instead") if other is Objective.TILES else _("Most points instead")
    rows = [
        [InlineKeyboardButton(_("✅ I played this"), callback_data=callbacks.played_this(game_id, code, fingerprint))],
        [InlineKeyboardButton(label, callback_data=callbacks.other_objective(game_id, objective_code(other)))],
    ]
    if melded:
        rows.append(melded_row(game_id, solution.objective))
    coach_row = [InlineKeyboardButton(_(coach.UNSEEN_BUTTON), callback_data=callbacks.unseen(game_id))]
    if simpler:
        data = callbacks.simpler(game_id, code, fingerprint)
        coach_row.append(InlineKeyboardButton(_(coach.SIMPLER_BUTTON), callback_data=data))
    rows.append(coach_row)
    return InlineKeyboardMarkup(rows)


def hint_buttons() -> InlineKeyboardMarkup:
    """Under a rack set in private: a hint (the least first) rather than the whole play."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(_(coach.HINT_BUTTON), callback_data=callbacks.go("hint"))]])


def unseen_buttons(game_id: int) -> InlineKeyboardMarkup:
    """Under an answer without a play: the tiles unseen, and which of them would let the player play."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(_(coach.UNSEEN_BUTTON), callback_data=callbacks.unseen(game_id))]]
    )


def how_did_row(token: str, index: int, *, shared: bool = False) -> list[InlineKeyboardButton]:
    """How did I do? under a play: in the player's chat, or under the group's post (answered in private)."""
    if shared:
        button = InlineKeyboardButton(_(coach.HOW_PRIVATELY), callback_data=callbacks.how_did(token, index, SHARED))
        return [button]
    return [InlineKeyboardButton(_(coach.HOW_BUTTON), callback_data=callbacks.how_did(token, index))]


def review_row(game_id: int, *, shared: bool = False) -> list[InlineKeyboardButton]:
    """The game's review: in the player's chat, or under the group's last post (sent to each player in private)."""
    if shared:
        return [InlineKeyboardButton(_(coach.REVIEW_PRIVATELY), callback_data=callbacks.review(game_id, SHARED))]
    return [InlineKeyboardButton(_(coach.REVIEW_BUTTON), callback_data=callbacks.review(game_id))]


def with_rows(markup: InlineKeyboardMarkup | None, *rows: list[InlineKeyboardButton]) -> InlineKeyboardMarkup | None:
    """``markup`` with ``rows`` below it (none: as it was)."""
    added = [row for row in rows if row]
    if not added:
        return markup
    before = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    return InlineKeyboardMarkup([*before, *added])


MELDED_BUTTON = N_("I have melded: play onto the table")


def melded_row(game_id: int, objective: Objective) -> list[InlineKeyboardButton]:
    data = callbacks.melded_instead(game_id, objective_code(objective))
    return [InlineKeyboardButton(_(MELDED_BUTTON), callback_data=data)]


def melded_buttons(game_id: int, objective: Objective) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([melded_row(game_id, objective)])


def melded_note(onto_table: Solution) -> str:
    """Under an opening: what playing onto the table would put down, for a player who has melded already."""
    figures = tiles_and_points(onto_table.tiles_placed, onto_table.points_placed)
    more = _("Made your initial meld already? Playing onto the table puts down more ({figures}): tap {button}.")
    return more.format(figures=figures, button=_(MELDED_BUTTON))


def melded_noted() -> str:
    return _("Noted: you have made your initial meld.")


def same_play(objective: Objective) -> str:
    """The other objective's best play is the one already shown: said, not sent again."""
    if objective is Objective.POINTS:
        return _("The play with the most points is the same one: tap ✅ I played this above to record it.")
    return _("The play with the most tiles is the same one: tap ✅ I played this above to record it.")


def group_buttons(bot_username: str, invite: str, *, join: bool) -> InlineKeyboardMarkup:
    """Join (in the group) and the deep link to the player's private chat, already tied to this game."""
    row = [InlineKeyboardButton(_("🔒 My rack"), url=deep_link(bot_username, invite))]
    if join:
        row.insert(0, InlineKeyboardButton(_("🙋 Join"), callback_data=callbacks.JOIN))
    return InlineKeyboardMarkup([row])


def rack_button(bot_username: str, invite: str) -> InlineKeyboardMarkup:
    return group_buttons(bot_username, invite, join=False)


def game_name(state: GameState) -> str:
    """How a private reply names a group's game ("Family: "), so a player at two tables knows which; empty
    for a private game."""
    if state.chat_id > 0:
        return ""
    return (state.title or _("Your group")) + ": "


def turn_line(state: GameState) -> str:
    """Whose turn it is, when there is more than one player to take turns, and in a group's game the tiles left
    in the pool."""
    p = state.turn_player
    if p is None or len(state.active_players) < 2 or not state.playing:
        return ""
    turn = _("{name} to play.").format(name=p.name)
    return f"{turn} {pool_line(state)}" if state.is_group else turn


def pool_line(state: GameState) -> str:
    """ "52 tiles in the pool." (an empty pool: a turn without a play is a pass)"""
    if state.pool == 0:
        return _("The pool is empty: a turn without a play is a pass (/pass).")
    return n_("{n} tile in the pool.", "{n} tiles in the pool.", state.pool).format(n=state.pool)


def players_text(state: GameState) -> str:
    """Seats, the count of tiles on each rack (never the tiles), whose turn it is, the pool."""
    lines = []
    for p in state.active_players:
        arrow = " " + _("← to play") if p.user_id == state.turn else ""
        meld = _(", no meld yet") if not p.melded else ""
        lines.append(f"{p.seat + 1}. {p.name}: {count_tiles(p.rack_size)}{meld}{arrow}")
    if not lines:
        return _("No players yet: /join")
    if state.is_group and state.playing:
        lines.append(pool_line(state))
    return "\n".join(lines)


def table_header(state: GameState) -> str | None:
    """The picture's heading; none for an empty table, whose picture already says it is empty."""
    tiles = sum(len(s) for s in state.table)
    if not state.table:
        return None
    sets = n_("{n} set", "{n} sets", len(state.table)).format(n=len(state.table))
    return _("Table: {sets}, {tiles}").format(sets=sets, tiles=count_tiles(tiles))


def empty_table(rules: Rules) -> str:
    """The caption under an empty table's picture: how to set it (the picture says it is empty)."""
    return _("No sets yet. Set the table: /table {sets}").format(sets=example_table(rules))


def rack_text(player: PlayerState, rules: Rules) -> str:
    if not player.rack:
        return _("Your rack is empty.")
    n = len(player.rack)
    rack = n_("Your rack ({n} tile): {tiles}", "Your rack ({n} tiles): {tiles}", n)
    return rack.format(n=n, tiles=tiles_text(player.rack, rules))


def rack_answer(player: PlayerState, rules: Rules, *, explain: bool = True) -> str:
    """The answer to a rack set (typed or tapped): the rack, and what to do next (``explain``: the advice
    to /solve, said once a game)."""
    if not player.rack:
        return f"{rack_text(player, rules)}\n" + _("Set it: /rack {tiles}").format(tiles=example_tiles(rules))
    if not explain:
        return rack_text(player, rules)
    return f"{rack_text(player, rules)}\n" + _("/solve for your best play.")


def won_line(name: str, *, you: bool = False) -> str:
    """What is said when a player's last tiles went down (``you``: to them, in their own chat)."""
    if you:
        return _("You have no tile left: you win!")
    return _("{name} has no tile left: {name} wins!").format(name=name)


def finish_text(state: GameState, reader: int | None = None) -> str:
    """How the game came to its end, and what it waits for now (the racks left, for the score). ``reader``:
    whose own chat it is said in (they are "you")."""
    winner = state.player(state.winner) if state.winner is not None else None
    if state.finish is Finish.OUT and winner is not None:
        head = won_line(winner.name, you=winner.user_id == reader)
    elif state.finish is Finish.BLOCKED:
        head = _("Nobody can play on: the pool is empty and every player passed. The lowest rack wins.")
    else:
        head = _("The game is stopped. The lowest rack wins.")
    if not state.running:
        return head
    return f"{head}\n{waiting_line(state)}"


def waiting_line(state: GameState) -> str:
    """Who still has to tell the tiles left on their rack, and how."""
    names = ", ".join(p.name for p in waiting_for(state))
    return _(
        "{names}: tell me the tiles left on your rack, like /left 7R 8K J (or tap below if I know your rack)."
    ).format(names=names)


def declared_line(player: PlayerState, rules: Rules, *, you: bool = False) -> str:
    """ "Ben has 38 points left: 7R 8K J." (told in the group at the end of a game: racks are shown then);
    ``you``: said to the player in their own chat."""
    points = rules.rack_value(player.rack)
    if not player.rack:
        return _("You have no tile left.") if you else _("{name} has no tile left.").format(name=player.name)
    line = _("You have {points} left: {tiles}.") if you else _("{name} has {points} left: {tiles}.")
    return line.format(name=player.name, points=count_points(points), tiles=tiles_text(player.rack, rules))


def scored_text(state: GameState) -> str:
    """A scored game: who won, each player's score by the box (or that too few racks were told to score it)."""
    rows = scores(state)
    unscored = [p.name for p in state.active_players if p.score is None and not p.declared and not p.rack_known]
    if not rows:
        lines = [_("Game over: too few racks were told to score it.")]
    else:
        lines = [_("Game over. {name} wins.").format(name=rows[0].name) if rows[0].won else _("Game over.")]
        lines.extend(f"{s.name}: {score_text(s.score, plus=True)}" for s in rows)
    if unscored and len(state.active_players) > 1:
        lines.append(_("No score (rack never told): {names}").format(names=", ".join(unscored)))
    if rows:
        lines.append(_("/scores shows the totals."))
    return "\n".join(lines)


DREW_BUTTON = N_("🎴 I drew a tile")


def turn_buttons(state: GameState) -> InlineKeyboardMarkup | None:
    """Under a group's post that names whose turn it is: the player tells a draw with one tap."""
    if not state.is_group or not state.playing or len(state.active_players) < 2:
        return None
    label = _(DREW_BUTTON) if state.pool else _("⏭ I pass (the pool is empty)")
    if state.turn is None:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=callbacks.drew(state.id, state.turn))]])


def end_buttons(state: GameState) -> InlineKeyboardMarkup | None:
    """Under a finished game's posts: the rack as the bot knows it, told with a tap; once scored, the scores
    and a new game with the same players."""
    if state.running and state.finish is not None:
        tell = InlineKeyboardButton(
            _("📋 My rack as you have it"), callback_data=callbacks.game_button(callbacks.RACK_LEFT, state.id)
        )
        return InlineKeyboardMarkup([[tell]])
    if not state.running and state.is_group:
        rows = [
            [InlineKeyboardButton(_("📊 Scores"), callback_data=callbacks.game_button(callbacks.SCORES, state.id))],
            [
                InlineKeyboardButton(
                    _("🔁 New game, same players"),
                    callback_data=callbacks.game_button(callbacks.SAME_PLAYERS, state.id),
                )
            ],
            review_row(state.id, shared=True),
        ]
        return InlineKeyboardMarkup(rows)
    return None


def drew_text(name: str, count: int) -> str:
    """What the group reads of a draw (never the tile)."""
    return n_("{name} drew a tile.", "{name} drew {n} tiles.", count).format(name=name, n=count)


def passed_text(name: str) -> str:
    return _("{name} passes (the pool is empty).").format(name=name)
