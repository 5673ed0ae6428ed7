"""End to end, the coach in the chat (issue 24): /hint through its four levels, /unseen, How did I do?, the
review at the end of a game, the hold-back sentence under an answer and A simpler play, in English and German,
through the loopback fake Bot API and a real SQLite file."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot_support import ALICE, PNG, session
from tests.fake_bot_api import Call


async def _german(s: object) -> None:
    from tests.bot_support import Session

    assert isinstance(s, Session)
    await s.ask(ALICE, "/language")
    mark = s.fake.mark()
    call = s.fake.sent(ALICE.id)[-1]
    s.fake.tap(ALICE, call, "Deutsch")
    await s.fake.reply(ALICE.id, mark)


async def test_hint_goes_through_four_levels_that_agree_with_the_whole_play(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await s.ask(ALICE, "/rack 3R 4R 5R 7B 9K 11K")
        await s.ask(ALICE, "/table 6R 7R 8R | 7K 7O 7R")
        await s.ask(ALICE, "/meld")
        one = await s.ask(ALICE, "/hint")
        assert one.text == "Hint 1 of 4: You can lay 4 tiles"
        two = await s.tap(ALICE, one, "More")
        assert two.text.startswith("Hint 2 of 4: Look at ")
        assert "your red tiles" in two.text and "your 7s" in two.text
        three = await s.tap(ALICE, two, "More")
        assert three.text == (
            "Hint 3 of 4: Lay 3R 4R 5R 7B from your rack, using the red run (set 1) and the group of 7s (set 2)"
        )
        four = await s.tap(ALICE, three, "Show the play")
        assert four.method == "sendPhoto" and four.photo is not None and four.photo.startswith(PNG)
        assert four.text.startswith("Best play (most tiles): 4 tiles")
        laid = re.search(r": ([^\n]*)\n", four.text)
        assert laid is not None and sorted(laid.group(1).replace("|", " ").split()) == sorted("3R 4R 5R 7B".split())
        # the play shown is the one the hints told of, and "I played this" records it
        done = await s.tap(ALICE, four, "I played this")
        assert done.text.startswith("Played ")
        # a hint's button once the table has changed says so, and changes nothing
        mark = s.fake.mark()
        s.fake.tap(ALICE, two, "More")
        alert = await s.fake.call("answerCallbackQuery", mark)
        assert alert.params.get("show_alert") is True and "changed" in alert.params["text"]
