"""Set numbers that stay (``bot.game.numbering``)."""

from __future__ import annotations

from bot.game.numbering import in_order, order_of, renumber


def test_sets_that_continue_keep_their_numbers_and_new_sets_count_on() -> None:
    # old sets 1, 2, 4 (3 was broken up earlier); set 2 grew, set 1 was broken up, two new sets
    assert renumber((1, 2, 4), (1, None, 2, None)) == (2, 5, 4, 6)


def test_a_run_split_in_two_keeps_its_number_for_the_first_piece() -> None:
    assert renumber((1, 2), (0, 0, 1)) == (1, 3, 2)


def test_the_table_is_kept_in_the_order_of_its_numbers() -> None:
    assert in_order(["a", "b", "c"], (3, 1, 2)) == (("b", "c", "a"), (1, 2, 3))
    assert order_of((3, 1, 2)) == [1, 2, 0]
