"""Pictures of recorded plays come from one tracing of where every tile came from (issue 23, part 7): the
reading of a typed play, or the suggestion played, is the trace the game keeps; the picture's marks, its
"split from" labels and the listed tiles all come from it."""

from __future__ import annotations

from bot.game.plays import apply_suggestion, play
from bot.game.reading import Rack, read_play
from bot.game.trace import Trace
from bot.telegram.runtime.work import shown
from bot.telegram.words.replies import placed_text
from render import marks_of
from render.layout import split_halves
from render.marks import Mark
from solver import STANDARD
from solver.notation import parse_table_chunks
from solver.recorded import traced_play
from solver.solution import Solution
from solver.solve import arrange, solve
from tests.game_support import ALICE, game
from tests.storage_support import tiles


def recorded(on: str, typed: str, rack: str) -> tuple[list[str], list[list[Mark]], list[str]]:
    """A play typed on ``on`` by Alice (rack ``rack``), recorded by the game core, as its picture shows it: the
    sets, each tile's mark, and each set's label."""
    state = game(table_text=on, racks={ALICE: rack})
    (reading,) = read_play(
        state.table, parse_table_chunks(typed, STANDARD), STANDARD, arrange, Rack.complete(tiles(rack))
    )
    played = play(state, ALICE, ALICE, reading.table, trace=Trace(reading.kept_from, reading.origins))
    assert played.trace is not None
    after = played.state
    picture = traced_play(state.table, after.table, played.trace.origins, played.trace.kept_from, STANDARD)
    _order, labels = split_halves(picture.kept_from, [str(n) for n in after.numbers])
    return [str(s) for s in after.table], marks_of(picture), labels


def test_a_tile_taken_from_a_group_into_a_new_run_is_moved_and_the_run_splits_from_nothing() -> None:
    """The family's case: 9B 10B 11B was labelled "split from 1" though its 9B came from the group of 9s."""
    sets, marks, labels = recorded("6B 7B 8B | 9R 9B 9K 9O", "9B 10B 11B", "10B 11B 1K")
    assert sets == ["6B 7B 8B", "9R 9K 9O", "9B 10B 11B"]
    assert labels == ["1", "2", "3"]  # nothing split
    assert marks == [[Mark.PLAIN] * 3, [Mark.PLAIN] * 3, [Mark.MOVED, Mark.RACK, Mark.RACK]]


def test_no_tile_of_a_brand_new_set_is_marked_unchanged() -> None:
    on, typed = "4R 4B 4K 4O | 5O 6O 7O", "3R 4R 5R 6R | 4O 5O 6O | 7B 7K 7O"
    sets, marks, _labels = recorded(on, typed, "3R 4R 5R 6R 7B 7K 1B")
    assert sorted(sets) == sorted(["4R 4B 4K", "3R 4R 5R 6R", "4O 5O 6O", "7B 7K 7O"])
    for name, row in zip(sets, marks, strict=True):
        if name != "4R 4B 4K":
            assert Mark.PLAIN not in row, (name, row)


def test_a_run_split_by_the_play_is_labelled_with_the_number_it_split_from() -> None:
    sets, marks, labels = recorded("1K 2K 3K 4K 5K 6K 7K", "4K 4B 4O", "4B 4O 9R")
    assert sets == ["1K 2K 3K", "5K 6K 7K", "4B 4K 4O"]
    assert labels == ["1", "2, split from 1", "3"]
    assert marks[2] == [Mark.RACK, Mark.MOVED, Mark.RACK]


def test_a_suggestion_played_is_pictured_as_it_was_shown() -> None:
    """The group's picture of "I played this" and the player's picture of the suggestion mark the same tiles:
    both come from the suggestion's own tracing, kept by the game."""
    state = game(table_text="1O 2O 3O | 4R 4B 4K 4O", racks={ALICE: "4O 5O 6O 9K 10K 11K"})
    suggestion = shown(solve(state.player(ALICE).rack, state.table, STANDARD))  # type: ignore[union-attr]
    played = apply_suggestion(state, ALICE, suggestion)
    assert played.trace is not None
    after = played.state
    group = traced_play(state.table, after.table, played.trace.origins, played.trace.kept_from, STANDARD)

    def marked(solution: Solution) -> set[tuple[str, tuple[str, ...]]]:
        return {
            (str(s), tuple(m.value for m in row)) for s, row in zip(solution.table, marks_of(solution), strict=True)
        }

    assert marked(group) == marked(suggestion)
    assert placed_text(group) == placed_text(suggestion) or set(placed_text(group).split(" | ")) == set(
        placed_text(suggestion).split(" | ")
    )
