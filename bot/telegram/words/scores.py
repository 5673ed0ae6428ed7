"""A chat's scores in words and as a sheet for the picture: this game, the running totals, games won."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import GameState
from bot.game.ending import scores as game_scores
from bot.storage.scores import Total
from bot.telegram.limits import CAPTION_LIMIT
from bot.telegram.words import replies
from bot.telegram.words.language import _, n_, right_to_left
from render.scores import ScoreSheet, score_text


def text(state: GameState, totals: Sequence[Total]) -> str:
    """The caption: this game's score (or what it waits for), then the totals with the games won."""
    lines = [_this_game(state)]
    if totals:
        played = max(t.games for t in totals)
        lines.append(n_("Totals after {n} game:", "Totals after {n} games:", played).format(n=played))
        for t in totals:
            won = n_("{n} won", "{n} won", t.won).format(n=t.won)
            lines.append(f"{t.name}: {score_text(t.points, plus=True)} ({won})")
    else:
        lines.append(_("No game of this chat has been scored yet."))
    return "\n".join(lines)[:CAPTION_LIMIT]


def _this_game(state: GameState) -> str:
    if state.running and state.finish is None:
        return _("This game is still on.")
    if state.running:
        return replies.finish_text(state)
    rows = game_scores(state)
    if not rows:
        return _("This game ended without a score.")
    parts = [f"{s.name} {score_text(s.score, plus=True)}" for s in rows]
    return _("This game: {scores}.").format(scores=", ".join(parts))


def sheet(state: GameState, totals: Sequence[Total]) -> ScoreSheet:
    """The picture's table: a row per player of this game or of the totals, this game's winner ringed."""
    this = {s.user_id: s for s in game_scores(state)} if not state.running else {}
    by_user = {t.user_id: t for t in totals}
    order = [t.user_id for t in totals] + [p.user_id for p in state.active_players if p.user_id not in by_user]
    names = {t.user_id: t.name for t in totals} | {p.user_id: p.name for p in state.players}
    rows = []
    for uid in order:
        game = this.get(uid)
        total = by_user.get(uid)
        rows.append(
            (
                names[uid],
                score_text(game.score, plus=True) if game is not None else "",
                score_text(total.points, plus=True) if total is not None else "",
                str(total.won) if total is not None else "0",
            )
        )
    winner = next((i for i, uid in enumerate(order) if uid == state.winner and not state.running), None)
    leader = 0 if totals else None
    return ScoreSheet(
        title=_("Scores"),
        columns=(_("Player"), _("This game"), _("Total"), _("Games won")),
        rows=tuple(rows) or ((_("(nobody)"), "", "", ""),),
        winner=winner,
        leader=leader,
        right_to_left=right_to_left(),
    )
