"""A stateful property test of the game core: random whole games through ``GameService`` on a real SQLite file.

Hypothesis seats two to four players at a group's table and plays: joins and leaves (a rack dealt off the
pool, given back to it), racks told, draws told in the group (counted, named later in private) or in private
with their tile, passes on an emptied pool, plays (openings of 30 from the rack in new sets, sets grown, new
sets, a play added to in a second part of the same turn, a play recorded by another player for the player
whose turn it is, a play out of turn, a whole rack laid down to go out), plays the rules refuse, table
corrections, undos (one's own, and someone else's confirmed), the players stopping or closing the game, the
racks declared at the end and the score by the box. Once a game is finished, most steps go on with its end
(``settle``): the racks told, the game closed, its end undone, or a new game with the same seats.

Every tile it tells the bot is real: racks, drawn tiles and declared racks come off the tiles nobody is known
to hold (``free``: the deck less the table and every rack the bot knows), so there is always a deal of the
hidden tiles that makes the game the bot holds a true one. A few commands say something untrue on purpose (a
rack told with a tile another rack is known to hold, a correction that takes one): the newest word wins,
and the older rack gives the tile up.

The machine keeps a model of the game (``Model``: the rules written again, on the game's snapshot as the
history stores it) and after every command checks:

- the command did what the model says, whole: the table and its set numbers, every player's rack, count,
  tiles to name, flags and score, whose turn it is, the play that may grow, the passes, the finish, the
  winner; or it was refused with the ``GameError`` the model names;
- a refused command changed nothing: not the state, not the version, not the history; and no command ever
  needs the service's last guard (``BrokenRecord``); a change counts one version per event;
- a set that lies unchanged keeps its number (but through a correction, which numbers the table anew);
- undo of the latest change restores the game before it exactly; undo of an older one puts back each value
  that change made and leaves the rest (a rack it gives back is the newest word);

and after every step the invariants of the whole game: ``broken(state) == []``, the table valid sets, no tile
in the game (table and known racks) more often than the deck holds, the pool never below nothing, exactly one
seated player's turn while the game is played and none once it is finished, set numbers distinct, and a
scored game's scores summing to zero (the winner the sum of the others' racks, each other player minus their
own), the chat's totals saying the same.

A CI run plays a dozen games of 35 steps (``GAME_MACHINE_EXAMPLES``, ``GAME_MACHINE_STEPS`` for a deeper
search).
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import os
import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import hypothesis.strategies as st
from hypothesis import HealthCheck, event, settings
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bot.game import GameError, GameState, GameStatus, Played
from bot.game import errors as e
from bot.game import history as changes
from bot.game.codec import decode_tile
from bot.game.invariants import broken
from bot.game.state import Undone
from bot.game.turns import Drawn
from bot.storage import GameService, open_database
from bot.storage.database import Database
from solver import JOKER, STANDARD, Colour, Kind, SetError, Tile, TileSet, make_set
from tests.storage_support import add_sets, count_events, history, leave, migrated

T = TypeVar("T")

USERS: dict[int, str] = {101: "Alice", 202: "Bob", 303: "Carol", 404: "Dave"}
OUTSIDER = 909
GROUP = -1009876543210
RULES = STANDARD
MELD = RULES.initial_meld


def check(name: str, ok: bool, message: str) -> None:
    """One named check: its name says what failed, the message how."""
    if not ok:
        raise AssertionError(f"{name}: {message}")


# --- tiles, the deck and sets ---------------------------------------------------------------------------

Snap = dict[str, Any]


def full_deck() -> Counter[Tile]:
    """Every tile of the boxed game: 1-13 in four colours, two copies, two jokers."""
    deck: Counter[Tile] = Counter({t: RULES.copies_of(t) for t in RULES.tiles()})
    deck[JOKER] = RULES.jokers
    return deck


DECK = full_deck()


def key(t: Tile) -> tuple[int, int]:
    return RULES.tile_key(t)


def codes(tiles: Iterable[Tile]) -> list[str]:
    """Tiles as the snapshot holds a rack: canonical codes, sorted colour by colour, low to high."""
    return [str(t) for t in sorted(tiles, key=key)]


def decoded(items: Iterable[str]) -> list[Tile]:
    return [decode_tile(c) for c in items]


def counted(items: Iterable[str]) -> Counter[Tile]:
    return Counter(decoded(items))


def words(tiles: Counter[Tile]) -> str:
    return " ".join(codes(tiles.elements())) or "-"


def rack_value(tiles: Iterable[Tile]) -> int:
    """A rack's worth at the end, by the box: a tile its number, a joker 30."""
    return sum(30 if t.is_joker else t.number for t in tiles)


def shapes() -> list[tuple[Tile, ...]]:
    """Runs of three to five and groups of three or four, as tiles (without jokers)."""
    out: list[tuple[Tile, ...]] = []
    for c in RULES.colour_order:
        for length in (3, 4, 5):
            out.extend(tuple(Tile(n, c) for n in range(start, start + length)) for start in range(1, 15 - length))
    for n in range(1, RULES.numbers + 1):
        for size in (3, 4):
            out.extend(
                tuple(Tile(n, c) for c in colours) for colours in itertools.combinations(RULES.colour_order, size)
            )
    return out


SHAPES = [(shape, Counter(shape)) for shape in shapes()]


@cache
def laid(tiles: tuple[Tile, ...]) -> TileSet:
    return make_set(tiles, RULES)


def within(need: Counter[Tile], have: Counter[Tile]) -> bool:
    return all(have[t] >= n for t, n in need.items())


def sets_in(tiles: Counter[Tile]) -> list[TileSet]:
    """Every set ``tiles`` can make from a shape (a joker standing in for one tile at most), highest first."""
    found: list[TileSet] = []
    for shape, need in SHAPES:
        if within(need, tiles):
            found.append(laid(shape))
        elif tiles[JOKER]:
            for i in range(len(shape)):
                with_joker = (*shape[:i], JOKER, *shape[i + 1 :])
                if within(Counter(with_joker), tiles):
                    found.append(laid(with_joker))
                    break
    return sorted(found, key=lambda s: (-s.value, str(s)))


def set_tiles(sets: Iterable[TileSet]) -> Counter[Tile]:
    total: Counter[Tile] = Counter()
    for s in sets:
        total.update(s.tiles)
    return total


@dataclass
class Hand:
    """What a player may put down truthfully: the known tiles of their rack, and ``budget`` tiles more from
    ``free`` (their rack's tiles the bot does not know are some of those)."""

    known: Counter[Tile]
    budget: int
    free: Counter[Tile]

    def take(self, tiles: Iterable[Tile]) -> bool:
        """Use ``tiles`` (known ones first, the rest from free within the budget); False if they do not fit."""
        need = Counter(tiles)
        mine = need & self.known
        rest = need - mine
        if not within(rest, self.free) or sum(rest.values()) > self.budget:
            return False
        self.known -= mine
        self.free -= rest
        self.budget -= sum(rest.values())
        return True

    def copy(self) -> Hand:
        return Hand(Counter(self.known), self.budget, Counter(self.free))

    def tiles(self) -> Counter[Tile]:
        return self.known + (self.free if self.budget else Counter())


def choose_sets(hand: Hand, rng: random.Random, *, least: int = 0, most: int = 2) -> list[TileSet] | None:
    """Disjoint new sets out of ``hand`` worth ``least`` points together (one to ``most`` of them), or None."""
    found = sets_in(hand.tiles())
    if least == 0:
        rng.shuffle(found)
    chosen: list[TileSet] = []
    for s in found:
        if hand.take(s.tiles):
            chosen.append(s)
            if sum(x.value for x in chosen) >= least and len(chosen) >= most:
                break
    if not chosen or sum(x.value for x in chosen) < least:
        return None
    return chosen


def growths(table: Sequence[TileSet], hand: Hand) -> list[tuple[int, TileSet, Tile]]:
    """Each (set index, grown set, tile) where one tile of ``hand`` at an end of a table set leaves it valid. A
    set with a twin on the table (the same tiles) is not grown: which of the two continues would be a guess."""
    out: list[tuple[int, TileSet, Tile]] = []
    tiles = sorted(hand.tiles(), key=key)
    for i, s in enumerate(table):
        if sum(1 for other in table if other.counts() == s.counts()) > 1:
            continue
        for t in tiles:
            for row in ((*s.tiles, t), (t, *s.tiles)):
                try:
                    out.append((i, make_set(row, RULES), t))
                    break
                except SetError:
                    continue
    return out


def cover(hand: Hand, *, least: int, budget_nodes: int = 400) -> list[TileSet] | None:
    """New sets that lay down the whole rack (every known tile, and exactly ``budget`` tiles from free), worth
    ``least`` points together, or None (a bounded search)."""
    nodes = 0

    def search(h: Hand) -> list[TileSet] | None:
        nonlocal nodes
        nodes += 1
        if nodes > budget_nodes:
            return None
        if not h.known:
            if h.budget == 0:
                return []
            if h.budget < 3:
                return None
            for s in sets_in(h.free)[:12]:
                if len(s) <= h.budget and (h.budget - len(s) == 0 or h.budget - len(s) >= 3):
                    after = h.copy()
                    if after.take(s.tiles):
                        rest = search(after)
                        if rest is not None:
                            return [s, *rest]
            return None
        first = min(h.known, key=key)
        for s in sets_in(h.tiles()):
            if first not in s.tiles:
                continue
            after = h.copy()
            if after.take(s.tiles):
                rest = search(after)
                if rest is not None:
                    return [s, *rest]
        return None

    found = search(hand.copy())
    if found is None or sum(s.value for s in found) < least:
        return None
    return found


# --- the model: the rules written again, on the game's snapshot -------------------------------------------


class Refusal(Exception):
    """What the model expects the service to refuse a command with."""

    def __init__(self, kind: type[GameError], why: str) -> None:
        super().__init__(f"{kind.__name__}: {why}")
        self.kind = kind


def refuse(kind: type[GameError], why: str) -> NoReturn:
    raise Refusal(kind, why)


@dataclass
class Expected:
    """The game the model expects after a command, and what the command should say it did."""

    snap: Snap
    trimmed: tuple[int, ...] = ()
    skipped: tuple[int, ...] = ()
    info: dict[str, Any] = field(default_factory=dict)


class Model:
    """The rules of a whole game over a snapshot (``bot.game.history.snapshot``): each method takes the game
    before a command and returns the game after it, or raises ``Refusal``."""

    def __init__(self, snap: Snap) -> None:
        self.s = copy.deepcopy(snap)

    # --- reading

    def p(self, uid: int | None) -> dict[str, Any] | None:
        return None if uid is None else self.s["players"].get(str(uid))

    def seated(self) -> list[int]:
        players = sorted(self.s["players"].items(), key=lambda kv: kv[1]["seat"])
        return [int(uid) for uid, p in players if p["active"]]

    def table(self) -> Counter[Tile]:
        return Counter(decoded(c for s in self.s["table"] for c in s))

    def pool(self) -> int:
        racks = sum(int(self.s["players"][str(u)]["rack_size"]) for u in self.seated())
        return RULES.deck_size() - sum(len(s) for s in self.s["table"]) - racks

    def known(self) -> Counter[Tile]:
        total = self.table()
        for u in self.seated():
            total.update(self.rack(u))
        return total

    def rack(self, uid: int) -> list[Tile]:
        p = self.p(uid)
        return decoded(p["rack"]) if p is not None else []

    def seat_after(self, seat: int | None) -> int | None:
        order = [(self.s["players"][str(u)]["seat"], u) for u in self.seated()]
        later = [u for s, u in order if seat is not None and s > seat]
        everyone = [u for _s, u in order]
        found = later or everyone
        return found[0] if found else None

    def next_after(self, uid: int) -> int | None:
        p = self.p(uid)
        return self.seat_after(p["seat"] if p is not None else None)

    def playing(self) -> bool:
        return bool(self.s["status"] == "running" and self.s["finish"] is None)

    def waiting(self) -> list[int]:
        if self.s["finish"] is None:
            return []
        return [u for u in self.seated() if u != self.s["winner"] and not self.s["players"][str(u)]["declared"]]

    # --- the checks every command makes

    def ensure_running(self) -> None:
        if self.s["status"] != "running":
            refuse(e.GameOver, "the game has ended")

    def ensure_playing(self) -> None:
        self.ensure_running()
        if self.s["finish"] is not None:
            refuse(e.GameFinished, "the game is over: only racks are told")

    def seat(self, uid: int) -> dict[str, Any]:
        p = self.p(uid)
        if p is None or not p["active"]:
            refuse(e.NotAPlayer, f"{uid} does not sit at the table")
        return p

    def fits(self, *parts: Iterable[Tile]) -> bool:
        total: Counter[Tile] = Counter()
        for part in parts:
            total.update(part)
        return not total - DECK

    def turn_check(self, uid: int) -> None:
        turn = self.s["turn"]
        them = self.p(turn)
        if them is not None and them["active"] and turn != uid and len(self.seated()) > 1:
            refuse(e.NotYourTurn, f"it is {turn}'s turn, not {uid}'s")

    def passed_over(self, uid: int) -> tuple[int, ...]:
        ids = self.seated()
        turn = self.s["turn"]
        if turn not in ids or uid not in ids or turn == uid:
            return ()
        start, end = ids.index(turn), ids.index(uid)
        return tuple(ids[start:end] if start < end else ids[start:] + ids[:end])

    def newest_word(self, keep: Iterable[int]) -> tuple[int, ...]:
        """Older racks give up what the table and the racks just told hold beyond the deck (seat order)."""
        over = self.known() - DECK
        kept = set(keep)
        trimmed: list[int] = []
        for u in self.seated():
            if u in kept or not over:
                continue
            p = self.s["players"][str(u)]
            lose = Counter(self.rack(u)) & over
            if lose:
                p["rack"] = codes((Counter(self.rack(u)) - lose).elements())
                over -= lose
                trimmed.append(u)
        if over:
            refuse(e.TooManyTiles, f"the table and the racks told hold too many of {words(over)}")
        return tuple(trimmed)

    def check_room(self) -> None:
        if self.pool() < 0:
            refuse(e.TooManyTiles, f"the pool would hold {self.pool()}")

    # --- the end and its score

    def score(self) -> None:
        """By the box: the winner (who went out, or the lowest rack told) the sum of the others' racks, each
        other player told or known minus their own; a rack never told scores nothing, and fewer than two racks
        to count score nothing at all."""
        winner = self.s["winner"]
        counted = [u for u in self.seated() if u == winner or self.s["players"][str(u)]["declared"]]
        if len(counted) < 2:
            counted = []
        if winner is None and counted:
            winner = min(
                counted,
                key=lambda u: (
                    rack_value(self.rack(u)),
                    self.s["players"][str(u)]["rack_size"],
                    self.s["players"][str(u)]["seat"],
                ),
            )
        losers = [u for u in counted if u != winner]
        total = sum(rack_value(self.rack(u)) for u in losers)
        for uid, p in self.s["players"].items():
            if int(uid) == winner and p["active"]:
                p["score"] = total
            elif int(uid) in losers:
                p["score"] = -rack_value(self.rack(int(uid)))
            else:
                p["score"] = None
        self.s.update(winner=winner, status="ended", turn=None, adding=None, ended_at=True)

    # --- the commands

    def join(self, uid: int) -> Expected:
        self.ensure_playing()
        old = self.p(uid)
        if old is not None and old["active"]:
            refuse(e.AlreadyJoined, f"{uid} sits at the table")
        if self.pool() < RULES.deal:
            refuse(e.TooManyTiles, f"the pool holds {self.pool()}, a rack takes {RULES.deal}")
        seat = max((p["seat"] for p in self.s["players"].values()), default=-1) + 1
        self.s["players"][str(uid)] = {
            "name": USERS[uid],
            "seat": seat,
            "rack": [],
            "rack_size": RULES.deal,
            "unnamed": 0,
            "melded": old["melded"] if old is not None else False,
            "tiles_played": old["tiles_played"] if old is not None else 0,
            "active": True,
            "declared": False,
            "score": None,
        }
        if self.s["turn"] is None:
            self.s["turn"] = uid
        return Expected(self.s)

    def leave(self, uid: int) -> Expected:
        self.ensure_playing()
        p = self.seat(uid)
        p.update(active=False, rack=[], rack_size=0, unnamed=0)
        if self.s["turn"] == uid:
            self.s["turn"] = self.next_after(uid)
        if self.s["adding"] is not None and self.s["adding"]["player"] == uid:
            self.s["adding"] = None
        return Expected(self.s)

    def set_rack(self, uid: int, tiles: Sequence[Tile]) -> Expected:
        self.ensure_playing()
        p = self.seat(uid)
        if not self.fits(self.table().elements(), tiles):
            refuse(e.TooManyTiles, "the rack and the table hold more than the deck")
        p.update(rack=codes(tiles), rack_size=len(tiles), unnamed=0)
        self.check_room()
        return Expected(self.s, self.newest_word([uid]))

    def draw(self, drawer: int, tiles: Sequence[Tile], *, out_of_turn: bool, by: int | None = None) -> Expected:
        """``told_draw``: tiles told in private name tiles drawn in the group while some are still unnamed;
        anything else is a draw that ends the turn (a pass on an empty pool), told by someone at the table."""
        p = self.p(drawer)
        teller = drawer if by is None else by
        if tiles and teller == drawer and p is not None and p["active"] and len(tiles) <= p["unnamed"]:
            self.ensure_playing()
            rack = [*self.rack(drawer), *tiles]
            if not self.fits(self.table().elements(), rack):
                refuse(e.TooManyTiles, "the rack with the tiles named holds more than the deck")
            p.update(rack=codes(rack), unnamed=p["unnamed"] - len(tiles))
            return Expected(self.s, self.newest_word([drawer]), info={"named_only": True, "count": 0})
        self.ensure_playing()
        self.seat(teller)
        p = self.seat(drawer)
        if not out_of_turn:
            self.turn_check(drawer)
        skipped = self.passed_over(drawer) if out_of_turn else ()
        pool = self.pool()
        if pool == 0:
            if tiles:
                refuse(e.PoolEmpty, "nothing to draw from")
            self.passed(drawer, restart=bool(skipped))
            return Expected(self.s, skipped=skipped, info={"named_only": False, "count": 0})
        count = max(1, len(tiles))
        if count > pool:
            refuse(e.PoolEmpty, f"{count} tiles from a pool of {pool}")
        rack = [*self.rack(drawer), *tiles]
        if tiles and not self.fits(self.table().elements(), rack):
            refuse(e.TooManyTiles, "the rack with the tiles drawn holds more than the deck")
        p.update(rack=codes(rack), rack_size=p["rack_size"] + count, unnamed=p["unnamed"] + count - len(tiles))
        self.s.update(turn=self.next_after(drawer), adding=None, passes=0)
        return Expected(self.s, self.newest_word([drawer]), skipped, {"named_only": False, "count": count})

    def passed(self, uid: int, *, restart: bool = False) -> None:
        """A pass; one recorded out of turn passes over players who did not pass: the round starts again."""
        passes = 1 if restart else self.s["passes"] + 1
        self.s.update(turn=self.next_after(uid), adding=None, passes=passes)
        if passes >= len(self.seated()):
            self.s.update(finish="blocked", turn=None)

    def pass_turn(self, passer: int, *, out_of_turn: bool, by: int | None = None) -> Expected:
        self.ensure_playing()
        self.seat(passer if by is None else by)
        self.seat(passer)
        if self.pool() > 0:
            refuse(e.NoTiles, f"{self.pool()} tiles are in the pool")
        return self.draw(passer, (), out_of_turn=out_of_turn, by=by)

    def play(
        self,
        recorder: int,
        player: int,
        new_table: Sequence[TileSet],
        origins: Sequence[int | None] | None,
        *,
        out_of_turn: bool = False,
        waived: bool = False,
        rack_after: Sequence[Tile] | None = None,
        stale: bool = False,
    ) -> Expected:
        """A play: every old tile stays, new tiles come off the player's rack (known ones first), a first play
        is an opening of new sets worth 30 over the whole turn, a play in parts is one turn, going out ends it.
        ``origins``: for each set of ``new_table``, the index of the old set it continues (None: a new set)."""
        self.ensure_playing()
        self.seat(recorder)
        p = self.seat(player)
        if stale:
            refuse(e.TableChanged, "the table changed since the play was read")
        for s in new_table:
            try:
                make_set(s.tiles, RULES)
            except SetError:
                refuse(e.InvalidTable, f"{s} is no set")
        old, new = self.table(), set_tiles(new_table)
        if old - new:
            refuse(e.InvalidTable, f"the new table lacks {words(old - new)}")
        placed = new - old
        if not placed:
            refuse(e.NothingPlayed, "no tile was put down")
        if new - DECK:
            refuse(e.TooManyTiles, f"the new table holds too many of {words(new - DECK)}")
        adding = self.s["adding"] if self.s["adding"] is not None and self.s["adding"]["player"] == player else None
        if rack_after is not None and recorder == player:
            p.update(rack=[], unnamed=0)
        if not out_of_turn and adding is None:
            self.turn_check(player)
        began = adding["before"] if adding is not None else self.s["table"]
        opening = (adding["opening"] if adding is not None else not p["melded"]) and not waived
        if opening:
            left = Counter(tuple(s) for s in began)
            value = 0
            for s in new_table:
                row = tuple(str(t) for t in s.tiles)
                if left[row] > 0:
                    left[row] -= 1
                else:
                    value += s.value
            if +left:
                refuse(e.NotAnOpening, "an opening may not change the table's sets")
            if value < MELD:
                refuse(e.NotAnOpening, f"an opening of {value} points")
        count = sum(placed.values())
        if count > p["rack_size"]:
            refuse(e.RackLacks, f"{count} tiles from a rack of {p['rack_size']}")
        known = Counter(decoded(p["rack"]))
        beyond = placed - known
        short: Counter[Tile] = Counter()
        if sum(beyond.values()) > p["rack_size"] - len(p["rack"]):
            if recorder == player:
                refuse(e.RackLacks, f"their own rack lacks {words(beyond)}")
            short, left_known = beyond, Counter[Tile]()
        else:
            left_known = known - placed
        size = p["rack_size"] - count
        p.update(
            rack=codes(left_known.elements()),
            rack_size=size,
            unnamed=min(p["unnamed"], size - sum(left_known.values())),
            melded=True,
            tiles_played=p["tiles_played"] + count,
        )
        before_table = self.s["table"]
        if origins is not None:
            numbers, fresh = [], max(self.s["numbers"], default=0)
            for o in origins:
                if o is None:
                    fresh += 1
                numbers.append(fresh if o is None else self.s["numbers"][o])
            order = sorted(range(len(new_table)), key=lambda j: numbers[j])
            self.s["table"] = [[str(t) for t in new_table[j].tiles] for j in order]
            self.s["numbers"] = [numbers[j] for j in order]
        self.s["passes"] = 0
        skipped: tuple[int, ...] = ()
        if adding is None:
            skipped = self.passed_over(player)
            self.s["turn"] = self.next_after(player)
            self.s["adding"] = {"player": player, "before": before_table, "opening": opening}
        trimmed = self.newest_word([player])
        info: dict[str, Any] = {"placed": codes(placed.elements()), "short": codes(short.elements())}
        info.update(added=adding is not None, won=size == 0)
        if size == 0:
            self.s.update(finish="out", winner=player, turn=None, adding=None)
            if not self.waiting():
                self.score()
        if rack_after is not None and recorder == player and self.playing():
            told = self.set_rack(recorder, rack_after)
            trimmed = tuple(sorted({*trimmed, *told.trimmed}))
            info["short"] = []
        return Expected(self.s, trimmed, skipped, info)

    def meld_button(self, uid: int) -> Expected:
        """ "I have melded" outside the bot: only in a private game of one's own (the machine's is a group's)."""
        self.ensure_playing()
        self.seat(uid)
        refuse(e.NotAnOpening, "in a group's game the opening is made by playing it")

    def set_table(self, uid: int, sets: Sequence[TileSet], *, with_rack: bool) -> Expected:
        """A correction: the table is ``sets``, numbered anew; no turn passes."""
        self.ensure_playing()
        p = self.seat(uid)
        for s in sets:
            try:
                make_set(s.tiles, RULES)
            except SetError:
                refuse(e.InvalidTable, f"{s} is no set")
        tiles = set_tiles(sets)
        if not self.fits(tiles.elements(), decoded(p["rack"]) if with_rack else ()):
            refuse(e.TooManyTiles, "the table (and the rack) hold more than the deck")
        self.s.update(table=[[str(t) for t in s.tiles] for s in sets], numbers=list(range(1, len(sets) + 1)))
        self.s["adding"] = None
        self.check_room()
        return Expected(self.s, self.newest_word([uid] if with_rack else []))

    def end(self, uid: int) -> Expected:
        """/end: a game played by two or more stops and waits for the racks; any other is closed and scored."""
        if self.playing() and len(self.seated()) >= 2:
            self.seat(uid)
            self.s.update(finish="stopped", turn=None, adding=None)
            return Expected(self.s)
        self.ensure_running()
        if self.seated():
            self.seat(uid)
        if len(self.seated()) < 2 and self.s["finish"] is None:  # a game of one: closed, nothing to score
            self.s.update(finish="stopped", status="ended", turn=None, adding=None, ended_at=True)
            return Expected(self.s)
        if self.s["finish"] is None:
            self.s.update(finish="stopped", turn=None, adding=None)
        for u in self.waiting():
            p = self.s["players"][str(u)]
            if len(p["rack"]) == p["rack_size"]:
                p["declared"] = True
        self.score()
        return Expected(self.s)

    def declare(self, uid: int, tiles: Sequence[Tile]) -> Expected:
        """The tiles left on a rack at the end; the last rack told scores the game."""
        self.ensure_running()
        p = self.seat(uid)
        if self.s["finish"] is None:
            refuse(GameError, "the game is still on")
        if uid == self.s["winner"]:
            refuse(GameError, "the winner's rack is empty")
        if not self.fits(self.table().elements(), tiles):
            refuse(e.TooManyTiles, "the rack and the table hold more than the deck")
        p.update(rack=codes(tiles), rack_size=len(tiles), unnamed=0, declared=True)
        self.check_room()
        trimmed = self.newest_word([uid])
        if not self.waiting():
            self.score()
        return Expected(self.s, trimmed)


EMPTY: Snap = {
    "status": "running", "turn": None, "table": [], "numbers": [], "adding": None, "passes": 0, "finish": None,
    "winner": None, "ended_at": None, "players": {},
}  # fmt: skip


#: what a play lays down
PLAYING = st.sampled_from(["sets", "sets", "grow", "grow", "both", "out", "out", "waived"])

#: how a rack is told at the end: mostly truthfully, sometimes as stored, sometimes wrongly
DECLARING = st.sampled_from(["true", "true", "true", "as-stored", "too-big", "winner", "outsider"])


def passing(passer: int, out_of_turn: bool, by: int) -> Callable[[Model], Expected]:
    return lambda m: m.pass_turn(passer, out_of_turn=out_of_turn, by=by)


def declaring(user: int, tiles: Sequence[Tile]) -> Callable[[Model], Expected]:
    return lambda m: m.declare(user, tiles)


def normal(snap: Snap) -> Snap:
    """A snapshot to compare: when a game ended is the clock's, only whether it did is the model's."""
    return {**snap, "ended_at": bool(snap["ended_at"])}


def differences(got: Snap, want: Snap) -> str:
    """Where two snapshots differ, one line each."""
    lines = [f"  {k}: bot {got[k]!r}, model {want[k]!r}" for k in sorted(got) if k != "players" and got[k] != want[k]]
    for uid in sorted(set(got["players"]) | set(want["players"])):
        a, b = got["players"].get(uid), want["players"].get(uid)
        if a is None or b is None:
            lines.append(f"  player {uid}: bot {a!r}, model {b!r}")
            continue
        lines.extend(f"  player {uid} {k}: bot {a[k]!r}, model {b[k]!r}" for k in sorted(a) if a[k] != b.get(k))
    return "\n".join(lines)


def numbers_moved(before: GameState, after: GameState) -> list[str]:
    """The sets that lie on the table before and after a change, unchanged (each the only one of its tiles in
    both tables), whose number changed."""

    def numbered(state: GameState) -> dict[str, int]:
        rows = Counter(str(s) for s in state.table)
        return {str(s): n for n, s in zip(state.numbers, state.table, strict=True) if rows[str(s)] == 1}

    old, new = numbered(before), numbered(after)
    return [f"set {old[row]} ({row}) is now set {new[row]}" for row in old.keys() & new.keys() if old[row] != new[row]]


def free(state: GameState) -> Counter[Tile]:
    """The tiles nobody is known to hold: the pool, and the tiles of racks the bot does not know."""
    held = set_tiles(state.table)
    for p in state.active_players:
        held.update(p.rack)
    return DECK - held


def hand_of(state: GameState, uid: int) -> Hand:
    p = state.player(uid)
    assert p is not None
    return Hand(Counter(p.rack), p.unknown, free(state))


def fill(tiles: Counter[Tile], n: int, rng: random.Random) -> list[Tile]:
    """``n`` tiles picked from ``tiles`` (as many as there are, if fewer)."""
    pile = codes(tiles.elements())
    return decoded(rng.sample(pile, min(n, len(pile))))


# --- the machine ------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one command did: the result, or the ``GameError`` it was refused with."""

    result: object | None
    error: GameError | None
    before: GameState
    after: GameState


@dataclass
class Plan:
    """A play the machine made up: the new table, and for each of its sets the old set it continues."""

    table: list[TileSet]
    origins: list[int | None]

    def only_new_sets(self, before: Sequence[TileSet]) -> bool:
        """Whether the play only lays new sets after the table as it was (``add_sets`` can record it)."""
        return self.table[: len(before)] == list(before)


class GameMachine(RuleBasedStateMachine):
    """One game in one group chat, on its own SQLite file and event loop."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="rummikub-machine-"))
        self.loop = asyncio.Runner()
        self.db: Database = self.run(self._open())
        self.service = GameService(self.db)
        first = next(iter(USERS))
        self.state: GameState = self.run(self.service.new_game(GROUP, first, RULES, join_as=USERS[first]))
        self.game_id = self.state.id
        self.events = self.run(count_events(self.service, self.game_id))
        #: event id -> the game before and after it (what an undo of it must bring back)
        self.log: dict[int, tuple[GameState, GameState]] = {}
        #: each player's points, games scored and games won in the chat's earlier games
        self.past: dict[int, tuple[int, int, int]] = {}

    async def _open(self) -> Database:
        return open_database(await migrated(self.folder))

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run(work)

    def teardown(self) -> None:
        self.run(self.db.dispose())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # --- driving the service ----------------------------------------------------------------------------

    def model(self) -> Model:
        return Model(changes.snapshot(self.state))

    def seated(self) -> list[int]:
        return [p.user_id for p in self.state.active_players]

    def attempt(self, what: str, work: Coroutine[Any, Any, object]) -> Outcome:
        """Run one command; a refusal must have changed nothing; a change is logged for undo."""
        before = self.state
        events = self.events
        try:
            result: object | None = self.run(work)
            error: GameError | None = None
        except GameError as why:
            result, error = None, why
        after = self.run(self.service.game(self.game_id))
        count = self.run(count_events(self.service, self.game_id))
        if currently_in_test_context():  # what ran, for --hypothesis-show-statistics
            event(f"{what}: {type(error).__name__ if error else 'done'}")
        check("no-change-needs-the-guard", not isinstance(error, e.BrokenRecord), f"{what}: {error}")
        if not before.running and what != "undo":
            check("an-ended-game-refuses-changes", error is not None, f"{what} changed an ended game")
        if error is not None:
            check(
                "a-refusal-changes-nothing",
                after == before and count == events,
                f"{what} was refused ({error!r}) yet changed the game ({count - events} events)",
            )
        else:
            told = result if isinstance(result, GameState) else getattr(result, "state", None)
            check("a-change-returns-the-game-stored", told == after, f"{what}: returned {told}, stored {after}")
            check(
                "the-version-counts-the-changes",
                after.version - before.version == count - events,
                f"{what}: version {before.version} -> {after.version}, {count - events} events",
            )
            if count == events + 1:
                last = self.run(history(self.service, self.game_id, limit=1))[-1]
                self.log[last.id] = (before, after)
            if not what.startswith(("correction", "undo")):  # a correction numbers anew; an undo puts back
                moved = numbers_moved(before, after)
                check("set-numbers-stay-with-their-sets", not moved, f"{what}: {moved}")
        self.events = count
        self.state = after
        return Outcome(result, error, before, after)

    def judge(self, name: str, done: Outcome, model: Model, command: Callable[[Model], Expected]) -> Expected | None:
        """The command did what the model says (the game it leaves, or the refusal), whole."""
        try:
            want: Expected | None = command(model)
        except Refusal as why:
            check(
                name,
                done.error is not None and type(done.error) is why.kind,
                f"the model refuses it ({why}); the bot: {done.error!r}",
            )
            return None
        if done.error is not None:
            check(name, False, f"refused: {done.error!r}")
            return None
        assert want is not None
        got = normal(changes.snapshot(done.after))
        check(name, got == normal(want.snap), "the bot and the model differ:\n" + differences(got, normal(want.snap)))
        told = getattr(done.result, "trimmed", None)
        if told is not None:
            check(f"{name} (trimmed)", tuple(told) == want.trimmed, f"trimmed {told}, model {want.trimmed}")
        skipped = getattr(done.result, "skipped", None)
        if skipped is not None:
            check(f"{name} (skipped)", tuple(skipped) == want.skipped, f"skipped {skipped}, model {want.skipped}")
        return want

    def settle(self, data: st.DataObject) -> bool:
        """Once the game is finished, a step mostly goes on with its end (True: it did): a rack told for the
        score while the game waits for them, and once it is scored, its undo or a new game with the same seats.
        Otherwise (one step in four) the command goes ahead, to be refused."""
        if self.state.playing or data.draw(st.integers(0, 3)) == 0:
            return False
        if self.state.running and data.draw(st.integers(0, 5)) == 0:
            self.end(data)  # the game is closed before every rack is told: scored with those told or known
        elif self.state.running:
            self.declare(data, data.draw(DECLARING), 1)
        elif data.draw(st.integers(0, 3)) == 0:
            self.undo(data, theirs=True)
        else:
            self.new_game(data)
        return True

    def new_game(self, data: st.DataObject) -> None:
        """A new game with the same players in the same seats (one tap after the scores): the old game keeps
        its scores, which the chat's totals go on summing."""
        old = self.state
        assert not old.running
        seated = [(p.user_id, p.name) for p in old.active_players]
        by = data.draw(st.sampled_from([u for u, _name in seated] or list(USERS)))
        for p in old.players:
            if p.score is not None:
                points, games, won = self.past.get(p.user_id, (0, 0, 0))
                self.past[p.user_id] = (points + p.score, games + 1, won + (p.user_id == old.winner))
        if seated:
            state = self.run(self.service.new_game(GROUP, by, RULES, seated=seated))
        else:
            state = self.run(self.service.new_game(GROUP, by, RULES, join_as=USERS[by]))
        if currently_in_test_context():
            event("a new game with the same seats")
        self.state, self.game_id, self.log = state, state.id, {}
        self.events = self.run(count_events(self.service, self.game_id))
        model = Model(EMPTY)
        for uid in [u for u, _name in seated] or [by]:
            model.join(uid)
        got = normal(changes.snapshot(state))
        check("a-new-game-seats-the-same-players", got == normal(model.s), differences(got, normal(model.s)))
        kept = self.run(self.service.game(old.id))
        check("an-old-game-keeps-its-scores", kept == old, f"{old.id} changed with a new game")

    # --- seats ----------------------------------------------------------------------------------------------

    @initialize(data=st.data(), others=st.integers(1, 3))
    def sit_down(self, data: st.DataObject, others: int) -> None:
        """Two to four players at the table, each dealt 14 off the pool; some tell their racks."""
        for _ in range(others):
            self.join(data)
        for user in self.seated():
            if data.draw(st.booleans()):
                self.tell_rack(data, how="true", user=user)

    @rule(data=st.data())
    def join(self, data: st.DataObject) -> None:
        """Someone sits down at the end of the table and takes a rack off the pool (or, already seated, is
        told so)."""
        if self.settle(data):
            return
        away = [u for u in USERS if u not in self.seated()]
        somebody_new = bool(away) and data.draw(st.integers(0, 4)) > 0
        user = data.draw(st.sampled_from(away if somebody_new else list(USERS)))
        model = self.model()
        done = self.attempt("join", self.service.join(self.game_id, user, USERS[user]))
        self.judge("a-join-seats-at-the-end-with-a-rack-dealt", done, model, lambda m: m.join(user))

    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        """A player stands up: the rack goes back to the pool, the turn moves on if it was theirs."""
        if self.settle(data) or len(self.seated()) < 2:
            return
        adding = self.state.adding  # the player who just played, before the next one acts, now and then
        user = data.draw(st.sampled_from([*self.seated(), *([adding.player] if adding is not None else [])]))
        model = self.model()
        done = self.attempt("leave", leave(self.service, self.game_id, user))
        self.judge("leaving-gives-the-rack-back", done, model, lambda m: m.leave(user))

    # --- racks ----------------------------------------------------------------------------------------------

    @rule(data=st.data(), how=st.sampled_from(["true", "true", "sets", "empties-the-pool", "newest-word", "too-big"]))
    def tell_rack(self, data: st.DataObject, how: str, user: int | None = None) -> None:
        """A player tells their rack in private.

        ``true``: the tiles the bot knows and the rest off the free tiles, as many as the rack holds; ``sets``:
        a rack of that count made of sets (one that may go out); ``empties-the-pool``: the rack holds the pool's
        tiles too (a count that was wrong); ``newest-word``: a tile another rack is known to hold (that rack
        gives it up); ``too-big``: more tiles than the game has left.
        """
        seated = self.seated()
        if not seated or (user is None and self.settle(data)):
            return
        user = user if user is not None else data.draw(st.sampled_from(seated))
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        state = self.state
        me = state.player(user)
        assert me is not None
        spare = free(state) + Counter(me.rack)  # the tiles their rack may hold: theirs, and those nobody's known to
        size = me.rack_size
        if how == "sets":
            made = cover(Hand(Counter(), size, spare), least=0)
            tiles = (
                list(set_tiles(made).elements())
                if made is not None
                else [*me.rack, *fill(free(state), me.unknown, rng)]
            )
        elif how == "empties-the-pool":
            tiles = [*me.rack, *fill(free(state), me.unknown + state.pool, rng)]
        elif how == "newest-word":
            others = Counter[Tile]()
            for p in state.active_players:
                if p.user_id != user:
                    others.update(p.rack)
            if not others:
                return
            taken = fill(others - Counter(me.rack), 1, rng)
            tiles = [*taken, *fill(DECK - set_tiles(state.table) - Counter(taken), max(size - 1, 0), rng)]
        elif how == "too-big":
            tiles = fill(DECK - set_tiles(state.table), size + state.pool + 1, rng)
        else:
            tiles = [*me.rack, *fill(free(state), me.unknown, rng)]
        model = self.model()
        done = self.attempt(f"rack ({how})", self.service.set_rack(self.game_id, user, tiles))
        self.judge("a-rack-told-is-the-newest-word", done, model, lambda m: m.set_rack(user, tiles))

    # --- turns ----------------------------------------------------------------------------------------------

    def someone(self, data: st.DataObject, *, whose: str) -> tuple[int, bool] | None:
        """A player and whether it is out of turn: ``turn`` the player to play; ``other`` someone else, said to
        be out of turn; ``unasked`` someone else, not said (the bot asks whose turn it was)."""
        seated = self.seated()
        if not seated:
            return None
        turn = self.state.turn
        others = [u for u in seated if u != turn]
        if whose == "turn" and turn in seated:
            return turn, False
        if not others:
            return None
        return data.draw(st.sampled_from(others)), whose == "other"

    @rule(data=st.data(), whose=st.sampled_from(["turn", "turn", "turn", "other", "unasked"]))
    def draw_in_the_group(self, data: st.DataObject, whose: str) -> None:
        """ "I drew": a tile counted, not named; the turn ends (on an empty pool it is a pass). Told by the
        player, or by someone else at the table for them."""
        found = None if self.settle(data) else self.someone(data, whose=whose)
        if found is None:
            return
        drawer, out_of_turn = found
        by = data.draw(st.sampled_from([drawer, drawer, *self.seated(), OUTSIDER]))
        model = self.model()
        work = self.service.draw(self.game_id, by, (), player=drawer, out_of_turn=out_of_turn)
        done = self.attempt("draw in the group", work)
        want = self.judge(
            "a-draw-ends-the-turn", done, model, lambda m: m.draw(drawer, (), out_of_turn=out_of_turn, by=by)
        )
        self.check_drawn(done, want)

    @rule(data=st.data(), whose=st.sampled_from(["turn", "turn", "other", "unasked"]), everything=st.booleans())
    def draw_in_private(self, data: st.DataObject, whose: str, everything: bool) -> None:
        """A draw told in private with its tile (``everything``: the rest of the pool at once, which empties
        it); a player with tiles still to name names them instead."""
        found = None if self.settle(data) else self.someone(data, whose=whose)
        if found is None:
            return
        drawer, out_of_turn = found
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        tiles = fill(free(self.state), max(self.state.pool, 1) if everything else 1, rng)
        if not tiles:
            return
        model = self.model()
        done = self.attempt("draw in private", self.service.draw(self.game_id, drawer, tiles, out_of_turn=out_of_turn))
        want = self.judge(
            "a-draw-told-in-private", done, model, lambda m: m.draw(drawer, tiles, out_of_turn=out_of_turn)
        )
        self.check_drawn(done, want)

    @rule(data=st.data())
    def name_drawn(self, data: st.DataObject) -> None:
        """A player names in private the tiles they drew in the group: their rack's count stays."""
        drew = [p.user_id for p in self.state.active_players if p.unnamed]
        if self.settle(data) or not drew:
            return
        user = data.draw(st.sampled_from(drew))
        me = self.state.player(user)
        assert me is not None
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        tiles = fill(free(self.state), data.draw(st.integers(1, me.unnamed)), rng)
        model = self.model()
        done = self.attempt("name the tiles drawn", self.service.draw(self.game_id, user, tiles))
        want = self.judge("tiles-drawn-are-named-later", done, model, lambda m: m.draw(user, tiles, out_of_turn=False))
        self.check_drawn(done, want)

    def check_drawn(self, done: Outcome, want: Expected | None) -> None:
        if want is None or done.error is not None:
            return
        drawn = done.result
        assert isinstance(drawn, Drawn)
        check(
            "a-draw-says-what-it-was",
            (drawn.count, drawn.named_only) == (want.info["count"], want.info["named_only"]),
            f"count {drawn.count}, named only {drawn.named_only}; model {want.info}",
        )

    @rule(data=st.data(), whose=st.sampled_from(["turn", "turn", "other", "unasked"]), many=st.integers(1, 4))
    def pass_turn(self, data: st.DataObject, whose: str, many: int) -> None:
        """A turn without a play: a pass only on an empty pool. On an empty pool, the next players pass too
        (``many`` turns in all; a round of passes ends the game), or one of them plays (which starts the round
        again)."""
        if self.settle(data):
            return
        for turn in range(many):
            if turn and data.draw(st.integers(0, 2)) == 0:
                self.play(data, "turn", data.draw(PLAYING), "player", False)
                return
            found = self.someone(data, whose=whose)
            if found is None or (turn and not self.state.playing):
                return
            passer, out_of_turn = found
            by = data.draw(st.sampled_from([passer, passer, *self.seated(), OUTSIDER]))
            model = self.model()
            work = self.service.pass_turn(self.game_id, by, player=passer, out_of_turn=out_of_turn)
            done = self.attempt("pass", work)
            self.judge("a-pass-only-on-an-empty-pool", done, model, passing(passer, out_of_turn, by))
            if done.error is not None:
                return
            whose = "turn"

    # --- plays ----------------------------------------------------------------------------------------------

    def plan(self, data: st.DataObject, player: int, what: str) -> tuple[Plan, bool] | None:
        """A play ``player`` can truthfully make (and whether the opening is waived for it), of the kind
        ``what``: ``sets`` new sets (an opening of 30 when one is due), ``grow`` a table set grown by a tile,
        ``both``, ``out`` the whole rack, ``waived`` a small first play recorded as a house rule."""
        state = self.state
        table = list(state.table)
        kept: list[int | None] = list(range(len(table)))
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        hand = hand_of(state, player)
        adding = state.adding if state.adding is not None and state.adding.player == player else None
        me = state.player(player)
        assert me is not None
        opening = adding.opening if adding is not None else not me.melded
        least = MELD if opening and adding is None else 0
        if what == "out":
            sets = cover(hand, least=least if opening else 0)
            if sets is None:
                return None
            return Plan([*table, *sets], [*kept, *[None] * len(sets)]), False
        if what == "waived" and opening:
            small = [s for s in sets_in(hand.tiles()) if s.value < MELD and hand.copy().take(s.tiles)]
            if not small:
                return None
            return Plan([*table, small[0]], [*kept, None]), True
        if opening or what == "sets":
            sets = choose_sets(hand, rng, least=least, most=data.draw(st.integers(1, 2)))
            if sets is None:
                return None
            return Plan([*table, *sets], [*kept, *[None] * len(sets)]), False
        grown = [g for g in growths(table, hand) if hand.copy().take([g[2]])]
        if not grown:
            return None
        at, bigger, tile = grown[rng.randrange(len(grown))]
        hand.take([tile])
        new_table = [*table[:at], bigger, *table[at + 1 :]]
        plan = Plan(new_table, kept)
        if what == "both":
            more = choose_sets(hand, rng, most=1)
            if more and more[0].counts() != table[at].counts():
                plan = Plan([*new_table, *more], [*kept, None])
        return plan, False

    @rule(
        data=st.data(),
        whose=st.sampled_from(["turn", "turn", "adding", "adding", "other"]),
        what=PLAYING,
        recorder=st.sampled_from(["player", "player", "player", "another", "another-short"]),
        rack_told=st.booleans(),
    )
    def play(self, data: st.DataObject, whose: str, what: str, recorder: str, rack_told: bool) -> None:
        """A play the rules allow, made truthfully from the player's rack.

        Mostly by the player whose turn it is; or the player who just played adds to their play (one turn);
        or someone else, recorded as a play out of turn. Recorded by the player (sometimes with the rack left
        typed beside it) or by someone else at the table for them (``another-short``: with tiles their stored
        rack does not hold, which forgets that rack: the table is the truth).
        """
        if self.settle(data):
            return
        state = self.state
        if whose == "adding" and state.adding is not None and state.adding.player in self.seated():
            player, out_of_turn = state.adding.player, data.draw(st.booleans())
        else:
            found = self.someone(data, whose="other" if whose == "other" else "turn")
            if found is None:
                return
            player, out_of_turn = found
        made = self.plan(data, player, what)
        short = recorder == "another-short" and len(self.seated()) > 1
        if short:
            made = self.short_plan(data, player)
        if made is None:
            return
        plan, waived = made
        by = player
        if recorder != "player" and len(self.seated()) > 1:
            by = data.draw(st.sampled_from([u for u in self.seated() if u != player]))
        rack_after: list[Tile] | None = None
        if rack_told and by == player:
            rack_after = self.rack_left(plan, player, data)
        model = self.model()
        if plan.only_new_sets(state.table) and rack_after is None and data.draw(st.booleans()):
            new = plan.table[len(state.table) :]
            work = add_sets(
                self.service, self.game_id, by, new, player=player, out_of_turn=out_of_turn, opening_waived=waived
            )
        else:
            work = self.service.record_play(
                self.game_id, by, plan.table, player=player, out_of_turn=out_of_turn, opening_waived=waived,
                rack_after=rack_after,
            )  # fmt: skip
        done = self.attempt(f"play ({what}{', short' if short else ''})", work)

        def command(m: Model) -> Expected:
            return m.play(
                by, player, plan.table, plan.origins, out_of_turn=out_of_turn, waived=waived, rack_after=rack_after
            )

        want = self.judge("a-valid-play-is-recorded", done, model, command)
        if want is None:
            check("the-machine-makes-valid-plays", not state.playing, f"the model refuses it: {done.error!r}")
            return
        played = done.result
        assert isinstance(played, Played)
        info = want.info
        check(
            "a-play-says-what-it-did",
            (codes(played.placed), codes(played.rack_short), played.added, played.won, played.by)
            == (info["placed"], info["short"], info["added"], info["won"], player),
            f"placed {played.placed}, short {played.rack_short}, added {played.added}, won {played.won}; model {info}",
        )

    def short_plan(self, data: st.DataObject, player: int) -> tuple[Plan, bool] | None:
        """New sets off the free tiles that the player's stored rack cannot give (beyond its unknown tiles),
        recorded by someone else: the opening is waived when one is due and the sets fall short."""
        state = self.state
        me = state.player(player)
        assert me is not None
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        options = [
            s for s in sets_in(free(state))
            if len(s) <= me.rack_size and sum((s.counts() - Counter(me.rack)).values()) > me.unknown
        ]  # fmt: skip
        if not options:
            return None
        s = options[rng.randrange(len(options))]
        adding = state.adding if state.adding is not None and state.adding.player == player else None
        due = adding.opening if adding is not None else not me.melded
        waived = due and (adding is not None or s.value < MELD)
        return Plan([*state.table, s], [*range(len(state.table)), None]), waived

    def rack_left(self, plan: Plan, player: int, data: st.DataObject) -> list[Tile]:
        """The rack a player types beside their play: what is left of it, the unknown part off the free tiles."""
        state = self.state
        me = state.player(player)
        assert me is not None
        placed = set_tiles(plan.table) - set_tiles(state.table)
        left = Counter(me.rack) - placed
        gone = sum(placed.values())
        spare = free(state) - placed
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        return [*left.elements(), *fill(spare, max(me.rack_size - gone - sum(left.values()), 0), rng)]

    @rule(
        data=st.data(),
        kind=st.sampled_from(
            [
                "unasked", "invalid-set", "drops-a-table-tile", "nothing-new", "not-a-player", "small-opening",
                "opening-changes-the-table", "rack-lacks", "more-than-the-rack", "beyond-the-deck", "stale",
                "meld-button",
            ]
        ),
    )  # fmt: skip
    def play_invalid(self, data: st.DataObject, kind: str) -> None:
        """A play the rules refuse, each kind meeting its refusal (the model names which)."""
        state = self.state
        seated = self.seated()
        if not seated or self.settle(data):
            return
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        player = state.turn if state.turn in seated else seated[0]
        by, out_of_turn, waived, stale = player, True, False, False
        table = list(state.table)
        hand = hand_of(state, player)
        fresh = sets_in(free(state))
        if kind == "meld-button":  # "I have melded" tapped in a group's game: the opening is a play the group sees
            model = self.model()
            done = self.attempt("meld button", self.service.mark_melded(self.game_id, player))
            self.judge("the-opening-is-a-play-not-a-button", done, model, lambda m: m.meld_button(player))
            return
        new_table: list[TileSet]
        origins: list[int | None] | None = None  # the refusal comes before the table is numbered
        if kind == "unasked":  # someone whose turn it is not, not said to be out of turn
            others = [u for u in seated if u != state.turn]
            if not others or not fresh or (state.adding is not None and state.adding.player in others):
                return
            player = by = data.draw(st.sampled_from(others))
            out_of_turn, waived = False, True
            new_table = [*table, fresh[0]]
        elif kind == "invalid-set":
            pair = fill(free(state), 2, rng)
            new_table = [*table, TileSet(Kind.RUN, tuple(pair), tuple(pair))]
        elif kind == "drops-a-table-tile":
            if not table or not fresh:
                return
            new_table, waived = [*table[1:], fresh[0]], True
        elif kind == "nothing-new":
            new_table = list(reversed(table))
        elif kind == "not-a-player":
            outsider = data.draw(st.sampled_from([OUTSIDER, *[u for u in USERS if u not in seated]]))
            if not fresh:
                return
            by, new_table, waived = outsider, [*table, fresh[0]], True
        elif kind == "small-opening":
            small = [s for s in sets_in(hand.tiles()) if s.value < MELD and hand.copy().take(s.tiles)]
            if not small:
                return
            new_table = [*table, small[-1]]
            origins = [*range(len(table)), None]  # a player who has melded may: then it is a play
        elif kind == "opening-changes-the-table":
            grown = [g for g in growths(table, hand) if hand.copy().take([g[2]])]
            if not grown:
                return
            at, bigger, _tile = grown[0]
            new_table, origins = [*table[:at], bigger, *table[at + 1 :]], list(range(len(table)))
        elif kind == "rack-lacks":  # the player's own record, with tiles their known rack lacks
            me = state.player(player)
            assert me is not None
            lacks = [s for s in fresh if sum((s.counts() - Counter(me.rack)).values()) > me.unknown]
            if not lacks:
                return
            new_table, waived = [*table, lacks[0]], True
        elif kind == "more-than-the-rack":
            me = state.player(player)
            assert me is not None
            big = choose_sets(Hand(Counter(), 99, free(state)), rng, most=6)
            if big is None or len(set_tiles(big)) <= me.rack_size:
                return
            by = data.draw(st.sampled_from(seated))
            new_table, waived = [*table, *big], True
        elif kind == "beyond-the-deck":
            if not table:
                return
            new_table, waived = [*table, table[0], table[0], table[0]], True
        else:  # read against a table that has changed since
            if not fresh:
                return
            new_table, stale, waived = [*table, fresh[0]], True, True
        model = self.model()
        based_on = [*table, fresh[0]] if stale else None
        work = self.service.record_play(
            self.game_id, by, new_table, player=player, out_of_turn=out_of_turn, opening_waived=waived,
            based_on=based_on,
        )  # fmt: skip
        done = self.attempt(f"invalid play ({kind})", work)

        def command(m: Model) -> Expected:
            return m.play(by, player, new_table, origins, out_of_turn=out_of_turn, waived=waived, stale=stale)

        self.judge("an-invalid-play-is-refused", done, model, command)
        if kind not in ("small-opening", "opening-changes-the-table"):  # a player who has melded may do those
            check("an-invalid-play-is-refused", done.error is not None, f"{kind} was recorded")

    # --- corrections, undo, the end -------------------------------------------------------------------------

    @rule(data=st.data(), how=st.sampled_from(["drop", "add", "add", "add-a-racks-tiles"]), with_rack=st.booleans())
    def correct_table(self, data: st.DataObject, how: str, with_rack: bool) -> None:
        """A correction (``/table fix``): a set recorded by mistake goes back, or a set missed is added (off the
        free tiles, or with tiles a rack is known to hold: the table is the newest word); checked with the
        corrector's rack (``with_rack``: a table of one's own) or alone (a group's table). No turn passes."""
        seated = self.seated()
        if not seated or self.settle(data):
            return
        by = data.draw(st.sampled_from(seated))
        table = list(self.state.table)
        missed = sets_in(free(self.state) if how == "add" else DECK - set_tiles(table))
        if how == "add-a-racks-tiles":
            racks = DECK - free(self.state) - set_tiles(table)
            missed = [s for s in missed if s.counts() & racks] or missed
        if how == "drop":
            if not table:
                return
            i = data.draw(st.integers(0, len(table) - 1))
            new_table = [*table[:i], *table[i + 1 :]]
        else:
            if not missed:
                return
            new_table = [*table, missed[data.draw(st.integers(0, len(missed) - 1))]]
        model = self.model()
        done = self.attempt(
            f"correction ({how})", self.service.set_table(self.game_id, by, new_table, with_rack=with_rack)
        )
        self.judge(
            "a-correction-replaces-the-table", done, model, lambda m: m.set_table(by, new_table, with_rack=with_rack)
        )

    @rule(data=st.data(), theirs=st.booleans())
    def undo(self, data: st.DataObject, theirs: bool) -> None:
        """Anyone undoes their own last change, or (``theirs``) confirms the undo of someone else's later public
        change; whatever it takes back comes back as it was."""
        by = data.draw(st.sampled_from(list(USERS)))
        current = self.state
        other = self.run(self.service.undo_choice(self.game_id, by)).theirs if theirs else None
        if other is not None:
            work = self.service.undo(self.game_id, by, event_id=other.id, confirmed=True)
        else:
            work = self.service.undo(self.game_id, by)
        done = self.attempt("undo", work)
        if done.error is not None:
            return
        undone = done.result
        assert isinstance(undone, Undone)
        target = undone.event
        if other is not None:
            check("undo-takes-back-what-was-asked", target.id == other.id, f"undid {target.id}, asked {other.id}")
        else:
            owner = (
                target.detail.get("player") if target.kind.value in ("play_recorded", "suggestion_applied") else None
            )
            mine = target.user_id == by or owner == by
            check("undo-takes-back-ones-own-change", mine, f"{by} undid {target.kind.value} of {target.user_id}")
        around = self.log.get(target.id)
        check("undo-takes-back-a-logged-change", around is not None, f"event {target.id} ({target.kind})")
        if around is None:
            return
        was, then = around
        if changes.snapshot(current) == changes.snapshot(then):
            got, back = changes.snapshot(done.after), changes.snapshot(was)
            check(
                "undo-restores-exactly",
                got == back,
                f"undo of {target.kind.value}:\n" + differences(got, back),
            )
        else:
            self.check_undo_out_of_order(current, done.after, was, then, target.kind.value)

    def check_undo_out_of_order(
        self, current: GameState, after: GameState, was: GameState, then: GameState, kind: str
    ) -> None:
        """An older change undone: each value it made is back as before it, every other value as it was, but
        that the turn of someone no longer seated goes on to the next seat, and that a rack the undo gives
        back is the newest word (another rack may give up tiles to it)."""
        taken = changes.diff(changes.snapshot(was), changes.snapshot(then))
        now, got = changes.snapshot(current), changes.snapshot(after)
        seated = [p.user_id for p in after.active_players]
        model = Model(got)

        def turn_ok(want: int | None) -> bool:
            if want is None or want in seated or not after.running:
                return bool(got["turn"] == want)
            gone = current.player(want)  # the turn of someone no longer seated goes on to the next seat
            return bool(got["turn"] == model.seat_after(gone.seat if gone is not None else None))

        for f, (old, _new) in taken.get("game", {}).items():
            if f == "turn":
                check("undo-out-of-order-restores", turn_ok(old), f"undo of {kind}: turn {got['turn']}, was {old}")
            elif f != "ended_at":
                check("undo-out-of-order-restores", got[f] == old, f"undo of {kind}: {f} is {got[f]}, was {old}")
        for f in changes.GAME_FIELDS:
            if f not in taken.get("game", {}) and f not in ("ended_at", "turn"):
                check("undo-out-of-order-leaves-the-rest", got[f] == now[f], f"undo of {kind} changed {f}")
        if "turn" not in taken.get("game", {}):
            check("undo-out-of-order-leaves-the-rest", turn_ok(now["turn"]), f"undo of {kind} moved the turn")
        for uid, fields in taken.get("players", {}).items():
            for f, (old, _new) in fields.items():
                check("undo-out-of-order-restores", got["players"][uid][f] == old, f"undo of {kind}: {uid}.{f}")
        for uid in taken.get("added", {}):
            check("undo-out-of-order-restores", uid not in got["players"], f"undo of {kind}: {uid} still seated")
        for uid, p in now["players"].items():
            touched = taken.get("players", {}).get(uid, {})
            if uid in taken.get("added", {}):
                continue
            for f, value in p.items():
                if f in touched:
                    continue
                if f == "rack":  # the newest word: an older rack may give up tiles a rack given back holds
                    gave_up = counted(value) - counted(got["players"][uid][f])
                    kept = not counted(got["players"][uid][f]) - counted(value)
                    check("undo-out-of-order-leaves-the-rest", kept, f"undo of {kind} gave {uid} tiles")
                    if gave_up:
                        event("undo: an older rack gave up tiles")
                    continue
                check(
                    "undo-out-of-order-leaves-the-rest",
                    got["players"][uid][f] == value,
                    f"undo of {kind} changed {uid}.{f}: {value} -> {got['players'][uid][f]}",
                )

    @rule(data=st.data())
    def end(self, data: st.DataObject) -> None:
        """/end by someone at the table (or not): a game played stops and waits for the racks; a game waiting
        for them is closed and scored with the racks told or known (undo may open it again). A game mostly runs
        a while first (a game finished is closed at once)."""
        if self.state.playing and len(self.log) < 8:
            return
        by = data.draw(st.sampled_from([*self.seated(), OUTSIDER]))
        model = self.model()
        done = self.attempt("end", self.service.end_game(self.game_id, by))
        self.judge("end-stops-or-closes-the-game", done, model, lambda m: m.end(by))

    @rule(
        data=st.data(),
        how=DECLARING,
        many=st.integers(1, 3),
    )
    def declare(self, data: st.DataObject, how: str, many: int) -> None:
        """The racks at the end, told one after another (the last scores the game): truthfully (the tiles the
        bot knows and the rest off the free tiles), or the stored rack as it is; or told wrong: more tiles than
        the game has left, by the winner, by someone not at the table."""
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        for _ in range(many):
            state = self.state
            if not state.running or state.finish is None:
                many = 0  # once: a rack told while the game is on (or after its end) is refused
            waiting = [p.user_id for p in state.active_players if p.user_id != state.winner and not p.declared]
            user = data.draw(st.sampled_from(waiting or self.seated() or [OUTSIDER]))  # a game may seat nobody
            if how == "winner" and state.winner is not None:
                user = state.winner
            elif how == "outsider":
                user = OUTSIDER
            me = state.player(user)
            if me is None or not me.active:
                tiles = fill(free(state), 3, rng)
            elif how == "as-stored" and me.rack_known:
                tiles = list(me.rack)
            elif how == "too-big":
                tiles = fill(DECK - set_tiles(state.table), me.rack_size + state.pool + 1, rng)
            else:
                tiles = [*me.rack, *fill(free(state), me.unknown, rng)]
            model = self.model()
            done = self.attempt(f"declare ({how})", self.service.declare(self.game_id, user, tiles))
            self.judge("the-racks-at-the-end-score-the-game", done, model, declaring(user, tiles))
            if many == 0:
                return

    # --- what always holds ---------------------------------------------------------------------------------

    @invariant()
    def nothing_is_broken(self) -> None:
        found = broken(self.state)
        check("the-game-breaks-no-invariant", not found, "; ".join(found))

    @invariant()
    def table_is_valid_sets(self) -> None:
        for number, s in zip(self.state.numbers, self.state.table, strict=True):
            try:
                again = make_set(s.tiles, RULES)
            except SetError as why:
                raise AssertionError(f"table-is-valid-sets: set {number} ({s}): {why}") from None
            check("table-is-valid-sets", again.tiles == s.tiles, f"set {number} ({s}) reads back as {again}")
        numbers = self.state.numbers
        check("set-numbers-are-distinct", len(set(numbers)) == len(numbers) == len(self.state.table), f"{numbers}")

    @invariant()
    def deck_holds_every_tile(self) -> None:
        """No tile in the game (the table and every known rack) more often than the deck holds; the pool is
        never below nothing."""
        held = set_tiles(self.state.table)
        for p in self.state.active_players:
            held.update(p.rack)
        over = held - DECK
        check("the-deck-holds-every-tile", not over, f"more than the deck holds: {words(over)}")
        check("the-pool-is-never-negative", self.state.pool >= 0, f"pool {self.state.pool}")

    @invariant()
    def one_turn_while_played(self) -> None:
        state = self.state
        seated = self.seated()
        if state.playing and seated:
            check("one-seated-players-turn", state.turn in seated, f"turn {state.turn}, seated {seated}")
        if not state.playing:
            check("no-turn-once-finished", state.turn is None, f"turn {state.turn} in a game {state.finish}")
        seats = [p.seat for p in state.players]
        check("seats-are-distinct", len(seats) == len(set(seats)), f"seats {seats}")

    @invariant()
    def scores_by_the_box(self) -> None:
        """A scored game: the winner scores the others' racks, each other player minus their own; the scores
        sum to zero, and the chat's totals say the same."""
        state = self.state
        scored = [p for p in state.players if p.score is not None]
        if state.status is not GameStatus.ENDED:
            check("no-score-before-the-end", not scored, f"scores in a running game: {scored}")
            return
        if scored:
            winner = state.player(state.winner) if state.winner is not None else None
            check("a-scored-game-has-a-winner", winner is not None and winner.score is not None, f"{state.winner}")
            losers = [p for p in scored if p.user_id != state.winner]
            for p in losers:
                check("a-loser-scores-minus-their-rack", p.score == -rack_value(p.rack), f"{p.name}: {p.score}")
            if winner is not None:
                total = sum(rack_value(p.rack) for p in losers)
                check("the-winner-scores-the-others-racks", winner.score == total, f"{winner.score}, racks {total}")
            check(
                "scores-sum-to-zero", sum(p.score or 0 for p in scored) == 0, f"{[(p.name, p.score) for p in scored]}"
            )
        totals = self.run(self.service.chat_totals(GROUP))
        got = {(t.user_id, t.points, t.games, t.won) for t in totals}
        sums = dict(self.past)
        for p in scored:
            points, games, won = sums.get(p.user_id, (0, 0, 0))
            sums[p.user_id] = (points + (p.score or 0), games + 1, won + (p.user_id == state.winner))
        want = {(uid, *line) for uid, line in sums.items()}
        check("the-chats-totals-are-the-games-scores", got == want, f"totals {got}, game {want}")


#: a CI run takes some 30 seconds; for a deeper search set GAME_MACHINE_EXAMPLES (150: several minutes)
GameMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("GAME_MACHINE_EXAMPLES", "12")),
    stateful_step_count=int(os.environ.get("GAME_MACHINE_STEPS", "35")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
TestGameMachine = GameMachine.TestCase


def test_the_model_agrees_on_seats_sets_and_scores() -> None:
    """The model's own turn order, set finding and scoring on small cases, so the machine's checks stand on it."""
    players = {
        str(u): {"seat": seat, "active": u != 303, "rack": [], "rack_size": 0, "declared": False}
        for seat, u in enumerate(USERS)
    }
    model = Model({"players": players, "table": [], "turn": 101})
    assert model.next_after(101) == 202
    assert model.next_after(202) == 404  # Carol left: nobody waits for her
    assert model.next_after(404) == 101
    assert model.passed_over(404) == (101, 202)
    tens = Counter([Tile(10, c) for c in Colour] + [JOKER])
    assert choose_sets(Hand(tens, 0, Counter()), random.Random(0), least=MELD) is not None
    small = Counter([Tile(n, Colour.RED) for n in (1, 2, 3)])
    assert choose_sets(Hand(small, 0, Counter()), random.Random(0), least=MELD) is None
    rack = Counter([Tile(n, Colour.BLUE) for n in (4, 5, 6, 7)] + [Tile(9, c) for c in Colour][:3])
    out = cover(Hand(rack, 0, Counter()), least=MELD)
    assert out is not None and set_tiles(out) == rack
    assert cover(Hand(rack + Counter([Tile(1, Colour.RED)]), 0, Counter()), least=0) is None
    assert rack_value([JOKER, Tile(5, Colour.RED)]) == 35


async def test_two_racks_never_hold_more_than_the_deck(tmp_path: Path) -> None:
    """The newest word about a tile wins: a rack told with copies an older rack of another player holds takes
    them from it (that player is told to send their rack again), and so does a rack an undo gives back. The
    table and the known racks never hold more of a tile than the deck (the machine checks it after every step).
    """
    db = open_database(await migrated(tmp_path))
    try:
        service = GameService(db)
        alice, bob = list(USERS)[:2]
        game = await service.new_game(GROUP, alice, join_as="Alice")
        await service.join(game.id, bob, "Bob")
        fives = [Tile(5, Colour.RED)] * 2
        nine = Tile(9, Colour.BLACK)
        await service.set_rack(game.id, alice, [*fives, nine])
        told = await service.set_rack(game.id, bob, [*fives, Tile(1, Colour.BLUE)])  # Bob's word is newer
        assert told.trimmed == (alice,)
        alice_now = told.state.player(alice)
        assert alice_now is not None and alice_now.rack == (nine,) and alice_now.rack_size == 3
        assert not broken(told.state)
        await service.set_rack(game.id, bob, [Tile(6, Colour.RED)])
        await service.set_rack(game.id, alice, [*fives, nine])  # Alice tells hers again: both 5R are hers
        back = await service.undo(game.id, bob)  # Bob says his rack was right before: his 5R come back
        bob_now, alice_now = back.state.player(bob), back.state.player(alice)
        assert bob_now is not None and alice_now is not None
        assert Counter(bob_now.rack)[Tile(5, Colour.RED)] == 2  # the rack given back is the newest word ...
        assert alice_now.rack == (nine,) and alice_now.rack_size == 3  # ... and Alice's older one gives them up
        assert not broken(back.state)
    finally:
        await db.dispose()
