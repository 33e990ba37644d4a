"""Each line a person gives ``codenames play`` is read bounded (issue 29, second round,
finding 1): ``codenames play < /dev/zero`` read one endless line until a MemoryError, which
was reported as the AI guesser crashing. A line that is no answer (over-long, a NUL byte,
not text) now stops the game with one line naming the input, and exit code 1."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from codenames_ai.core import GameInterrupted
from codenames_ai.play.terminal import MAX_LINE, Console, UnreadableInput

from ..cli_main import run_main

MAIN = [sys.executable, "-c", "from codenames_ai.cli.app import main; main()"]
ZERO = Path("/dev/zero")
MEMORY = 1 << 30  # a bound for the child: an unbounded read of /dev/zero passes it in a second


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def assert_refused(code: int, err: str, *fragments: str) -> None:
    assert code == 1, err
    assert len(err.splitlines()) == 1 and err.startswith("error: standard input: "), err
    assert "crashed" not in err and "guesser" not in err and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


@pytest.mark.skipif(not ZERO.exists(), reason="no /dev/zero here")
def test_play_from_dev_zero_is_one_line_about_the_input(tmp_path: Path) -> None:
    with ZERO.open("rb") as zero:
        done = subprocess.run([*MAIN, "play", "--seed", "3"], stdin=zero, capture_output=True,
                              text=True, timeout=120, cwd=tmp_path, preexec_fn=limit_memory,
                              env={**os.environ, "COLUMNS": "100",
                                   "XDG_DATA_HOME": str(tmp_path / "data")})
    assert_refused(done.returncode, done.stderr, "line 1 holds a NUL byte")
    assert "The key:" in done.stdout and "Not saved: you made no move" in done.stdout
    assert "Play again?" not in done.stdout


def test_an_over_long_line_stops_the_game_and_is_never_read_again(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    # A1 is a move (the game is kept, as when a person leaves); then a line one too long.
    done = run_main("play", "--seed", "3", "--save", str(save),
                    stdin="A1\n" + "x" * (MAX_LINE + 1) + "\ny\n")
    assert_refused(done.returncode, done.stderr,
                   f"line 2 is longer than {MAX_LINE:,} characters")
    assert f"Saved: {save}" in done.stdout and "Play again?" not in done.stdout


def test_a_line_of_the_most_characters_is_an_answer() -> None:
    lines = iter(["x" * MAX_LINE, "x" * (MAX_LINE + 1)])
    console = Console(read=lambda prompt: next(lines), write=lambda text: None)
    assert console.ask("> ") == "x" * MAX_LINE
    with pytest.raises(UnreadableInput, match=r"line 2 is longer than 1,000 characters"):
        console.ask("> ")
    # Nothing is read after a refused line: the same refusal, at once.
    with pytest.raises(UnreadableInput, match=r"line 2 is longer"):
        console.ask("Play again? ")
    assert issubclass(UnreadableInput, GameInterrupted)  # the runner stops, blames no seat


def test_input_that_is_not_utf8_text_is_refused() -> None:
    def undecodable(prompt: str) -> str:
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    console = Console(read=undecodable, write=lambda text: None)
    with pytest.raises(UnreadableInput, match=r"^standard input: line 1 is not utf-8 text"):
        console.ask("> ")


def test_the_countdown_reads_a_bounded_line_too() -> None:
    reader, writer = os.pipe()
    os.write(writer, b"y" * (4 * MAX_LINE) + b"\n")
    os.close(writer)
    with os.fdopen(reader) as stream:
        console = Console(write=lambda text: None, stream=stream, clock=lambda: 0.0)
        with pytest.raises(UnreadableInput, match=r"line 1 is longer than 1,000 characters"):
            console.ask("> ", seconds=30)
        assert stream.read() == "y" * (3 * MAX_LINE - 1) + "\n"  # the rest was never read


def test_after_the_end_of_input_no_prompt_reads_again() -> None:
    """Issue 29, second round, finding 6: on a terminal, Ctrl-D ends the input once and the
    next read goes on, so a person who left with Ctrl-D was asked 'Play again?'."""
    answers: list[str | None] = [None, "y"]  # Ctrl-D, then what a terminal reads next
    asked: list[str] = []

    def terminal(prompt: str) -> str:
        asked.append(prompt)
        answer = answers.pop(0)
        if answer is None:
            raise EOFError
        return answer

    console = Console(read=terminal, write=lambda text: None)
    with pytest.raises(GameInterrupted, match="you left the game"):
        console.ask("red guess> ")
    with pytest.raises(GameInterrupted, match="you left the game"):
        console.ask("Play again? ")
    assert asked == ["red guess> "]


@pytest.mark.parametrize(("lines", "saved"), [
    ("", False), ("A1\n", True), ("quit\n", False), ("A1\nquit\n", True),
    ("A1\nquit\ny\n", True), ("quit\ny\nn\n", False),
])
def test_the_end_of_input_at_each_prompt_leaves_cleanly(tmp_path: Path, lines: str,
                                                        saved: bool) -> None:
    """Standard input closed at a guess, at 'Quit this game?', at 'Save it?' and at 'Play
    again?': exit 0, no traceback, the game saved as the help says (if a move was made,
    unless the person said not to)."""
    save = tmp_path / "game.jsonl"
    done = subprocess.run([*MAIN, "play", "--seed", "21", "--save", str(save)],
                          input=lines, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert save.exists() is saved
    # Asked only of a person who answered every question of the game; not after a Ctrl-D.
    assert ("Play again?" in done.stdout) is (lines == "quit\ny\nn\n")
