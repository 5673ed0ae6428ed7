"""Which tile of the new table comes from where: the first half of planning moves.

Identical tiles are interchangeable, so the solver's origins are only one
possible story. Here each new set first keeps as much as it can of one old
set (its "identity": it will carry that set's number), and what is still
missing is then taken in as few, as large chunks as possible (one chunk is
one transfer, which is what a person does with their hands).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import RummikubError
from solver.sets import TileSet
from solver.text import N_
from solver.tiles import Tile


class PlanError(RummikubError):
    """An old table, placed tiles and new table that do not add up."""


@dataclass(frozen=True, slots=True)
class Flow:
    """``tiles`` go from old set ``source`` (0-based; None for the rack) to new set ``target`` (0-based)."""

    source: int | None
    target: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Flows:
    """``identity[j]`` is the old set new set ``j`` grows from (None: a set laid new); ``flows`` the moving chunks."""

    identity: tuple[int | None, ...]
    flows: tuple[Flow, ...]


def _size(c: Counter[Tile]) -> int:
    return sum(c.values())


def _sorted(c: Counter[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(c.elements(), key=lambda t: (t.colour is None, t.colour.value if t.colour else "", t.number)))


def check_balance(before: Sequence[TileSet], after: Sequence[TileSet], placed: Sequence[Tile]) -> None:
    """The new table must hold exactly the old table's tiles and the placed ones."""
    have: Counter[Tile] = Counter(placed)
    for s in before:
        have.update(s.tiles)
    want: Counter[Tile] = Counter()
    for s in after:
        want.update(s.tiles)
    if have != want:
        missing, extra = " ".join(map(str, _sorted(want - have))), " ".join(map(str, _sorted(have - want)))
        if not extra:
            raise PlanError(
                N_(
                    "the new table does not match the old table and the placed tiles: "
                    "{missing} on the new table came from nowhere"
                ),
                missing=missing,
            )
        if not missing:
            raise PlanError(
                N_("the new table does not match the old table and the placed tiles: {extra} would be lost"),
                extra=extra,
            )
        raise PlanError(
            N_(
                "the new table does not match the old table and the placed tiles: "
                "{missing} on the new table came from nowhere; {extra} would be lost"
            ),
            missing=missing,
            extra=extra,
        )


def assign(
    before: Sequence[TileSet],
    after: Sequence[TileSet],
    placed: Sequence[Tile],
    hint: Sequence[int | None] | None = None,
) -> Flows:
    """Identities by greatest overlap (the solver's ``kept_from`` breaks ties), then chunks by greedy largest first."""
    check_balance(before, after, placed)
    old = [Counter(s.tiles) for s in before]
    # Which old sets hold each tile: overlaps and chunks are then counted over the few tiles a set has,
    # not by intersecting every new set with every old one.
    holders: dict[Tile, list[int]] = {}
    for i, o in enumerate(old):
        for t in o:
            holders.setdefault(t, []).append(i)
    pairs = []
    for j, s in enumerate(after):
        overlaps: Counter[int] = Counter()
        for t, c in Counter(s.tiles).items():
            for i in holders.get(t, ()):
                overlaps[i] += min(c, old[i][t])
        for i, overlap in overlaps.items():
            if overlap >= 2:
                hinted = hint is not None and j < len(hint) and hint[j] == i
                pairs.append((-overlap, not hinted, before[i].kind is not after[j].kind, j, i))
    identity: list[int | None] = [None] * len(after)
    taken: set[int] = set()
    for _, _, _, j, i in sorted(pairs):
        if identity[j] is None and i not in taken:
            identity[j] = i
            taken.add(i)
    supply: dict[int | None, Counter[Tile]] = {i: Counter(o) for i, o in enumerate(old)}
    supply[None] = Counter(placed)
    demand = [Counter(s.tiles) for s in after]
    for j, keeps in enumerate(identity):
        if keeps is not None:
            kept = demand[j] & supply[keeps]
            demand[j] -= kept
            supply[keeps] -= kept
    flows: list[Flow] = []
    left = {src: _size(c) for src, c in supply.items()}  # tiles each source still has, kept up to date
    while any(demand):
        best: tuple[int, bool, bool, int, int] | None = None
        choice: tuple[int | None, int] | None = None
        for j, d in enumerate(demand):
            amounts: dict[int | None, int] = {}  # (plain dicts and .get: this loop is most of planning's time)
            for t, c in d.items():
                for src in (*holders.get(t, ()), None):  # the old sets that held it, and the rack
                    have = supply[src].get(t, 0)
                    if have:
                        amounts[src] = amounts.get(src, 0) + min(c, have)
            for src, amount in amounts.items():
                key = (-amount, amount != left[src], src is None, j, -1 if src is None else src)
                if best is None or key < best:
                    best, choice = key, (src, j)
        assert choice is not None, "balanced tiles always leave a source for a demand"
        src, j = choice
        chunk = demand[j] & supply[src]
        demand[j] -= chunk
        supply[src] -= chunk
        left[src] -= _size(chunk)
        flows.append(Flow(src, j, _sorted(chunk)))
    return Flows(tuple(identity), tuple(flows))
