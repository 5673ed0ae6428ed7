"""Self-play (``bot.selfplay``): the simulator's games replayed through the game core's invariants, mirrored
deals, the hold-back advice on positions built for it, the first-turn openings and the command."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from bot.__main__ import main
from bot.game import Finish
from bot.game.invariants import broken
from bot.game.plays import play
from bot.game.tiles import table_key
from bot.selfplay.advice import KEEP_SETS, Other, Reason, View, hold_back, view_of
from bot.selfplay.deal import deal, deal_seed, deck, lineups
from bot.selfplay.game import SelfPlayError, Step, StepKind, play_game, replay, start
from bot.selfplay.measure import measure, wilson
from bot.selfplay.opening import can_open, joker_free_hands, meld_points, opening_rate
from bot.selfplay.policies import POLICIES, policy
from solver import STANDARD, Objective
from solver.solve import solve
from tests.game_support import ALICE, BOB, game
from tests.storage_support import table, tiles


def view(
    rack: str, table_text: str = "", *, melded: bool = True, others: tuple[Other, ...] = (), pool: int = 50
) -> View:
    return View(
        STANDARD, tuple(tiles(rack)), tuple(table(table_text)) if table_text else (), melded,
        others or (Other(10, True),), pool,
    )  # fmt: skip


def words(ts: tuple[object, ...]) -> str:
    return " ".join(str(t) for t in ts)


# --- the simulator: every game replayed through the core -------------------------------------------------


@pytest.mark.parametrize(("players", "number"), [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_a_simulated_game_replays_through_the_core_to_the_same_end(players: int, number: int) -> None:
    dealt = deal(STANDARD, players, deal_seed(7, number))
    names = lineups(players, "greedy", "holdback")[number % players]
    out = play_game(STANDARD, dealt, [policy(n) for n in names])
    assert out.final is not None and broken(out.final) == []
    assert sum(out.scores) == 0  # the box: the winner takes what the others lose
    assert out.scores[out.winner] == max(out.scores) and out.scores[out.winner] >= 0
    if out.finish is Finish.OUT:
        assert out.left[out.winner] == ()
        assert all(out.scores[s] == -STANDARD.rack_value(out.left[s]) for s in range(players) if s != out.winner)
    kinds = Counter(s.kind for s in out.steps)
    assert kinds[StepKind.PLAY] > 0 and kinds[StepKind.DRAW] > 0
    tested = names.index("holdback")
    plays_of = [n for n, s in enumerate(out.steps) if s.seat == tested and s.kind is StepKind.PLAY]
    pool = len(dealt.pool)
    drawn_before = [sum(s.kind is StepKind.DRAW for s in out.steps[:n]) for n in plays_of]
    for n, drew in zip(plays_of[1:], drawn_before[1:], strict=True):  # after its opening: only going out
        assert n == len(out.steps) - 1 or drew == pool, (n, drew)
    again = replay(STANDARD, dealt, out.steps)
    assert again.winner == out.winner + 1
    assert tuple(p.score for p in again.players) == out.scores
    assert table_key(again.table) == table_key(out.final.table)  # the sets' numbers follow the traces


def test_a_replay_that_strays_from_the_deal_is_caught() -> None:
    dealt = deal(STANDARD, 2, deal_seed(7, 0))
    out = play_game(STANDARD, dealt, [policy("greedy"), policy("greedy")])
    first_draw = next(n for n, s in enumerate(out.steps) if s.kind is StepKind.DRAW)
    wrong = list(out.steps)
    wrong[first_draw] = replace(wrong[first_draw], tiles=tuple(tiles("J")))
    with pytest.raises(SelfPlayError, match="drew"):
        replay(STANDARD, dealt, wrong)
    with pytest.raises(SelfPlayError, match="turn"):
        replay(STANDARD, dealt, [Step(1, StepKind.DRAW, tiles=(dealt.pool[0],))])
    with pytest.raises(SelfPlayError, match="end before"):
        replay(STANDARD, dealt, out.steps[:-1])


def test_the_simulator_checks_the_core_against_the_true_racks() -> None:
    """A core whose rack is not the simulator's true rack stops the game (the check after every step)."""
    from bot.selfplay.game import check

    dealt = deal(STANDARD, 2, 1)
    state = start(STANDARD, dealt)
    hands = [Counter(r) for r in dealt.racks]
    check(state, hands, len(dealt.pool), "the deal")
    with pytest.raises(SelfPlayError, match="pool"):
        check(state, hands, len(dealt.pool) - 1, "a draw")
    hands[1][dealt.pool[0]] += 1
    with pytest.raises(SelfPlayError, match="seat 2"):
        check(state, hands, len(dealt.pool), "a draw")


def test_greedy_against_itself_is_a_draw_over_mirrored_deals() -> None:
    """Greedy is deterministic: both seatings of a deal are the same game, won once by each policy's seat."""
    summary = measure(2, 4, 3, "greedy", "greedy")
    assert len(summary.games) == 4
    for a, b in zip(summary.games[::2], summary.games[1::2], strict=True):
        assert (a.winner, a.scores, a.turns) == (b.winner, b.scores, b.turns)


# --- mirrored deals -----------------------------------------------------------------------------------------


def test_a_deal_is_the_real_deck_shuffled_and_reproducible() -> None:
    dealt = deal(STANDARD, 3, 42)
    assert [len(r) for r in dealt.racks] == [14, 14, 14] and len(dealt.pool) == 106 - 42
    everything = Counter(t for r in dealt.racks for t in r) + Counter(dealt.pool)
    assert everything == Counter(deck(STANDARD)) and everything[tiles("J")[0]] == 2
    assert deal(STANDARD, 3, 42) == dealt and deal(STANDARD, 3, 43) != dealt
    assert deal_seed(1, 0) != deal_seed(1, 1) != deal_seed(2, 0)


def test_each_deal_seats_the_tested_policy_in_every_seat() -> None:
    assert lineups(2, "greedy", "holdback") == [("holdback", "greedy"), ("greedy", "holdback")]
    assert lineups(4, "g", "h") == [
        ("h", "g", "g", "g"), ("g", "h", "g", "g"), ("g", "g", "h", "g"), ("g", "g", "g", "h"),
    ]  # fmt: skip


def test_mirrored_games_deal_each_seat_the_same_tiles() -> None:
    summary = measure(2, 2, 5, "greedy", "holdback")
    assert [g.lineup for g in summary.games] == [("holdback", "greedy"), ("greedy", "holdback")]
    assert {g.deal for g in summary.games} == {0}
    dealt = deal(STANDARD, 2, deal_seed(5, 0))
    for names in lineups(2, "greedy", "holdback"):
        state = start(STANDARD, dealt)
        assert [Counter(p.rack) for p in state.players] == [Counter(r) for r in dealt.racks], names


# --- the hold-back advice -----------------------------------------------------------------------------------


def test_after_the_opening_the_play_is_kept_back_until_it_goes_out() -> None:
    advice = hold_back(view("7R 8R 9R 8B 1K 2O", "5B 6B 7B"))
    assert advice is not None and advice.reason is Reason.HOARD and advice.play is None  # draw
    assert words(advice.keep) == "7R 8R 9R 8B"
    assert str(advice.text) == (
        "Keep 7R 8R 9R 8B back and draw: on your rack the others cannot play with them, "
        "and with more tiles you can lay them all at once to go out"
    )
    assert advice.text.params == {"tiles": "7R 8R 9R 8B"}
    assert hold_back(view("7R 8R 9R 1K 5O", "2B 3B 4B")) is not None  # even the only play waits


def test_keep_a_set_of_ones_own_back_while_something_else_goes_down() -> None:
    advice = hold_back(view("7R 8R 9R 8B 1K 2O", "5B 6B 7B"), leaning=KEEP_SETS)
    assert advice is not None and advice.reason is Reason.SETS
    assert words(advice.keep) == "7R 8R 9R"
    assert advice.play is not None and words(advice.play.placed) == "8B"
    assert words(advice.play.rack_left) == "7R 8R 9R 1K 2O"
    assert str(advice.text) == (
        "Keep 7R 8R 9R back: you can still lay them later, and on the table the others could play with them"
    )


def test_while_no_one_else_has_opened_the_advice_says_so() -> None:
    seen = view("7R 8R 9R 8B 1K 2O", "5B 6B 7B", others=(Other(14, False), Other(12, False)))
    advice = hold_back(seen, leaning=KEEP_SETS)
    assert advice is not None and advice.reason is Reason.UNOPENED
    assert str(advice.text) == "Keep 7R 8R 9R back: no one else has opened and you can still lay them later"
    assert advice.text.template == "Keep {tiles} back: no one else has opened and you can still lay them later"
    assert advice.text.params == {"tiles": "7R 8R 9R"}


def test_an_opening_lays_only_what_the_meld_needs() -> None:
    advice = hold_back(view("10R 11R 12R 1B 2B 3B 5K 9O", melded=False))
    assert advice is not None and advice.reason is Reason.OPENING
    assert words(advice.keep) == "1B 2B 3B"
    assert advice.play is not None and words(advice.play.placed) == "10R 11R 12R"
    assert str(advice.text) == (
        "Keep 1B 2B 3B back: 33 points are enough to open, and you can lay the rest on any later turn"
    )
    assert hold_back(view("10R 11R 12R 13R 5K 9O", melded=False)) is None  # one set: nothing to keep


def test_the_play_that_goes_out_the_last_set_and_an_empty_pool_are_laid_whole() -> None:
    assert hold_back(view("7R 8R 9R 8B", "5B 6B 7B")) is None  # goes out
    assert hold_back(view("7R 8R 9R 1K 5O", "2B 3B 4B"), leaning=KEEP_SETS) is None  # the only play: no draw
    assert hold_back(view("7R 8R 9R 8B 1K 2O", "5B 6B 7B", pool=0)) is None  # a blocked game: the lowest rack wins
    assert hold_back(view("1K 5O", "2B 3B 4B")) is None  # no play at all


def test_with_nothing_else_to_lay_the_smallest_set_goes_down() -> None:
    advice = hold_back(view("7R 8R 9R 11B 11K 11O 1O", "2B 3B 4B"), leaning=KEEP_SETS)
    assert advice is not None and advice.play is not None
    assert words(advice.keep) == "7R 8R 9R" and words(advice.play.placed) == "11B 11K 11O"
    drawing = hold_back(view("7R 8R 9R 11B 11K 11O 1O", "2B 3B 4B"), leaning=replace(KEEP_SETS, draw=True))
    assert drawing is not None and drawing.play is None and drawing.reason is Reason.DRAW
    assert words(drawing.keep) == "7R 8R 9R 11B 11K 11O"


def test_the_joker_is_kept_where_the_rest_goes_down_without_it() -> None:
    jokers = replace(KEEP_SETS, joker=True)
    advice = hold_back(view("J 8B 3R 11K 1O", "5B 6B 7B"), leaning=jokers)
    assert advice is not None and advice.reason is Reason.JOKER
    assert words(advice.keep) == "J" and advice.play is not None and words(advice.play.placed) == "8B"
    assert str(advice.text).startswith("Keep J back: the joker fits almost anywhere later")
    assert hold_back(view("J 9B 1R 5K 13O", "5B 6B 7B"), leaning=jokers) is None  # the joker is the play
    assert hold_back(view("J 8B 3R 11K 1O", "5B 6B 7B"), leaning=KEEP_SETS) is None  # not asked to keep it


def test_the_advice_is_a_play_the_core_accepts() -> None:
    state = game(table_text="5B 6B 7B", racks={ALICE: "7R 8R 9R 8B 1K 2O"}, players=(ALICE, BOB))
    seen = view_of(state, ALICE)
    assert seen.rack == tuple(tiles("7R 8R 9R 8B 1K 2O")) and seen.melded and seen.pool == state.pool
    assert seen.others == (Other(14, True),)
    advice = hold_back(seen, leaning=KEEP_SETS)
    assert advice is not None and advice.play is not None
    played = play(state, ALICE, ALICE, advice.play.table)
    assert [str(t) for t in played.state.player(ALICE).rack] == ["7R", "8R", "9R", "1K", "2O"]  # type: ignore[union-attr]
    assert broken(played.state) == []


def test_view_of_lists_the_others_from_the_next_seat() -> None:
    from tests.game_support import CAROL

    state = game(racks={ALICE: "1R"}, sizes={BOB: 9, CAROL: 3}, melded=False)
    seen = view_of(state, BOB, tiles("5K"))
    assert seen.rack == tuple(tiles("5K")) and not seen.melded
    assert seen.others == (Other(3, False), Other(1, False))


def test_every_policy_decides_on_an_opening_and_on_a_table() -> None:
    for name in POLICIES:
        for seen in (view("10R 11R 12R 1B 2B 3B 5K 9O", melded=False), view("7R 8R 9R 8B 1K 2O", "5B 6B 7B")):
            decision = policy(name).decide(seen)
            assert decision.best.has_play
            laid = Counter(decision.play.placed) if decision.play is not None else Counter()
            assert laid + Counter(decision.held) == Counter(decision.best.placed), name
    assert policy("holdback").decide(view("7R 8R 9R 8B 1K 2O", "5B 6B 7B")).play is None
    assert policy("greedy").decide(view("7R 8R 9R 8B 1K 2O", "5B 6B 7B")).held == ()
    with pytest.raises(ValueError, match="no policy"):
        policy("nobody")


# --- first-turn openings ----------------------------------------------------------------------------------


def test_the_fast_meld_count_is_the_solvers_on_dealt_hands() -> None:
    for hand in joker_free_hands(STANDARD, 120, 9):
        best = solve(hand, (), STANDARD, objective=Objective.POINTS)
        assert meld_points(hand, STANDARD) == best.points_placed, hand
        assert can_open(hand, STANDARD) == solve(hand, (), STANDARD, initial_meld=True).has_play


def test_the_meld_count_on_racks_built_for_it() -> None:
    assert meld_points(tiles("1R 2R 3R 4R 5R 6R 7R"), STANDARD) == 28
    assert meld_points(tiles("5R 5B 5K 5O 5R 5B 5K 6R 7R"), STANDARD) == 5 * 6 + 18  # 5R 6R 7R and 5B 5K 5O...
    assert meld_points(tiles("10R 10B 10K 10R 10B 10K"), STANDARD) == 60
    assert meld_points(tiles("1R 2R 4R"), STANDARD) == 0
    assert not can_open(tiles("1R 2R 3R 1B 2B 3B 4B"), STANDARD) and can_open(tiles("9R 10R 11R"), STANDARD)
    with pytest.raises(ValueError):
        meld_points(tiles("J 1R 2R"), STANDARD)


def test_the_published_first_turn_figure_is_within_the_simulators_error() -> None:
    rate = opening_rate(STANDARD, 2000, 1)
    low, high = rate.interval
    assert rate.hands == 2000 and low < 0.349 < high


# --- figures and the command ----------------------------------------------------------------------------


def test_wilson_interval() -> None:
    low, high = wilson(678, 1000)
    assert round(low, 4) == 0.6484 and round(high, 4) == 0.7062
    assert wilson(0, 0) == (0.0, 1.0) and wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "2", "--games", "2", "--seed", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "| holdback | 2 |" in out and "| greedy | 2 |" in out and "95% interval" in out
    assert main(["selfplay", "--policies", "greedy,nobody"]) == 2
    assert main(["selfplay", "--opening-hands", "300", "--seed", "2"]) == 0
    assert "joker-free 14-tile racks can open on the first turn" in capsys.readouterr().out


def test_a_random_position_advice_keeps_tiles_of_the_best_play() -> None:
    """On dealt positions the advice's play and its kept tiles are the best play, split."""
    rng = random.Random(3)
    for number in range(15):
        dealt = deal(STANDARD, 2, deal_seed(11, number))
        board = tuple(table("1-3R | 5K 6K 7K | 9B 9K 9O"))
        held = Counter(t for s in board for t in s.tiles)
        rack = []
        for t in dealt.racks[0] + dealt.pool[: rng.randrange(0, 10)]:
            if held[t] < STANDARD.copies_of(t):
                held[t] += 1
                rack.append(t)
        seen = View(STANDARD, tuple(rack), board, True, (Other(8, True),), 30)
        best = solve(rack, board, STANDARD)
        hoard = hold_back(seen, best)
        assert hoard is None or (hoard.play is None and Counter(hoard.keep) == Counter(best.placed))
        assert (hoard is None) == (not best.has_play or not best.rack_left)
        advice = hold_back(seen, best, KEEP_SETS)
        if advice is None:
            continue
        assert advice.play is not None
        assert Counter(advice.play.placed) + Counter(advice.keep) == Counter(best.placed)
        assert advice.play.has_play and str(advice.keep[0]) in str(advice.text)
