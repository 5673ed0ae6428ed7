"""Tiles unseen and the outs (issue 24, part 2): the outs against every unseen tile tried by exhaustive search,
and the odds against counting the draws."""

from __future__ import annotations

import pickle
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.coach.errors import CoachError
from bot.coach.unseen import (
    Outs,
    Probed,
    Unseen,
    chance,
    outs,
    outs_of,
    probe,
    probes,
    summarise,
    unseen_of,
    unseen_tiles,
)
from solver import JOKER, STANDARD, Colour, Rules, Tile, TileSet
from solver.deck import DeckError
from solver.solve import solve
from tests.game_support import ALICE, BOB, CAROL, game
from tests.oracle import best_play, laid
from tests.solver.test_solve_properties import deal
from tests.storage_support import table, tiles

#: a family deck small enough for exhaustive search: numbers 1-6, three colours, one joker
TINY = Rules(numbers=6, colours=3, copies=2, jokers=1, smallest_set=3, initial_meld=10, deal=5)


def unseen_for(rules: Rules, before: list[TileSet], rack: list[Tile], others: int) -> Unseen:
    tiles_ = unseen_tiles(rules, before, rack)
    order = sorted(tiles_, key=rules.tile_key)
    return Unseen(rules, tuple((t, tiles_[t]) for t in order), tiles_.total() - others, others)


def test_the_unseen_tiles_are_the_deck_less_the_table_and_the_rack() -> None:
    before = table("1R 2R 3R | 7R 7B 7K J")
    rack = tiles("1R 5O 13K 13K")
    seen = unseen_tiles(STANDARD, before, rack)
    assert seen[Tile(1, Colour.RED)] == 0 and seen[Tile(2, Colour.RED)] == 1 and seen[Tile(5, Colour.ORANGE)] == 1
    assert seen[Tile(13, Colour.BLACK)] == 0 and seen[Tile(4, Colour.RED)] == 2 and seen[JOKER] == 1
    assert seen.total() == STANDARD.deck_size() - 7 - 4
    with pytest.raises(DeckError):
        unseen_tiles(STANDARD, before, tiles("1R 1R"))


def test_from_the_game_pool_and_other_racks() -> None:
    state = game(table_text="1R 2R 3R | 7R 7B 7K", racks={ALICE: "1B 2B 3B 9O"}, sizes={BOB: 10, CAROL: 12})
    seen = unseen_of(state, ALICE)
    assert seen.total == STANDARD.deck_size() - 6 - 4 == seen.pool + seen.on_racks
    assert seen.on_racks == 22 and seen.pool == state.pool
    assert str(seen.text()) == f"96 tiles unseen: {state.pool} in the pool, 22 on the other racks"
    lines = [str(line) for line in seen.lines()]
    assert lines[0].startswith("red: 1R 2R 3R 4R 4R 5R 5R") and lines[-1] == "jokers: J J"
    assert dict(seen.by_colour())[None] == ((0, 2),)
    # a rack the bot does not know whole: it cannot tell what the player has seen
    partly = game(racks={ALICE: "1B 2B"}, sizes={ALICE: 5})
    with pytest.raises(CoachError, match="I know only 2 of the 5 tiles"):
        unseen_of(partly, ALICE)
    with pytest.raises(CoachError):
        unseen_of(state, 999)


def draws_with_an_out(unseen: list[Tile], out_tiles: set[Tile], draws: int) -> Fraction:
    """Counting: every ordered way to draw ``draws`` of the unseen tiles (each copy a tile of its own), and how
    many of them hold an out."""
    ways = list(permutations(range(len(unseen)), draws))
    good = sum(1 for way in ways if any(unseen[k] in out_tiles for k in way))
    return Fraction(good, len(ways))


@pytest.mark.parametrize(("total", "outs_"), [(6, 0), (6, 1), (7, 3), (8, 8), (9, 2)])
def test_the_odds_against_counting(total: int, outs_: int) -> None:
    unseen = [Tile(k + 1, Colour.RED) for k in range(total)]
    out_tiles = set(unseen[:outs_])
    for draws in (1, 2, 3):
        assert chance(total, outs_, total, draws) == draws_with_an_out(unseen, out_tiles, draws)
    # no more draws than the pool holds
    assert chance(total, outs_, 1, 2) == chance(total, outs_, total, 1)
    assert chance(total, outs_, 0, 2) == 0


def test_the_issues_example() -> None:
    """9 of 61 unseen tiles: 9/61 = 14.8% on the next draw, 1 - (52 * 51) / (61 * 60) = 27.5% within two."""
    kinds = STANDARD.tiles()  # 52 kinds: nine of them twice, 61 tiles
    seen = Unseen(STANDARD, tuple((t, 2 if 9 <= k < 18 else 1) for k, t in enumerate(kinds)), 40, 21)
    found = [Probed(None, 0, True)] + [Probed(t, 4 if k < 9 else 0, True) for k, t in enumerate(kinds)]
    result = summarise(seen, found, initial_meld=False)
    assert result.count == 9 and result.next_draw == Fraction(9, 61)
    assert result.two_draws == 1 - Fraction(52 * 51, 61 * 60)
    assert [str(line) for line in result.lines()] == [
        "9 of 61 unseen tiles would let you play; 15% on your next draw, 28% within two draws",
        "Best: 1R, 2R, 3R, 4R, 5R, 6R, 7R, 8R or 9R, to lay 4 tiles",
    ]


def test_words_for_more_for_the_opening_for_none_and_when_not_proven() -> None:
    seen = Unseen(STANDARD, ((Tile(5, Colour.RED), 2), (JOKER, 1)), 2, 1)
    more = summarise(
        seen, [Probed(None, 3, True), Probed(Tile(5, Colour.RED), 3, True), Probed(JOKER, 5, False)], initial_meld=False
    )
    assert [str(x) for x in more.lines()] == [
        "1 of 3 unseen tiles would let you lay more; 33% on your next draw, 67% within two draws",
        "Best: J, to lay 5 tiles",
        "Not every draw was worked out to the end in the time allowed: these are the best found",
    ]
    opening = summarise(
        seen, [Probed(None, 0, True), Probed(Tile(5, Colour.RED), 3, True), Probed(JOKER, 3, True)], initial_meld=True
    )
    assert str(opening.lines()[0]).startswith("3 of 3 unseen tiles would let you open; 100% on your next draw")
    assert str(opening.lines()[1]) == "Best: 5R or J, to open with 3 tiles"
    none = summarise(
        seen, [Probed(None, 0, True), Probed(Tile(5, Colour.RED), 0, True), Probed(JOKER, 0, True)], initial_meld=True
    )
    assert [str(x) for x in none.lines()] == ["None of the 3 unseen tiles would let you open"]
    # an opening there is already: the outs open with more tiles
    more_opening = summarise(
        seen, [Probed(None, 3, True), Probed(Tile(5, Colour.RED), 4, True), Probed(JOKER, 3, True)], initial_meld=True
    )
    assert str(more_opening.lines()[0]).startswith("2 of 3 unseen tiles would let you open with more tiles; 67%")
    stuck = summarise(
        seen, [Probed(None, 3, True), Probed(Tile(5, Colour.RED), 3, True), Probed(JOKER, 3, True)], initial_meld=True
    )
    assert [str(x) for x in stuck.lines()] == ["None of the 3 unseen tiles would let you open with more tiles"]
    empty = summarise(replace(seen, pool=0), [Probed(None, 0, True), Probed(JOKER, 4, True)], initial_meld=False)
    assert [str(x) for x in empty.lines()] == ["The pool is empty: there is no tile to draw"]
    assert empty.next_draw == 0 and empty.outs


def brute_outs(rules: Rules, rack: list[Tile], before: list[TileSet], *, initial_meld: bool) -> dict[Tile, int]:
    """Written apart from the code under test: every unseen kind of tile tried by exhaustive search (the
    oracle), each that lays more tiles than the rack alone, with the tiles it lays."""
    on_table = Counter(t for s in before for t in s.tiles)
    sets = [laid(s) for s in before]
    now = best_play(rack, sets, rules, initial_meld=initial_meld).tiles
    found: dict[Tile, int] = {}
    for t in [*rules.tiles(), JOKER]:
        if rules.copies_of(t) - on_table[t] - rack.count(t) <= 0:
            continue
        more = best_play([*rack, t], sets, rules, initial_meld=initial_meld).tiles
        if more > now:
            found[t] = more
    return found


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), sets=st.integers(0, 3), rack_size=st.integers(1, 4), opening=st.booleans())
def test_the_outs_against_every_unseen_tile_tried(seed: int, sets: int, rack_size: int, opening: bool) -> None:
    rack, before = deal(seed, sets, rack_size, TINY)
    seen = unseen_for(TINY, before, rack, others=min(5, len(rack)))
    result = outs(rack, before, TINY, seen, initial_meld=opening)
    expected = brute_outs(TINY, rack, before, initial_meld=opening)
    assert {o.tile: o.tiles for o in result.outs} == expected
    counts = seen.counter()
    assert result.count == sum(counts[t] for t in expected)
    assert result.now == best_play(rack, [laid(s) for s in before], TINY, initial_meld=opening).tiles
    assert result.proven
    # best first, ties in the rules' order
    assert [o.tiles for o in result.outs] == sorted((o.tiles for o in result.outs), reverse=True)
    assert result.next_draw == chance(seen.total, result.count, seen.pool, 1)


def test_the_chats_answer_saves_a_solve_and_a_pool_runs_the_probes() -> None:
    rack, before = deal(11, 8, 8, STANDARD)
    seen = unseen_for(STANDARD, before, rack, others=28)
    alone = outs(rack, before, STANDARD, seen, initial_meld=False)
    answer = solve(rack, before, STANDARD)
    calls: list[list[int]] = []

    def counting(fn, jobs):  # type: ignore[no-untyped-def]
        calls.append([len(job.tiles) for job in jobs])
        return map(fn, jobs)

    assert outs(rack, before, STANDARD, seen, initial_meld=False, now=answer, map_with=counting) == alone
    assert calls == [[len(seen.tiles)]]  # one solve per unseen kind, none for the rack as it is
    # an answer to another question (the opening) is not used
    opening = solve(rack, before, STANDARD, initial_meld=True)
    outs(rack, before, STANDARD, seen, initial_meld=False, now=opening, map_with=counting, parts=2)
    assert len(calls[-1]) == 2 and sum(calls[-1]) == len(seen.tiles) + 1 and max(calls[-1]) - min(calls[-1]) <= 1
    # the batches are plain values a process pool can take, one call a process
    jobs = probes(rack, before, STANDARD, seen, initial_meld=False, parts=2)
    assert [t for job in jobs for t in job.tiles].count(None) == 1
    assert pickle.loads(pickle.dumps(jobs[0])) == jobs[0] and probe(jobs[1]) == probe(
        pickle.loads(pickle.dumps(jobs[1]))
    )
    with ProcessPoolExecutor(2) as pool:
        assert outs(rack, before, STANDARD, seen, initial_meld=False, map_with=pool.map, parts=2) == alone


def test_for_a_player_of_a_game() -> None:
    state = game(table_text="4B 5B 6B", melded=False, racks={ALICE: "10R 11R 5K 8O 8O"}, sizes={BOB: 14, CAROL: 14})
    seen, found = outs_of(state, ALICE)
    assert isinstance(found, Outs) and found.opening and found.now == 0
    assert seen.pool + seen.on_racks == seen.total
    # 12R or 9R would open (33 points, 30 points), the joker too
    best = {o.tile for o in found.best}
    assert {Tile(12, Colour.RED), JOKER} <= {o.tile for o in found.outs} and best
    melded = replace(state, players=tuple(replace(p, melded=True) for p in state.players))
    _, after = outs_of(melded, ALICE)
    assert not after.opening and Tile(7, Colour.BLUE) in {o.tile for o in after.outs}
