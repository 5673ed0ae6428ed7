"""The coach's chat plumbing without the chat: its buttons' data (``callbacks``), the plays kept for How did I do?
and the review (``bot.telegram.coach``), and the hold-back sentence under a best play."""

from __future__ import annotations

import pytest

from bot.coach.grade import TurnRecord
from bot.telegram import callbacks, coach
from bot.telegram.chats import PRIVATE, SHARED
from solver import STANDARD, parse_table, parse_tiles
from solver.solve import solve
from tests.game_support import ALICE, game

STAMP = "0123456789ab"


def test_the_coach_buttons_read_back_what_they_carry_in_private_only() -> None:
    token = coach.hint_token(2**62, 2**40)
    assert len(token) == 24
    for data, parse, expected in [
        (callbacks.hint(token, 4), callbacks.parse_hint, callbacks.Hinted(token, 4)),
        (callbacks.unseen(2**62), callbacks.parse_unseen, 2**62),
        (callbacks.how_did(token, 199), callbacks.parse_how_did, callbacks.HowDid(token, 199)),
        (callbacks.review(7), callbacks.parse_review, 7),
        (
            callbacks.simpler(7, "t", "0123456789ab"),
            callbacks.parse_simpler,
            callbacks.Suggested(7, "t", "0123456789ab"),
        ),
    ]:
        assert len(data.encode()) <= callbacks.LIMIT
        assert parse(data, PRIVATE) == expected
        assert parse(data, SHARED) is None


@pytest.mark.parametrize("data", ["h:short:2", "h:abcdefghijkl:5", "h:abcdefghijkl:0", "u:x", "w:abcdefghijkl:-1",
                                  "v:", "y:1:t:XYZ", "y:1:z:0123456789ab"])  # fmt: skip
def test_forged_coach_data_reads_as_nothing(data: str) -> None:
    for parse in (callbacks.parse_hint, callbacks.parse_unseen, callbacks.parse_how_did, callbacks.parse_review,
                  callbacks.parse_simpler):  # fmt: skip
        assert parse(data, PRIVATE) is None


def test_a_kept_play_reads_back_as_its_turn() -> None:
    record = TurnRecord(
        rack=tuple(parse_tiles("3R 4R 5R 7B", STANDARD)),
        table=tuple(parse_table("6R 7R 8R | 7K 7O 7R", STANDARD)),
        placed=tuple(parse_tiles("3R 4R 5R", STANDARD)),
        rules=STANDARD,
        opening=False,
    )
    entry = coach._encoded(record, (4, 9))
    state = game()
    again = coach.decoded(entry, state, 3)
    assert again.rack == record.rack and again.table == tuple(record.table) and again.placed == record.placed
    assert again.turn == 3 and coach.numbers_of(entry) == [4, 9]


def test_the_hold_back_sentence_only_under_a_best_play_it_differs_from() -> None:
    table_text = "6R 7R 8R | 7K 7O 7R"
    state = game(table_text=table_text, racks={ALICE: "3R 4R 5R 7B 9K"}, players=(ALICE,), chat_id=1)
    me = state.player(ALICE)
    assert me is not None
    best = solve(me.rack, state.table, STANDARD)
    assert coach.hold_back_line(state, me, best).startswith("Hold back: Keep 3R 4R 5R 7B back and draw")
    out = game(table_text=table_text, racks={ALICE: "3R 4R 5R"}, players=(ALICE,), chat_id=1)
    mine = out.player(ALICE)
    assert mine is not None
    assert coach.hold_back_line(out, mine, solve(mine.rack, out.table, STANDARD)) == ""  # going out: lay it all
