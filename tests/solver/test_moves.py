"""The move planner: replaying its moves on the old table must give exactly the new table."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.flows import PlanError
from solver.moves import Move, MoveError, MoveKind, Transfer, apply_moves
from solver.notation import parse_table, parse_tiles
from solver.planner import Plan, plan, plan_moves, plan_solution
from solver.rules import STANDARD, Rules
from solver.sets import TileSet, is_valid, make_set
from solver.solve import solve
from solver.tiles import JOKER, Colour, Tile
from tests.solver.test_solve_properties import deal

R = STANDARD


def multiset(sets: Sequence[Sequence[Tile]]) -> list[tuple[str, ...]]:
    return sorted(tuple(sorted(str(t) for t in s)) for s in sets)


def check(before: Sequence[TileSet], after: Sequence[TileSet], placed: Sequence[Tile], p: Plan) -> None:
    """Replay with the rack and compare; also check the final numbers point at the right sets."""
    table = apply_moves(before, p.moves, placed)
    assert multiset([list(c.elements()) for c in table.values()]) == multiset([s.tiles for s in after])
    assert sorted(p.numbers) == sorted(table)
    for j, n in enumerate(p.numbers):
        assert Counter(after[j].tiles) == table[n]
    used = Counter(t for m in p.moves for tr in m.transfers if tr.source is None for t in tr.tiles)
    assert used == Counter(placed), "every placed tile comes off the rack exactly once"
    moved = Counter(t for m in p.moves for t in m.tiles)
    assert not moved - (Counter(t for s in before for t in s.tiles) + Counter(placed)), "no tile is picked up twice"


def run(before: str, after: str, placed: str = "") -> Plan:
    b, a, p = parse_table(before, R), parse_table(after, R), parse_tiles(placed, R)
    result = plan(b, a, p, R)
    check(b, a, p, result)
    return result


def kinds(p: Plan) -> list[MoveKind]:
    return [m.kind for m in p.moves]


def test_rack_tile_on_a_runs_end() -> None:
    p = run("4R 5R 6R | 7B 7K 7O", "4R 5R 6R 7R | 7B 7K 7O", "7R")
    assert kinds(p) == [MoveKind.EXTEND]
    assert p.moves[0].describe() == "Put 7R from your rack on set 1 (set 1: 4R 5R 6R 7R)"
    assert p.numbers == (1, 2)


def test_rack_tiles_on_both_ends_are_one_move() -> None:
    assert kinds(run("4R 5R 6R", "3-7R", "3R 7R")) == [MoveKind.EXTEND]


def test_insert_splits_a_run() -> None:
    p = run("1-6R", "1-4R | 4-6R", "4R")
    assert kinds(p) == [MoveKind.INSERT_SPLIT]
    move = p.moves[0]
    assert move.created == 2
    assert move.after(1) == tuple(parse_tiles("1R 2R 3R 4R", R))
    assert move.after(2) == tuple(parse_tiles("4R 5R 6R", R))
    assert "splitting it" in move.describe()


def test_take_from_a_set_and_put_in_another() -> None:
    p = run("3R 4R 5R 6R | 6B 6K 6O", "3R 4R 5R | 6R 6B 6K 6O")
    assert kinds(p) == [MoveKind.TAKE_PUT]
    assert p.moves[0].transfers == (Transfer((Tile(6, Colour.RED),), 1, 2),)


def test_join_two_runs() -> None:
    p = run("3R 4R 5R | 6R 7R 8R", "3-8R")
    assert kinds(p) == [MoveKind.JOIN]
    assert p.moves[0].describe() == "Join set 2 onto set 1 (set 1: 3R 4R 5R 6R 7R 8R)"
    assert p.numbers == (1,)


def test_split_a_run_then_lay_a_new_set() -> None:
    p = run("1-8R", "1-3R | 4-8R | 9K 9B 9O", "9K 9B 9O")
    assert sorted(k.value for k in kinds(p)) == ["new_set", "split"]
    created = [m.created for m in p.moves]
    assert created == [2, 3], "new sets are numbered after the old ones, in the order they are made"


def test_move_the_joker_and_say_what_replaces_it() -> None:
    p = run("4R J 6R", "4R 5R 6R | J 8K 9K", "5R 8K 9K")
    assert kinds(p) == [MoveKind.MOVE_JOKER]
    text = p.moves[0].describe()
    assert "Put 5R from your rack in place of the joker in set 1" in text
    assert "new set 2" in text


def test_joker_moves_onto_an_existing_set() -> None:
    p = run("4R J 6R | 9K 10K 11K", "4R 5R 6R | 9K 10K 11K J", "5R")
    assert kinds(p) == [MoveKind.MOVE_JOKER]
    assert all(m.table_valid for m in p.moves)


def test_joker_swap_with_more_tiles_names_the_one_in_its_place() -> None:
    p = run("8B 9B J | 5K 6K 7K 8K", "7B 8B 9B 10B | 5K 6K 7K 8K J", "7B 10B")
    assert kinds(p) == [MoveKind.MOVE_JOKER]
    assert p.moves[0].in_place_of_joker == Tile(10, Colour.BLUE)
    assert p.moves[0].describe().startswith("Put 7B 10B from your rack in set 1, 10B in place of the joker; ")
    assert p.moves[0].to_json()["in_place_of_joker"] == "10B"


def test_a_runs_end_taken_into_a_group_is_not_an_insert() -> None:
    p = run("1R 2R 3R 4R", "2R 3R 4R | 1R 1B 1K", "1B 1K")
    assert kinds(p) == [MoveKind.NEW_SET]
    assert p.moves[0].describe() == (
        "Take 1R from set 1 and 1B 1K from your rack and lay them as new set 2 (set 2: 1R 1B 1K)"
    )


def test_a_new_set_from_the_rack() -> None:
    p = run("1-3R", "1-3R | 5B 5K 5O", "5B 5K 5O")
    assert kinds(p) == [MoveKind.NEW_SET]
    assert p.moves[0].describe() == "Lay 5B 5K 5O from your rack as new set 2"


def test_a_new_set_gathered_from_the_table_is_one_move() -> None:
    p = run("1-4R | 4B 4K 4O 4R | 1-4K", "1-3R | 4B 4K 4R | 1-3K | 4R 4K 4O")
    assert kinds(p) == [MoveKind.NEW_SET]
    move = p.moves[0]
    assert move.created == 4 and move.table_valid
    assert move.describe() == (
        "Take 4R from set 1, 4O from set 2 and 4K from set 3 and lay them as new set 4 (set 4: 4R 4K 4O)"
    )


def test_a_new_run_from_a_runs_end_and_the_rack() -> None:
    p = run("1-4R", "1-3R | 4-6R", "5R 6R")
    assert kinds(p) == [MoveKind.NEW_SET]


def test_numbers_are_never_reused_after_a_set_is_gone() -> None:
    p = run("3R 4R 5R | 6R 7R 8R | 1B 2B 3B", "3-8R | 1B 2B 3B | 7K 8K 9K", "7K 8K 9K")
    new = [m for m in p.moves if m.created is not None]
    assert [m.created for m in new] == [4]
    assert p.numbers == (1, 3, 4)


def test_the_table_stays_valid_when_an_order_allows() -> None:
    # 10O must go on set 2 before 7O can leave it.
    p = run("7R 7B 7K | 7O 8O 9O", "7R 7B 7K 7O | 8O 9O 10O", "10O")
    assert kinds(p) == [MoveKind.EXTEND, MoveKind.TAKE_PUT]
    assert all(m.table_valid for m in p.moves)


def test_a_cycle_that_cannot_stay_valid_is_still_replayed_exactly() -> None:
    p = run("7R 7B 7K | 8R 8B 8K | 9R 9B 9K", "7R 8R 9R | 7B 8B 9B | 7K 8K 9K")
    assert len(p.moves) == 3
    assert p.moves[-1].table_valid
    assert not all(m.table_valid for m in p.moves)
    assert "not valid yet" in p.moves[0].describe()


def test_nothing_changes_means_no_moves() -> None:
    assert run("1-3R | 5B 5K 5O", "5B 5K 5O | 1-3R").moves == ()


def test_tiles_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(PlanError, match="would be lost"):
        plan(parse_table("1-4R", R), parse_table("1-3R", R), [], R)
    with pytest.raises(PlanError, match="came from nowhere"):
        plan(parse_table("1-3R", R), parse_table("1-4R", R), [], R)


def test_replay_refuses_a_tile_that_is_not_there() -> None:
    before = parse_table("1-3R", R)
    bad = Move(MoveKind.TAKE_PUT, (Transfer((Tile(5, R.colour_order[0]),), 1, 1),), ())
    with pytest.raises(MoveError, match="not in set 1"):
        apply_moves(before, [bad])
    rack_move = Move(MoveKind.EXTEND, (Transfer((Tile(4, R.colour_order[0]),), None, 1),), ())
    with pytest.raises(MoveError, match="not on the rack"):
        apply_moves(before, [rack_move], rack=[])
    skipping = Move(MoveKind.NEW_SET, (Transfer((JOKER,), None, 5),), (), created=5)
    with pytest.raises(MoveError, match="next new set is 2"):
        apply_moves(before, [skipping])


def test_json_is_machine_readable() -> None:
    p = run("1-6R", "1-4R | 4-6R", "4R")
    data = p.moves[0].to_json()
    assert data["kind"] == "insert_split"
    assert sorted(data["tiles"]) == ["4R", "5R", "6R"]
    assert data["sets"] == [1, 2]
    assert data["created"] == 2
    assert {"from": None, "to": 2, "tiles": ["4R"]} in data["transfers"]
    assert data["table_valid"] is True
    assert data["text"] == p.moves[0].describe()


def test_plan_moves_and_plan_solution_agree() -> None:
    rules = R
    table = parse_table("4R 5R 6R | 9B 9K 9O", rules)
    rack = parse_tiles("7R 9R 1K", rules)
    solution = solve(rack, table, rules, time_limit=10)
    moves = plan_solution(solution)
    assert len(moves) == len(plan_moves(solution.table_before, solution.table, solution.placed, rules))
    table_after = apply_moves(solution.table_before, moves, solution.placed)
    assert multiset([list(c.elements()) for c in table_after.values()]) == multiset([s.tiles for s in solution.table])


# -- property tests -----------------------------------------------------------------------------------------


def random_walk(seed: int, rules: Rules) -> tuple[list[TileSet], list[TileSet], list[Tile]]:
    """A random valid table, then random valid play and rearrangement steps; what they placed from the deck."""
    rng = random.Random(seed)
    deck = [t for t in rules.tiles() for _ in range(rules.copies)] + [JOKER] * rules.jokers
    rng.shuffle(deck)

    def draw(want: list[Tile]) -> bool:
        if all(deck.count(t) >= want.count(t) for t in set(want)):
            for t in want:
                deck.remove(t)
            return True
        return False

    def fresh_set() -> list[Tile] | None:
        if rng.random() < 0.5:
            colour = rng.choice(rules.colour_order)
            length = rng.randint(3, 6)
            start = rng.randint(1, rules.numbers - length + 1)
            want = [Tile(n, colour) for n in range(start, start + length)]
        else:
            number = rng.randint(1, rules.numbers)
            want = [Tile(number, c) for c in rng.sample(list(rules.colour_order), rng.randint(3, 4))]
        if rng.random() < 0.2:
            want[rng.randrange(len(want))] = JOKER
        return want if draw(want) else None

    table: list[list[Tile]] = []
    while len(table) < rng.randint(2, 7):
        s = fresh_set()
        if s is not None:
            table.append(s)
    before = [make_set(s, rules) for s in table]
    placed: list[Tile] = []
    for _ in range(rng.randint(1, 12)):
        op = rng.choice(["extend", "new", "split", "join", "move", "insert"])
        if op == "new":
            s = fresh_set()
            if s is not None:
                table.append(s)
                placed.extend(s)
        elif op in ("extend", "insert") and deck and table:
            t = rng.choice(deck)
            k = rng.randrange(len(table))
            grown = [*table[k], t]
            if is_valid(grown, rules):
                deck.remove(t)
                table[k] = grown
                placed.append(t)
            elif op == "insert" and is_valid(table[k], rules):
                laid = make_set(table[k], rules)
                if t in laid.tiles and not t.is_joker:
                    at = laid.tiles.index(t)
                    low, high = [*laid.tiles[: at + 1]], [t, *laid.tiles[at + 1 :]]
                    if is_valid(low, rules) and is_valid(high, rules):
                        deck.remove(t)
                        table[k : k + 1] = [low, high]
                        placed.append(t)
        elif op == "split" and table:
            k = rng.randrange(len(table))
            laid = make_set(table[k], rules)
            cut = rng.randint(1, max(1, len(laid.tiles) - 1))
            low, high = list(laid.tiles[:cut]), list(laid.tiles[cut:])
            if laid.kind.value == "run" and is_valid(low, rules) and is_valid(high, rules):
                table[k : k + 1] = [low, high]
        elif op == "join" and len(table) >= 2:
            a, b = rng.sample(range(len(table)), 2)
            if is_valid(table[a] + table[b], rules):
                table[a] = table[a] + table[b]
                del table[b]
        elif op == "move" and len(table) >= 2:
            a, b = rng.sample(range(len(table)), 2)
            t = rng.choice(table[a])
            rest = list(table[a])
            rest.remove(t)
            if is_valid(rest, rules) and is_valid([*table[b], t], rules):
                table[a], table[b] = rest, [*table[b], t]
    after = [make_set(s, rules) for s in table]
    rng.shuffle(after)
    return before, after, placed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9))
def test_random_plays_replay_exactly(seed: int) -> None:
    before, after, placed = random_walk(seed, R)
    p = plan(before, after, placed, R)
    check(before, after, placed, p)
    assert p.moves == () or p.moves[-1].table_valid, "the last move leaves the new table, which is valid"
    for m in p.moves:
        assert m.transfers and m.describe()
        assert all(tr.tiles for tr in m.transfers)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_any_regrouping_of_the_same_tiles_replays_exactly(seed: int) -> None:
    """Before and after unrelated except for their tiles: a grid of runs laid again as groups, and so on."""
    rng = random.Random(seed)
    colours = list(R.colour_order)
    before: list[TileSet] = []
    after: list[TileSet] = []
    for _ in range(rng.randint(1, 3)):
        start = rng.randint(1, R.numbers - 2)
        cs = rng.sample(colours, 3)
        runs = [make_set([Tile(start + i, c) for i in range(3)], R) for c in cs]
        groups = [make_set([Tile(start + i, c) for c in cs], R) for i in range(3)]
        first, second = (runs, groups) if rng.random() < 0.5 else (groups, runs)
        before += first
        after += second
    rng.shuffle(after)
    p = plan(before, after, [], R)
    check(before, after, [], p)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=8))
def test_solver_answers_replay_exactly(seed: int, sets: int) -> None:
    rack, table = deal(seed, sets, 10, R)
    solution = solve(rack, table, R, time_limit=10)
    moves = plan_solution(solution)
    p = plan(solution.table_before, solution.table, solution.placed, R, hint=solution.kept_from)
    assert moves == list(p.moves)
    check(solution.table_before, solution.table, solution.placed, p)


def test_the_solve_command_prints_and_exports_the_moves() -> None:
    from bot.cli_solve import as_json, as_text

    solution = solve(parse_tiles("3R 4R 5R 7B J 11K", R), parse_table("6R 7R 8R | 7K 7O 7R", R), R, time_limit=10)
    text = as_text(solution)
    assert "Moves:" in text
    assert "   1. Put " in text
    moves = as_json(solution)["moves"]
    assert [m["kind"] for m in moves] == ["extend", "extend"]
    assert moves == [m.to_json() for m in plan_solution(solution)]
