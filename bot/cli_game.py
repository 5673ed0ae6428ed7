"""`python -m bot game CHAT_ID [--json]`: a chat's current game, read from the database, for an operator.

The current game is the chat's running game, else its newest ended one. The URL is ``DATABASE_URL`` from
the settings unless ``--url`` is given. Reading only: nothing is migrated, locked or written, and a SQLite
file that does not exist is reported rather than created.

``--json`` prints one object: ``chat_id``, ``status`` ("open" or "ended"), ``rules`` (the rule fields,
``numbers`` ... ``deal``), ``table`` (each set a string in canonical notation), ``set_numbers`` (beside
``table``: each set's number in the game), ``turn`` (a user id or null), ``pool`` (tiles still face down:
the deck less the table and every seated player's rack), ``adding`` (the player who may still add to the
play they just made, or null), ``passes`` (turns passed in a row on an empty pool), ``finish`` (null while
the game is played; "out", "blocked" or "stopped" once it is over), ``winner`` (a user id or null),
``players`` (the seated players in seat order, each ``user_id``, ``name``, ``rack`` as a list of canonical
tile strings (the tiles the bot knows), ``rack_size`` (the tiles on the rack at the table), ``unnamed``
(tiles drawn in the group not yet named), ``melded``, ``declared`` (told their rack for the score) and
``score`` (this game's, once scored, else null)), ``totals`` (the chat's scored games summed per player:
``user_id``, ``name``, ``points``, ``games``, ``won``), ``changes`` (events in the game's history, undo
entries included) and, for a private chat (a positive id), ``tied_to``: the chat id of the game the user's
private chat is tied to, or null.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from bot.game.codec import encode_rules
from bot.game.state import GameState, PlayerState
from bot.settings import Settings
from bot.storage.database import open_database, sqlite_file
from bot.storage.overview import Overview, overview
from solver.notation import format_set, format_tiles


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser(
        "game",
        help="show a chat's current game from the database",
        description="Show a chat's running game (else its newest ended one): rules, table, players, turn.",
    )
    p.add_argument("chat_id", type=int, metavar="CHAT_ID", help="the chat's Telegram id (a group's is negative)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--url", help="database URL (default: DATABASE_URL from the settings)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url: str = args.url or Settings().database_url
    try:
        parsed = make_url(url)
    except ArgumentError:
        return _fail(f"not a database URL: {url}")
    file = sqlite_file(parsed)
    if file is not None and not file.exists():
        return _fail(f"no database at {file} (set DATABASE_URL or --url)")
    try:
        found = asyncio.run(_read(url, args.chat_id))
    except SQLAlchemyError as why:
        return _fail(f"cannot read the database at {parsed.render_as_string()}: {why.__class__.__name__}: {why}")
    if found is None:
        return _fail(f"chat {args.chat_id} has no game")
    print(json.dumps(as_json(found), ensure_ascii=False) if args.json else as_text(found))
    return 0


async def _read(url: str, chat_id: int) -> Overview | None:
    db = open_database(url)
    try:
        return await overview(db, chat_id)
    finally:
        await db.dispose()


def _fail(message: str) -> int:
    print(f"python -m bot game: {message}", file=sys.stderr)
    return 1


def status_word(state: GameState) -> str:
    return "open" if state.running else "ended"


def seated(state: GameState) -> list[PlayerState]:
    """The players at the table, in seat order (those who left are not shown: their racks are gone)."""
    return sorted(state.active_players, key=lambda p: p.seat)


def as_json(found: Overview) -> dict[str, Any]:
    state = found.state
    out: dict[str, Any] = {
        "chat_id": state.chat_id,
        "status": status_word(state),
        "rules": encode_rules(state.rules),
        "table": [format_set(s) for s in state.table],
        "set_numbers": list(state.numbers),
        "turn": state.turn,
        "pool": state.pool,
        "adding": state.adding.player if state.adding is not None else None,
        "passes": state.passes,
        "finish": state.finish.value if state.finish is not None else None,
        "winner": state.winner,
        "players": [
            {
                "user_id": p.user_id,
                "name": p.name,
                "rack": [str(t) for t in p.rack],
                "rack_size": p.rack_size,
                "unnamed": p.unnamed,
                "melded": p.melded,
                "declared": p.declared,
                "score": p.score,
            }
            for p in seated(state)
        ],
        "totals": [
            {"user_id": t.user_id, "name": t.name, "points": t.points, "games": t.games, "won": t.won}
            for t in found.totals
        ],
        "changes": found.changes,
    }
    if state.chat_id > 0:
        out["tied_to"] = found.tied_to
    return out


def _numbered(state: GameState) -> str:
    return " | ".join(f"{n}: {s}" for n, s in zip(state.numbers, state.table, strict=True))


def as_text(found: Overview) -> str:
    state = found.state
    lines = [
        f"Game {state.id} in chat {state.chat_id}: {status_word(state)}, {found.changes} changes",
        f"Rules: {state.rules.describe()}",
        f"Table: {_numbered(state) if state.table else '(empty)'}",
        f"Pool: {state.pool} tiles" + (f"; {state.finish.value}, racks told for the score" if state.finish else ""),
        "Players:" if state.active_players else "Players: nobody is seated",
    ]
    for p in seated(state):
        rack = format_tiles(p.rack, state.rules) if p.rack else "(empty)"
        if p.unknown:
            rack += f" and {p.unknown} unknown"
        meld = "melded" if p.melded else "no meld yet"
        to_play = "  <- to play" if p.user_id == state.turn and state.running else ""
        count = f"{p.rack_size} tile{'' if p.rack_size == 1 else 's'}"
        score = f", scored {p.score:+d}" if p.score is not None else ""
        lines.append(f"  {p.seat + 1}. {p.name} ({p.user_id}): {count}, {meld}{score}: {rack}{to_play}")
    if found.totals:
        lines.append("Totals: " + ", ".join(f"{t.name} {t.points:+d} ({t.won} won)" for t in found.totals))
    if state.chat_id > 0:
        lines.append(f"Tied to: {'chat ' + str(found.tied_to) if found.tied_to is not None else 'nothing'}")
    return "\n".join(lines)
