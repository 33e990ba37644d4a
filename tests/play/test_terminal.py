"""Whole games through standard input for every role, one through a real pipe and two
through a real pseudo-terminal, and the bad input a person can type.

The games of each role run ``codenames play`` in this process through ``main()`` (the real
entry point), so the AI's models load once for the file instead of once per game. The pipe
and the pseudo-terminals are real processes, started together the first time a test needs
one: each loads the models, and side by side they use both cores.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from codenames_ai.core import WORDS, Covered, EndReason, GameRecord, GuessMade, Team, deal, replay
from codenames_ai.decks import default_deck

from ..cli_main import run_main

CELLS = [f"{c}{r}" for r in range(1, 6) for c in "ABCDE"]
COMMAND = [sys.executable, "-c", "from codenames_ai.cli.app import main; main()", "play"]
# A touch, then quit without saving: the game ends on the key, and the end of input says no
# to another game.
SCRIPT_INPUT = r"A1\nquit\ny\nn\n"
Play = Callable[[list[str], list[str]], tuple[str, GameRecord]]


def saved(save: Path) -> GameRecord:
    record = GameRecord.from_jsonl(save.read_text())
    assert replay(record).outcome == record.outcome
    return record


@pytest.fixture
def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Play:
    """``codenames play ARGS`` in this process with the lines on standard input: its output
    and the record it saved. An exception ``main()`` lets through fails the test."""
    monkeypatch.setenv("COLUMNS", "100")  # the width a pipe gets, whatever runs pytest

    def run(args: list[str], lines: list[str]) -> tuple[str, GameRecord]:
        save = tmp_path / "game.jsonl"
        done = run_main("play", *args, "--save", str(save), stdin="\n".join(lines))
        assert done.returncode == 0, done.stderr
        return done.stdout, saved(save)

    return run


def on_a_terminal(args: list[str], save: Path,
                  answer: Callable[[bytes], bytes | None]) -> tuple[int | None, str]:
    """``codenames play ARGS`` on a real pseudo-terminal: at each prompt it types what
    ``answer`` gives for the output so far (None: nothing). The exit code and the output."""
    screen, secondary = pty.openpty()
    process = subprocess.Popen([*COMMAND, *args, "--save", str(save)], stdin=secondary,
                               stdout=secondary, stderr=secondary, close_fds=True)
    os.close(secondary)
    output = b""
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([screen], [], [], 0.2)
        if not ready:
            continue
        try:
            chunk = os.read(screen, 65536)
        except OSError:
            break
        output += chunk
        if chunk.rstrip().endswith(b"Play again? (same settings, a new board) [y/N]"):
            os.write(screen, b"n\n")
        elif chunk.rstrip().endswith(b">"):
            typed = answer(output)
            if typed is not None:
                os.write(screen, typed)
    if process.poll() is None and time.monotonic() >= deadline:
        process.kill()
    process.wait(timeout=30)
    os.close(screen)
    return process.returncode, output.decode(errors="replace")


def leave_once_late(output: bytes) -> bytes | None:
    """Say nothing until the clock has run out on a move, then leave (and save)."""
    return b"quit\ny\ny\n" if b"ran out of time" in output else None


@dataclass
class Real:
    """Games in real processes, running; each test waits for its own."""

    folder: Path
    pipe: Future[subprocess.CompletedProcess[str]]
    terminal: Future[tuple[int | None, str]]
    late: Future[tuple[int | None, str]]
    script: Future[subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Real]:
    """All started at once: through a pipe, on a terminal, and on a terminal with a time
    limit."""
    folder = tmp_path_factory.mktemp("real")
    answers = iter(CELLS * 4)
    assert shutil.which("codenames"), "the codenames script is not installed"
    with ThreadPoolExecutor(4) as pool:
        yield Real(
            folder,
            pipe=pool.submit(
                subprocess.run, [*COMMAND, "--seed", "5", "--save", str(folder / "pipe.jsonl")],
                input="\n".join(["", "help", "zzz", "pass", *CELLS * 4]),
                capture_output=True, text=True, timeout=300),
            terminal=pool.submit(on_a_terminal, ["--seed", "5"], folder / "pty.jsonl",
                                 lambda _: (next(answers, "quit") + "\n").encode()),
            late=pool.submit(on_a_terminal, ["--seed", "5", "--time-limit", "2"],
                             folder / "late.jsonl", leave_once_late),
            script=pool.submit(
                subprocess.run, ["bash", "-c", f"printf '{SCRIPT_INPUT}' | codenames play "
                                 "--seed 3"],
                cwd=folder, capture_output=True, text=True, timeout=300,
                env={**os.environ, "COLUMNS": "100"}))


def test_guess_role_through_a_pipe(real: Real) -> None:
    result = real.pipe.result()
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    out, record = result.stdout, saved(real.folder / "pipe.jsonl")
    assert "type a card, a coordinate" in out and "no card 'zzz'" in out
    assert "make at least one guess before passing" in out
    assert "\x1b[" not in out  # no colours in a pipe
    assert record.outcome.winner is not None and "Clues:" in out and "aimed at" in out


def test_the_console_script_through_a_pipe_ends_with_the_key(
        real: Real, monkeypatch: pytest.MonkeyPatch) -> None:
    result = real.script.result()
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stdout.split("\n")
    assert lines[-3:] == ["Seed 3: codenames play --seed 3 deals this board again.",
                          "Play again? (same settings, a new board) [y/N] ", ""]
    key = lines[lines.index("The key:") + 1:-3]
    assert [row[:3] for row in key[:6]] == ["   ", " 1 ", " 2 ", " 3 ", " 4 ", " 5 "]
    assert key[6:] == ["Covered cards, in capitals: [R] red agent  [B] blue agent  "
                       "[-] bystander  [X] assassin",
                       "The key on face-down cards: r red agent  b blue agent  . bystander  "
                       "x assassin"]
    assert "Saved:" not in result.stdout  # 'n': not saved
    # What main() prints in this process, which the other tests read, is the same.
    monkeypatch.setenv("COLUMNS", "100")
    here = run_main("play", "--seed", "3", stdin=SCRIPT_INPUT.replace("\\n", "\n"))
    assert result.stdout == here.stdout


def test_guess_by_word_and_prefix_and_revealed_card_is_refused(play: Play) -> None:
    board = deal(WORDS, default_deck(), 5)
    word, prefix = board.words[0], board.words[1][:3]  # seed 5: TOMATO (red), TOWER
    lines = [word.upper(), word, word[:3] + "\x1b[2J", prefix, *CELLS * 4]
    out, record = play(["--seed", "5", "--level", "hard"], lines)
    # Blue opens; red's first four answers: the word in capitals touches it, the same word
    # again is refused, a non-card is refused (its escape sequence shown, not obeyed: it
    # cleared the screen), and a prefix of one card touches that card.
    answers = [line for line in out.splitlines() if line.startswith("red guess>")][:4]
    assert answers == [
        f"red guess>   red touches '{word}': red agent",
        f"red guess> {word.upper()} is already revealed",
        f"red guess> no card '{word[:3]}\\x1b[2J' to choose; type a card, a coordinate like B3, "
        "or 'help'",
        f"red guess>   red touches '{board.words[1]}': bystander",
    ]
    guesses = [e.word for e in record.events if isinstance(e, GuessMade) and e.team is Team.RED]
    assert guesses[:2] == [word, board.words[1]]
    assert record.outcome.winner is Team.BLUE and record.outcome.turns == 8
    assert "Blue wins on turn 8: all of its agents are covered." in out


def test_spymaster_role_refuses_illegal_clues_with_the_rule(play: Play) -> None:
    board = deal(WORDS, default_deck(), 11)
    clues = ["animal 2", "water 2", "music 2", "space 1", "metal 2", "food 2", "sport 1",
             "travel 2", "weather 1", "nature 2", "science 1", "kitchen 2", "war 1", "art 1"]
    lines = ["help", "ocean", "ocean lots", f"{board.words[3]} 1", *clues * 3]
    out, record = play(["--role", "spymaster", "--seed", "11"], lines)
    assert "refused [board-word]" in out
    assert "give a word and a number" in out and "is not a whole number" in out
    assert record.outcome.reason is not EndReason.TURN_LIMIT


def test_coop_and_three_player_roles(play: Play) -> None:
    out, record = play(["--role", "coop", "--seed", "3"], CELLS * 4)
    assert record.rules.variant.value == "coop"
    # Seed 3: after six virtual turns, the players touch the assassin on turn 13.
    assert (record.outcome.winner, record.outcome.reason) == (Team.RED, EndReason.ASSASSIN)
    assert "The virtual team (red) wins on turn 13: you touched the assassin." in out
    covers = [e for e in record.events if isinstance(e, Covered)]
    assert len(covers) == 6 and all(e.team is Team.RED for e in covers)
    shown = [line for line in out.splitlines() if line.endswith("(the virtual team's turn)")]
    assert shown == [f"  blue spymaster covers red agent '{e.word}' (the virtual team's turn)"
                     for e in covers]
    out, record = play(["--role", "three-player", "--seed", "4"], CELLS * 6)
    assert record.rules.variant.value == "three-player"
    assert "blue guess>" in out and "red guess>" in out


def test_quit_asks_to_save_and_end_of_input_stops_cleanly(play: Play) -> None:
    out, record = play(["--seed", "6"], ["quit", "n", "quit", "y", "y"])
    assert record.outcome.reason is EndReason.STOPPED and "stopped" in out.lower()
    _, record = play(["--seed", "6"], ["A1"])  # then the input ends (Ctrl-D)
    assert record.outcome.reason is EndReason.STOPPED


MARK = {"red": "r", "blue": "b", "bystander": ".", "assassin": "x"}


def assert_key_shown(out: str, record: GameRecord) -> None:
    """After the game the board shows every face-down card with its key mark."""
    key_board = out[out.index("The key:"):]
    final = replay(record)
    for i, word in enumerate(record.board.words):
        if not final.is_revealed(i):
            mark = MARK[record.board.key[i].value]
            assert re.search(rf"(^|\s){re.escape(mark)}\s+{re.escape(word)}(\s|$)", key_board,
                             flags=re.M), (word, mark)


def test_the_ending_shows_the_moves_after_the_last_prompt_and_the_whole_key(
        play: Play) -> None:
    # Seed 21: red's first touch is the assassin; the game ends with no prompt after it.
    out, record = play(["--seed", "21"], ["desert"])
    assert record.outcome.reason is EndReason.ASSASSIN
    assert "red touches 'desert': the assassin" in out
    assert out.index("red touches 'desert'") < out.index("Blue wins") < out.index("The key")
    assert_key_shown(out, record)
    # A game the person quits ends with the key too, and says why it stopped.
    out, record = play(["--seed", "3"], ["A1", "quit", "y", "y"])  # quit, and save it
    assert record.outcome.reason is EndReason.STOPPED
    assert "the game is stopped by a player who quit" in out
    assert_key_shown(out, record)


def test_a_whole_game_in_a_real_pseudo_terminal(real: Real) -> None:
    code, text = real.terminal.result()
    assert code == 0, text[-2000:]
    assert "\x1b[" in text  # a terminal gets colours
    assert "wins on turn 12" in text  # seed 5, these answers: the one ending
    outcome = GameRecord.from_jsonl((real.folder / "pty.jsonl").read_text()).outcome
    assert (outcome.winner, outcome.reason, outcome.turns) == (
        Team.BLUE, EndReason.AGENTS_COVERED, 12)


def test_a_person_over_the_time_limit_forfeits_the_move(real: Real) -> None:
    _, text = real.late.result()
    assert "s left)" in text or "ran out of time" in text, text[-1500:]
    record = GameRecord.from_jsonl((real.folder / "late.jsonl").read_text())
    assert any(type(e).__name__ == "TimedOut" for e in record.events)


def test_a_narrow_terminal_gets_a_list_instead_of_the_grid() -> None:
    from codenames_ai.render import render_board

    words = ("apple", "bear", "cat", "dog")
    wide = render_board(words, (None,) * 4, 2, width=100)
    narrow = render_board(words, (None,) * 4, 2, width=10)
    assert wide.splitlines()[0].split() == ["A", "B"]
    assert narrow.splitlines() == ["A1   apple", "B1   bear", "A2   cat", "B2   dog"]
