"""What a person's typo at the guess prompt gets: the covered card it most likely meant, never
a face-up one, and no guess at all when nothing is close."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..cli_main import run_main


@pytest.fixture(autouse=True)
def _width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # the width a pipe gets, whatever runs pytest


def answers(out: str) -> list[str]:
    """What followed each guess prompt (piped, the answer is on the prompt's line)."""
    return [line.split("> ", 1)[1] for line in out.splitlines() if line.startswith("red guess>")]


def test_a_typo_gets_the_covered_card_it_meant(tmp_path: Path) -> None:
    # Seed 25 (hard level): red guesses first; CASTLE is blue's, so touching it ends the turn.
    done = run_main("play", "--seed", "25", "--level", "hard", "--save",
                    str(tmp_path / "g.jsonl"), stdin="casle\nzzz\ncastle\ncasle\n")
    assert done.returncode == 0, done.stderr
    assert answers(done.stdout)[:4] == [
        "no card 'casle' to choose; did you mean 'castle'?",
        "no card 'zzz' to choose; type a card, a coordinate like B3, or 'help'",
        "  red touches 'castle': blue agent",
        # CASTLE is face up now: no suggestion of a card that cannot be chosen.
        "no card 'casle' to choose; type a card, a coordinate like B3, or 'help'",
    ]


def test_board_shows_the_clue_and_the_guesses_left_again(tmp_path: Path) -> None:
    # Seed 25: red's clue is 'animal: 3'; after a touch of a red agent (SUIT), three guesses
    # are left.
    done = run_main("play", "--seed", "25", "--level", "hard", "--save",
                    str(tmp_path / "g.jsonl"), stdin="board\nsuit\nboard\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    shown = [i for i, line in enumerate(lines)
             if line.endswith("turn 1, red to play (you are red)")]
    assert len(shown) == 3  # the board at the clue, then after each 'board'
    assert [lines[i + 1] for i in shown] == ["RED clue: animal: 3  (guesses left: 4)",
                                             "RED clue: animal: 3  (guesses left: 4)",
                                             "RED clue: animal: 3  (guesses left: 3)"]
