"""Between database rows and domain values: read a game row into a ``GameState``,
write a snapshot back onto the rows."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.game.codec import decode_adding, decode_rules, decode_table, decode_tiles
from bot.game.history import Snapshot
from bot.game.state import EventKind, EventRecord, Finish, GameState, GameStatus, PlayerState
from bot.storage.models import Event, Game, Player


def state_of(row: Game) -> GameState:
    return game_state(row, [player_state(p) for p in sorted(row.players, key=lambda p: p.seat)])


def player_state(row: Any) -> PlayerState:
    """A ``PlayerState`` from anything with a player row's columns as attributes (an ORM ``Player`` or a Core row)."""
    return PlayerState(
        user_id=row.user_id,
        name=row.name,
        seat=row.seat,
        rack=decode_tiles(row.rack),
        melded=row.melded,
        tiles_played=row.tiles_played,
        active=row.active,
        rack_size=row.rack_size,
        unnamed=row.unnamed,
        declared=row.declared,
        score=row.score,
    )


def game_state(row: Any, players: Sequence[PlayerState]) -> GameState:
    """A ``GameState`` from anything with a game row's columns as attributes (an ORM ``Game`` or a Core row)."""
    rules = decode_rules(row.rules)
    return GameState(
        id=row.id,
        chat_id=row.chat_id,
        status=GameStatus(row.status),
        rules=rules,
        table=decode_table(row.table_sets, rules),
        players=tuple(players),
        turn=row.turn_user_id,
        invite=row.invite,
        version=row.version,
        created_at=row.created_at,
        ended_at=row.ended_at,
        title=row.title,
        numbers=tuple(row.table_numbers),
        adding=decode_adding(row.adding, rules),
        passes=row.passes,
        finish=Finish(row.finish) if row.finish is not None else None,
        winner=row.winner_user_id,
    )


def write(row: Game, snap: Snapshot, now: datetime) -> None:
    """Make the rows say what the snapshot says, and bump the version (the optimistic lock)."""
    row.status = snap["status"]
    row.turn_user_id = snap["turn"]
    row.table_sets = [list(s) for s in snap["table"]]
    row.table_numbers = list(snap["numbers"])
    row.adding = snap["adding"]
    row.passes = snap["passes"]
    row.finish = snap["finish"]
    row.winner_user_id = snap["winner"]
    row.ended_at = datetime.fromisoformat(snap["ended_at"]) if snap["ended_at"] else None
    row.updated_at = now
    row.version = row.version + 1
    wanted: dict[str, Any] = snap["players"]
    for gone in [p for p in row.players if str(p.user_id) not in wanted]:
        row.players.remove(gone)
    have = {str(p.user_id): p for p in row.players}
    for uid, values in wanted.items():
        p = have.get(uid)
        if p is None:
            p = have[uid] = Player(user_id=int(uid), joined_at=now)
            row.players.append(p)
        p.name = values["name"]
        p.seat = values["seat"]
        p.rack = list(values["rack"])
        p.melded = values["melded"]
        p.tiles_played = values["tiles_played"]
        p.active = values["active"]
        p.rack_size = values["rack_size"]
        p.unnamed = values["unnamed"]
        p.declared = values["declared"]
        p.score = values["score"]


def record_of(row: Event, undone: bool) -> EventRecord:
    return EventRecord(
        id=row.id,
        game_id=row.game_id,
        kind=EventKind(row.kind),
        user_id=row.user_id,
        at=row.at,
        detail=dict(row.detail),
        undone=undone,
        undoes=row.undoes_id,
    )
