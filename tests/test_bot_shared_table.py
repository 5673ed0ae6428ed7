"""End to end, the table a group shares: every tile on it stays, however a player writes the change.

/table, a ``table:`` line in the group and a ``rack:``/``table:`` message in a private chat linked to the
group all change the same table: they keep every old tile (or say ``fix``), new tiles are a play, and the
group sees each change without learning anyone's rack.
"""

from __future__ import annotations

from pathlib import Path

from tests.bot_support import ALICE, BOB, Session, rack_of, session, tiles
from tests.fake_bot_api import Call, User
from tests.test_bot_group import GROUP, new_game_with_two


async def table_of(s: Session) -> list[str]:
    return [str(x) for x in (await s.service.active_game(GROUP.id)).table]


async def linked(s: Session, created: Call, *players: tuple[User, str]) -> None:
    """Each player opens the group's deep link and sets a rack in private."""
    for user, rack in players:
        mark = s.fake.mark()
        s.fake.follow(user, created, "My rack")
        await s.fake.reply(user.id, mark)
        await s.ask(user, f"/rack {rack}")


async def test_table_in_the_group_keeps_every_old_tile_unless_fixed(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 5K 5O 5B", GROUP)
        before = await s.service.active_game(GROUP.id)

        refused = await s.ask(BOB, "/table 9K 10K 11K", GROUP)
        assert refused.method == "sendMessage"
        assert "lacks 1R 2R 3R 5B 5K 5O" in refused.text and "/table fix" in refused.text
        after = await s.service.active_game(GROUP.id)
        assert after.table == before.table and after.version == before.version

        # the same in a table: line
        refused = await s.ask(BOB, "table: 1R 2R 3R", GROUP)
        assert "lacks 5B 5K 5O" in refused.text
        assert await table_of(s) == ["1R 2R 3R", "5B 5K 5O"]

        fixed = await s.ask(BOB, "/table fix 1R 2R 3R | 5K 5O 5R", GROUP)
        assert fixed.method == "sendPhoto" and fixed.text == "Table corrected: 2 sets."
        assert await table_of(s) == ["1R 2R 3R", "5R 5K 5O"]
        assert (await s.service.active_game(GROUP.id)).turn == ALICE.id  # a correction is not a play


async def test_new_tiles_in_a_table_are_a_play_shown_to_the_group(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R", GROUP)
        played = await s.ask(ALICE, "/table 1R 2R 3R 4R | 9B 9K 9O", GROUP)
        assert played.method == "sendPhoto"
        assert played.text == "Recorded: 4R 9B 9K 9O (4 tiles) put down. Bob to play."
        assert await table_of(s) == ["1R 2R 3R 4R", "9B 9K 9O"]
        assert (await s.service.active_game(GROUP.id)).turn == BOB.id


async def test_play_of_a_grown_set_replaces_it(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        await new_game_with_two(s)
        await s.ask(ALICE, "/table 1R 2R 3R | 5B 5K 5O", GROUP)
        played = await s.ask(ALICE, "/play 1R 2R 3R 4R", GROUP)
        assert played.text.startswith("Recorded: 4R (1 tile) put down.")
        assert await table_of(s) == ["1R 2R 3R 4R", "5B 5K 5O"]
        # a set equal to one on the table is a second one (the deck has two of each tile)
        await s.ask(BOB, "/play 5B 5K 5O", GROUP)
        assert await table_of(s) == ["1R 2R 3R 4R", "5B 5K 5O", "5B 5K 5O"]


async def test_a_table_typed_in_a_linked_private_chat_changes_the_groups_table_in_the_open(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await s.ask(ALICE, "/table 1K 2K 3K", GROUP)
        await linked(s, created, (BOB, "1B 2B 3B 9K"))
        before = await s.service.active_game(GROUP.id)

        # tiles gone from the group's table: refused in private, nothing stored, the group hears nothing
        mark = s.fake.mark()
        refused = await s.ask(BOB, "rack: 1B 2B 3B 9K 12R\ntable: 10O 11O 12O")
        assert "lacks 1K 2K 3K" in refused.text
        assert (await s.service.active_game(GROUP.id)).version == before.version
        assert rack_of(await s.player(GROUP.id, BOB)) == tiles("1B 2B 3B 9K")
        assert not s.fake.sent(GROUP.id, mark)

        # Bob's own play, typed as the new table: recorded from his rack, solved, and posted in the group
        mark = s.fake.mark()
        answer = await s.ask(BOB, "table: 1K 2K 3K | 1B 2B 3B")
        assert answer.method in ("sendPhoto", "sendMessage")
        posted = await s.fake.reply(GROUP.id, mark, ("sendPhoto",))
        assert posted.text == "Bob put down 1B 2B 3B (3 tiles). Alice to play."
        assert "9K" not in posted.text
        assert await table_of(s) == ["1K 2K 3K", "1B 2B 3B"]
        assert rack_of(await s.player(GROUP.id, BOB)) == ["9K"]

        # "fix" with no table after it is a mistake, not an empty table
        refused = await s.ask(BOB, "table: fix")
        assert refused.text.startswith("Write the whole table after fix")
        assert await table_of(s) == ["1K 2K 3K", "1B 2B 3B"]

        # the same sets in another order change nothing
        mark = s.fake.mark()
        await s.ask(BOB, "table: 1B 2B 3B | 1K 2K 3K")
        assert not s.fake.sent(GROUP.id, mark)
        assert await table_of(s) == ["1K 2K 3K", "1B 2B 3B"]


async def test_what_the_group_reads_never_tells_a_rack(tmp_path: Path) -> None:
    async with session(tmp_path) as s:
        created = await new_game_with_two(s)
        await linked(s, created, (BOB, "13K 13K 5R 6R 7R"))
        mark = s.fake.mark()
        # the table is right as everyone sees it; Bob's rack, typed earlier, is out of date
        answer = await s.ask(BOB, "/table 11K 12K 13K | 13R 13B 13K", GROUP)
        assert answer.method == "sendPhoto"
        assert await table_of(s) == ["11K 12K 13K", "13R 13B 13K"]
        refused = await s.ask(BOB, "/play 5R 6R 7R", GROUP)  # from his rack, which cannot be right
        assert "out of date" in refused.text
        assert await table_of(s) == ["11K 12K 13K", "13R 13B 13K"]
        assert all("13K" not in c.text and "copies" not in c.text for c in s.fake.sent(GROUP.id, mark))
