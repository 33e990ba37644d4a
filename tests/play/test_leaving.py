"""Leaving a game at the terminal says and does the same thing (issue 29, finding 11): `help`
says what quitting does, Ctrl-C leaves the command, the outcome line counts turns in good
English, and a game the person made no move in leaves no file behind."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codenames_ai.core import GameInterrupted, GameRecord
from codenames_ai.play.session import default_save_path
from codenames_ai.play.terminal import HELP, SPY_HELP, Console

from ..cli_main import run_main

PLAY_AGAIN = "Play again? (same settings, a new board) [y/N] "
NOT_SAVED = "Not saved: you made no move in this game."


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder where ``codenames play`` saves games by default, in a data folder of this
    test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "100")
    folder = default_save_path(1, "guess").parent
    assert folder.is_relative_to(tmp_path)
    return folder


def test_tests_never_save_into_the_real_data_folder() -> None:
    home_data = Path.home() / ".local" / "share"
    assert not default_save_path(1, "guess").is_relative_to(home_data)


def test_help_says_quitting_asks_and_no_means_not_saved(games: Path) -> None:
    for text in (HELP, SPY_HELP):
        words = " ".join(text.split())
        assert "quit stop the game; you are asked whether to save it" in words
        assert "(it is saved)" not in words
    done = run_main("play", "--seed", "21", stdin="help\nquit\ny\nn\n")
    assert done.returncode == 0, done.stderr
    assert "quit                                                   stop the game; you are " \
           "asked\n" in done.stdout
    assert "Saved:" not in done.stdout and NOT_SAVED not in done.stdout
    assert not games.exists()
    done = run_main("play", "--seed", "21", stdin="quit\ny\ny\n")
    assert done.returncode == 0, done.stderr
    (saved,) = games.iterdir()
    assert f"Saved: {saved}  " in done.stdout
    assert GameRecord.from_jsonl(saved.read_text()).seed == 21


def test_one_turn_is_one_turn(games: Path) -> None:
    # Seed 21: red starts, so quitting at the first prompt stops the game on turn 1.
    done = run_main("play", "--seed", "21", stdin="quit\ny\nn\n")
    assert "No winner: stopped after 1 turn.\n" in done.stdout
    done = run_main("play", "--seed", "21", stdin="A1\nB1\npass\nquit\ny\nn\n")
    assert "No winner: stopped after 3 turns.\n" in done.stdout


def test_a_game_with_no_move_of_the_persons_is_not_saved_and_says_so(games: Path) -> None:
    # The end of input at the first prompt (`codenames play < /dev/null`): the key, the
    # seed, and no file.
    done = run_main("play", "--seed", "21")
    assert done.returncode == 0, done.stderr
    assert "The key:" in done.stdout
    # Input that has ended is not asked "Play again?" (issue 29, second round, finding 6).
    assert done.stdout.endswith(f"Seed 21: codenames play --seed 21 deals this board again.\n"
                                f"{NOT_SAVED}\n")
    assert not games.exists()
    # One touch, then the end of input: saved.
    done = run_main("play", "--seed", "21", stdin="A1\n")
    assert done.returncode == 0, done.stderr
    (saved,) = games.iterdir()
    assert f"Saved: {saved}  " in done.stdout and NOT_SAVED not in done.stdout


def test_ctrl_c_at_a_prompt_is_remembered() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    lines: list[str] = []
    console = Console(read=interrupt, write=lines.append)
    with pytest.raises(GameInterrupted):
        console.ask("red guess> ")
    assert console.interrupted and console.keep is None

    def end(prompt: str) -> str:
        raise EOFError

    console = Console(read=end, write=lines.append)
    with pytest.raises(GameInterrupted):
        console.ask("red guess> ")
    assert not console.interrupted


def read_until(stream: int, wanted: bytes, seconds: float, *, times: int = 1) -> bytes:
    """What a process wrote to ``stream`` until ``wanted`` has appeared ``times`` times (or
    ``seconds`` pass)."""
    output = b""
    deadline = time.monotonic() + seconds
    while output.count(wanted) < times and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.2)
        if ready:
            chunk = os.read(stream, 65536)
            if not chunk:
                break
            output += chunk
    return output


def _ctrl_c_as_at_a_terminal() -> None:
    """Ctrl-C reaches the game as it does at a terminal. A suite started in the background
    by a script inherits SIGINT ignored and passes that on to the game, and a Python started
    so never turns SIGINT into KeyboardInterrupt: the game read on (a quit at the end of its
    input, exit 0) or waited at its prompt until killed, both seen in clean-clone CI runs."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_at_a_prompt_ends_the_game_and_leaves(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-c", "from codenames_ai.cli.app import main; main()", "play",
         "--seed", "21", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "100"}, preexec_fn=_ctrl_c_as_at_a_terminal)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"A1\n")  # one touch, then Ctrl-C at the next prompt
        process.stdin.flush()
        # the prompt after the touch (whatever the clue's number): the second one
        shown = read_until(process.stdout.fileno(), b"red guess> ", 120, times=2)
        assert shown.endswith(b"red guess> "), shown[-300:]
        process.send_signal(signal.SIGINT)
        # stdin stays open until the process ends: communicate() would close it at once, and
        # a process slow to take the signal then read the end of its input (a quit) first
        process.wait(timeout=60)
        out, err = process.stdout.read(), process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    text = (shown + out).decode()
    assert process.returncode == 130, err
    assert err.decode() == "interrupted\n"
    assert "The key:" in text and f"Saved: {save}  " in text  # a move was made: saved
    assert "Play again?" not in text
    assert GameRecord.from_jsonl(save.read_text()).seed == 21
