"""`python -m bot puzzle` as a user runs it: the answer on stdout, one-line errors with status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def puzzle(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "puzzle", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_issues_example() -> None:
    done = puzzle("3R\n2\n1 4R 5R 6R\n2 4B 4G 4Y\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "PUT 3R 1\n1 3R 4R 5R 6R\n2 4B 4G 4Y\n"
    assert done.stderr == ""


def test_windows_line_ends_and_trailing_blank_lines_are_fine() -> None:
    done = puzzle("3R\r\n2\r\n1 4R 5R 6R\r\n2 4B 4G 4Y\r\n\r\n\r\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "PUT 3R 1"


def test_no_answer_prints_impossible_with_status_1() -> None:
    done = puzzle("1B\n1\n1 5R 6R 7R\n")
    assert done.returncode == 1
    assert done.stdout == "IMPOSSIBLE\n"


def test_bad_input_is_one_line_on_stderr_with_status_2() -> None:
    for text in ("", "3X\n1\n1 4R 5R 6R\n", "3R\n1\n1 4R 5R 7R\n", "3R\n3\n1 4R 5R 6R\n"):
        done = puzzle(text)
        assert done.returncode == 2, text
        assert done.stdout == ""
        assert done.stderr.startswith("puzzle: ")
        assert len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr


def test_a_bad_bound_is_refused() -> None:
    done = puzzle("3R\n1\n1 4R 5R 6R\n", "--max-actions", "0")
    assert done.returncode == 2
    assert "max-actions" in done.stderr


def test_the_bound_is_an_option() -> None:
    text = "6R\n3\n1 4R 5R 6R\n2 7B 7G 7R 7Y\n3 8B 8G 8R 8Y\n"
    assert puzzle(text, "--max-actions", "4").stdout == "IMPOSSIBLE\n"
    assert puzzle(text, "--max-actions", "5").returncode == 0


def test_a_time_limit_gives_up_with_status_1() -> None:
    from tests.solver.test_puzzle import CHAIN

    done = puzzle(CHAIN, "--time-limit", "0.001")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("puzzle: gave up after 0.001 s")
    assert puzzle(CHAIN, "--time-limit", "0").returncode == 2
    assert puzzle(CHAIN, "--time-limit", "10").returncode == 0


def test_numbers_of_thousands_of_digits_are_refused_with_status_2() -> None:
    for text in (
        f"{'9' * 4301}R\n1\n1 1R 2R 3R\n",
        f"3R\n{'9' * 4301}\n1 1R 2R 3R\n",
        f"3R\n1\n{'9' * 4301} 1R 2R 3R\n",
    ):
        done = puzzle(text)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr) < 200
