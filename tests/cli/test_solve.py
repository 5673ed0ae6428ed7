"""`python -m bot solve` as a user runs it: text, JSON, a picture, and clear errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def solve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "solve", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_text_answer_for_the_readme_example() -> None:
    done = solve("--rack", "3R 4R 5R 7B J 11K", "--table", "6R 7R 8R | 7K 7O 7R")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "5 tiles" in out
    assert "3R 4R 5R 6R 7R 8R J" in out
    assert "7R 7B 7K 7O" in out
    assert "Rack left: 11K" in out


def test_json_answer_has_the_documented_fields() -> None:
    done = solve("--rack", "3R 4R 5R 7B J 11K", "--table", "6R 7R 8R | 7K 7O 7R", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["tiles_placed"] == 5
    assert answer["points_placed"] == 3 + 4 + 5 + 7 + 9  # the joker as the 9R it stands for on the table
    assert sorted(answer["placed"]) == ["3R", "4R", "5R", "7B", "J"]
    assert sorted(map(tuple, answer["table"])) == [("3R", "4R", "5R", "6R", "7R", "8R", "J"), ("7R", "7B", "7K", "7O")]
    assert answer["rack_left"] == ["11K"]
    assert answer["optimal"] is True
    assert answer["kept_sets"] == 2
    assert isinstance(answer["solve_ms"], float)


def test_no_play_says_draw() -> None:
    done = solve("--rack", "1R 5B 9K", "--table", "3O 4O 5O")
    assert done.returncode == 0
    assert "No play: draw a tile" in done.stdout


def test_opening_and_objective_and_rule_options() -> None:
    done = solve("--rack", "10K 10B J", "--initial-meld", "--json")
    assert json.loads(done.stdout)["points_placed"] == 10 + 10 + 10  # the meld counts the joker as a 10
    done = solve("--rack", "7R 8R 9R", "--initial-meld", "--meld", "24", "--json")
    assert json.loads(done.stdout)["tiles_placed"] == 3
    done = solve("--rack", "1B 2B 4B J 13K 13O", "--objective", "points", "--json")
    assert json.loads(done.stdout)["points_placed"] == 13 + 13 + 13  # the joker as the 13 it stands for
    done = solve("--rack", "1B 2B 4B J 13K 13O", "--objective", "points", "--joker-value", "0", "--json")
    assert json.loads(done.stdout)["points_placed"] == 13 + 13 + 13  # a joker's value is a rack's cost, not the table's
    done = solve("--rack", "14R 15R 16R", "--numbers", "16", "--json")
    assert json.loads(done.stdout)["tiles_placed"] == 3


def test_loose_table_tiles_are_arranged() -> None:
    done = solve("--rack", "9R", "--table", "6R 7R 8R 7K 7O 7B", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tiles_placed"] == 1


def test_bad_input_names_the_fault_and_exits_2_without_traceback() -> None:
    cases = [
        (["--rack", "3R 14R"], "14R: a tile's number goes from 1 to 13"),
        (["--rack", "3R", "--table", "6R 7R 8R | 7K 7O 7R 9B"], "set 2"),
        (["--rack", "5R 5R", "--table", "5R 6R 7R"], "3 copies of 5R"),
        (["--rack", "3R", "--table", "1R 2R"], "do not make a table"),
        (["--rack", "3R", "--colours", "9"], "colours=9"),
        (["--rack", "3R", "--time-limit", "0"], "time-limit"),
        (["--rack", "3R", "--objective", "fun"], "invalid choice"),
    ]
    for args, needle in cases:
        done = solve(*args)
        assert done.returncode == 2, (args, done.stdout)
        assert needle in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_image_option_writes_a_png(tmp_path: Path) -> None:
    picture = tmp_path / "play.png"
    done = solve("--rack", "3R 4R 5R 7B J 11K", "--table", "6R 7R 8R | 7K 7O 7R", "--image", str(picture))
    assert done.returncode == 0, done.stderr
    assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_sets_carry_the_numbers_the_moves_use(tmp_path: Path) -> None:
    args = ["--rack", "8R 8B", "--table", "5R 6R 7R 8R | 8K 8O 8B | 9R 10R 11R"]
    answer = json.loads(solve(*args, "--json").stdout)
    final: dict[int, list[str]] = {}
    for move in answer["moves"]:
        for part in move["result"]:
            final[part["set"]] = part["tiles"]
    numbered = dict(zip(answer["set_numbers"], answer["table"], strict=True))
    for number, tiles in final.items():
        if number in numbered:
            assert sorted(numbered[number]) == sorted(tiles), number
    text = solve(*args).stdout
    assert "   1. 5R 6R 7R   (changed)" in text
    assert "   3. 9R 10R 11R   (as before)" in text
    assert "   4. 8R 8B 8O   (new)" in text
