"""A results file is read a line at a time with a bound: a line longer than any game's is
refused in one line naming the file and the line, and the torn last line a crash leaves is
found from the file's end, so a results file of any size is opened in bounded memory
(issue 42: ``codenames report`` on a 3 GB line took 14.5 s and 3.3 GB, then a MemoryError
traceback; ``codenames tournament --out`` read the whole file to find its last line)."""

from __future__ import annotations

import os
from pathlib import Path

from codenames_ai.harness.results import GAMES_FILE, MAX_RESULT_LINE_BYTES

from ..cli_main import run_main

CHEAP = ["--spymasters", "random-spymaster-v1", "--guessers", "random-guesser-v1"]
HUGE = 3 << 30  # sparse: no disk is used, and reading it whole would take 3 GB


def played(folder: Path) -> Path:
    """A results folder of two finished games; its ``games.jsonl``."""
    done = run_main("tournament", *CHEAP, "--games", "2", "--seed", "1", "--backend",
                    "serial", "--out", str(folder), "--quiet")
    assert done.returncode == 0, done.stderr
    return folder / GAMES_FILE


def grow(path: Path, size: int) -> None:
    """``path`` made ``size`` bytes long with zeros and no newline (a sparse file)."""
    os.truncate(path, size)


def refused_line(stderr: str, games: Path, number: int) -> None:
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    assert f"{games}: line {number} is longer than" in stderr, stderr


def test_report_refuses_a_huge_line_in_one_line(tmp_path: Path) -> None:
    games = played(tmp_path / "out")
    with games.open("ab") as file:
        file.write(b'{"game":2,')
    grow(games, HUGE)
    done = run_main("report", str(tmp_path / "out"))
    assert done.returncode != 0
    refused_line(done.stderr, games, 3)


def test_a_huge_first_line_is_refused_by_report(tmp_path: Path) -> None:
    games = played(tmp_path / "out")
    games.write_bytes(b"")
    grow(games, HUGE)
    done = run_main("report", str(tmp_path / "out"))
    assert done.returncode != 0
    refused_line(done.stderr, games, 1)


def test_resume_refuses_a_huge_last_line_and_keeps_it(tmp_path: Path) -> None:
    # Not a line a crash can leave (a crash tears a line of at most one game's length):
    # the file is not cut, and the run stops before any game.
    games = played(tmp_path / "out")
    grow(games, HUGE)
    done = run_main("tournament", "--out", str(tmp_path / "out"), "--backend", "serial",
                    "--quiet")
    assert done.returncode != 0
    refused_line(done.stderr, games, 3)
    assert games.stat().st_size == HUGE


def test_resume_cuts_a_torn_line_after_a_long_file_reading_only_its_end(
        tmp_path: Path) -> None:
    # A torn line as long as a game's line may be, after a long stretch of the file: the
    # cut is found reading back from the end.
    games = played(tmp_path / "out")
    finished = games.read_bytes()
    torn = b'{"game":2,"status":"ok","record":[' + b" " * (MAX_RESULT_LINE_BYTES - 40)
    with games.open("ab") as file:
        file.write(torn)
    done = run_main("tournament", "--out", str(tmp_path / "out"), "--games", "3", "--backend",
                    "serial", "--quiet")
    assert done.returncode == 0, done.stderr
    assert games.read_bytes().startswith(finished)
    assert games.read_bytes().count(b"\n") == 3
