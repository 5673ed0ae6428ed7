"""Undo by diff: every event stores each value it changed, before and after.

A game is reduced to a JSON snapshot (the table, whose turn, the status, each
player's seat, rack and flags). An event's diff is the difference of the
snapshots around it, so every kind of change, present or future, undoes the
same way: put back the "before" values, once we have checked the game still
holds the "after" ones (otherwise a later change touched them and undoing this
one out of order would silently destroy it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.game.codec import decode_adding, decode_table, decode_tiles, encode_adding, encode_table, encode_tiles
from bot.game.state import Finish, GameState, GameStatus, PlayerState

Snapshot = dict[str, Any]
Diff = dict[str, Any]
GAME_FIELDS = ("status", "turn", "table", "numbers", "adding", "passes", "finish", "winner", "ended_at")
PLAYER_FIELDS = (
    "name", "seat", "rack", "rack_size", "unnamed", "melded", "tiles_played", "active", "declared", "score"
)  # fmt: skip


def snapshot(state: GameState) -> Snapshot:
    """The parts of a game that events change, as plain JSON."""
    return {
        "status": state.status.value,
        "turn": state.turn,
        "table": encode_table(state.table),
        "numbers": list(state.numbers),
        "adding": encode_adding(state.adding),
        "passes": state.passes,
        "finish": state.finish.value if state.finish is not None else None,
        "winner": state.winner,
        "ended_at": state.ended_at.isoformat() if state.ended_at else None,
        "players": {str(p.user_id): _player(p) for p in state.players},
    }


def _player(p: PlayerState) -> dict[str, Any]:
    return {
        "name": p.name,
        "seat": p.seat,
        "rack": encode_tiles(p.rack),
        "rack_size": p.rack_size,
        "unnamed": p.unnamed,
        "melded": p.melded,
        "tiles_played": p.tiles_played,
        "active": p.active,
        "declared": p.declared,
        "score": p.score,
    }


def restore(base: GameState, snap: Snapshot) -> GameState:
    """``base`` (for id, chat, rules...) with the snapshot's values."""
    players = tuple(
        PlayerState(
            user_id=int(uid),
            name=p["name"],
            seat=p["seat"],
            rack=decode_tiles(p["rack"]),
            melded=p["melded"],
            tiles_played=p["tiles_played"],
            active=p["active"],
            # a player's values stored before a game kept counts (an old event's diff): the rack was the count
            rack_size=p.get("rack_size", len(p["rack"])),
            unnamed=p.get("unnamed", 0),
            declared=p.get("declared", False),
            score=p.get("score"),
        )
        for uid, p in snap["players"].items()
    )
    return GameState(
        id=base.id,
        chat_id=base.chat_id,
        status=GameStatus(snap["status"]),
        rules=base.rules,
        table=decode_table(snap["table"], base.rules),
        players=tuple(sorted(players, key=lambda p: p.seat)),
        turn=snap["turn"],
        invite=base.invite,
        version=base.version,
        created_at=base.created_at,
        ended_at=datetime.fromisoformat(snap["ended_at"]) if snap["ended_at"] else None,
        title=base.title,
        numbers=tuple(snap.get("numbers", ())),
        adding=decode_adding(snap.get("adding"), base.rules),
        passes=snap.get("passes", 0),
        finish=Finish(snap["finish"]) if snap.get("finish") is not None else None,
        winner=snap.get("winner"),
    )


def diff(before: Snapshot, after: Snapshot) -> Diff:
    """What changed: ``{"game": {field: [old, new]}, "players": {uid: {field: [old, new]}},
    "added": {uid: player}, "removed": {uid: player}}``; empty sections are left out."""
    out: Diff = {}
    game = {f: [before[f], after[f]] for f in GAME_FIELDS if before[f] != after[f]}
    old, new = before["players"], after["players"]
    players = {}
    for uid in old.keys() & new.keys():
        changed = {f: [old[uid][f], new[uid][f]] for f in PLAYER_FIELDS if old[uid][f] != new[uid][f]}
        if changed:
            players[uid] = changed
    added = {uid: new[uid] for uid in new.keys() - old.keys()}
    removed = {uid: old[uid] for uid in old.keys() - new.keys()}
    for name, part in (("game", game), ("players", players), ("added", added), ("removed", removed)):
        if part:
            out[name] = part
    return out


def reverse(d: Diff) -> Diff:
    """The diff that takes the change back."""
    out: Diff = {}
    if "game" in d:
        out["game"] = {f: [new, old] for f, (old, new) in d["game"].items()}
    if "players" in d:
        out["players"] = {uid: {f: [new, old] for f, (old, new) in ch.items()} for uid, ch in d["players"].items()}
    if "removed" in d:
        out["added"] = d["removed"]
    if "added" in d:
        out["removed"] = d["added"]
    return out


def conflicts(snap: Snapshot, d: Diff) -> set[str]:
    """Keys (``table``, ``player:<uid>:rack``...) where the snapshot does not hold the diff's "before" values."""
    bad: set[str] = set()
    for f, (old, _new) in d.get("game", {}).items():
        if snap[f] != old:
            bad.add(f)
    players = snap["players"]
    for uid, changed in d.get("players", {}).items():
        for f, (old, _new) in changed.items():
            if uid not in players or players[uid][f] != old:
                bad.add(f"player:{uid}:{f}")
    for uid in d.get("added", {}):
        if uid in players:
            bad.add(f"player:{uid}")
    for uid, p in d.get("removed", {}).items():
        now = players.get(uid)
        if now is None or {f: now.get(f) for f in p} != p:  # (an old event's player holds fewer values)
            bad.add(f"player:{uid}")
    return bad


def touched(d: Diff) -> set[str]:
    """Every key a diff changes, in the form ``conflicts`` reports."""
    keys = set(d.get("game", {}))
    for uid, changed in d.get("players", {}).items():
        keys.update(f"player:{uid}:{f}" for f in changed)
    for uid in (*d.get("added", {}), *d.get("removed", {})):
        keys.add(f"player:{uid}")
        keys.update(f"player:{uid}:{f}" for f in PLAYER_FIELDS)
    return keys


def apply(snap: Snapshot, d: Diff) -> Snapshot:
    """The snapshot with the diff's "after" values (check ``conflicts`` first)."""
    out = {**snap, "players": {uid: dict(p) for uid, p in snap["players"].items()}}
    for f, (_old, new) in d.get("game", {}).items():
        out[f] = new
    for uid, changed in d.get("players", {}).items():
        for f, (_old, new) in changed.items():
            out["players"][uid][f] = new
    for uid in d.get("removed", {}):
        del out["players"][uid]
    for uid, p in d.get("added", {}).items():
        out["players"][uid] = dict(p)
    return out
