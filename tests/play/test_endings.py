"""The end of a game at the terminal: what it printed, each AI clue's reasons in plain words,
the legend under every board, colours, and playing again on a new board.

The games run ``codenames play`` in this process through ``main()``; the one through the real
console script runs with the other real processes in ``test_terminal``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codenames_ai.core import GameRecord
from codenames_ai.play.terminal_session import colors as _colors
from codenames_ai.render import board_legend

from ..cli_main import run_main
from ..test_readme_samples import samples

PLAY_AGAIN = "Play again? (same settings, a new board) [y/N] "
LEGEND = ("Covered cards, in capitals: [R] red agent  [B] blue agent  [-] bystander  "
          "[X] assassin")
KEY_LEGEND = "The key on face-down cards: r red agent  b blue agent  . bystander  x assassin"
# The README's sample game: what `printf 'A1\nB1\npass\nquit\ny\nn\n' | codenames play
# --seed 21` prints (tests/test_readme_samples.py checks it line for line).
SAMPLE_INPUT = "A1\nB1\npass\nquit\ny\nn\n"
SAMPLE = next(lines for command, lines in samples() if command.endswith("play --seed 21"))


@pytest.fixture(autouse=True)
def _width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # the width a pipe gets, whatever runs pytest


def test_each_ai_clue_is_summed_up_in_plain_words_and_explain_adds_the_scores() -> None:
    clues = [line for line in SAMPLE if line.startswith("  turn ")]
    assert clues[0] == ("  turn 1 red: chop: 4 -> aimed at KNIFE, SCISSORS, CHIP and GLUE; "
                        "linked to 'chop' by the dictionary and people's associations; a risk: "
                        "PALM (the other team's) is close to 'chop' too; people find all 4 "
                        "first about 60% of the time; guessed scissors (ok), glue (ok)")
    assert not any(re.search(r"\d\.\d", line) for line in clues)  # no scores
    done = run_main("play", "--seed", "21", "--explain", stdin=SAMPLE_INPUT)
    lines = done.stdout.split("\n")
    first = lines.index(clues[0])
    assert lines[first + 1].startswith("      why: chop: 4: aims at KNIFE ")
    assert "Most feared: PALM (" in lines[first + 1]


def test_a_persons_own_clue_has_no_reasons_and_a_spymaster_sees_the_key_legend() -> None:
    done = run_main("play", "--role", "spymaster", "--seed", "11",
                    stdin="animal 1\nquit\ny\nn\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    board_end = lines.index(KEY_LEGEND)
    assert lines[board_end - 1] == LEGEND and lines[board_end - 2].startswith(" 5  ")
    own = [line for line in lines if line.startswith("  turn ") and " red: animal: 1" in line]
    assert len(own) == 1 and re.fullmatch(r"  turn \d+ red: animal: 1 -> guessed .+", own[0])


def test_the_ai_guessers_touches_are_explained_and_the_priced_bonus_touch_spares_the_assassin(
        ) -> None:
    # Issue 41, the newcomer's game in small: the person clues for the AI guesser, which
    # finds none of VEHICLE 3's cards; after BOAT 1, people-guesser-v1 spent its bonus touch
    # on BATTERY (the assassin) for VEHICLE. people-guesser-v2 prices the +1: a 74% card with
    # the assassin face up is not worth it (issue 38). The ending says why it touched each card.
    done = run_main("play", "--role", "spymaster", "--seed", "11",
                    stdin="vehicle 3\nboat 1\nn\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    turn = lines.index("  turn 4 red: boat: 1 -> guessed ferry (ok)")
    assert lines[turn + 1] == ("      FERRY: for 'boat 1', its closest card: sure; the next "
                               "closest, HURRICANE, was close too.")
    assert not any("a bonus touch" in line for line in lines)
    # every AI touch has its reason, the other team's too; --explain adds the numbers
    assert lines[lines.index("  turn 2 red: vehicle: 3 -> guessed tractor (bystander)") + 1] \
        .startswith("      TRACTOR: for 'vehicle 3', its closest card: ")
    explained = run_main("play", "--role", "spymaster", "--seed", "11", "--explain",
                         stdin="vehicle 3\nboat 1\nn\n").stdout.split("\n")
    ferry = explained.index(lines[turn + 1])
    assert re.fullmatch(r"        numbers: FERRY for 'boat 1' \(clue\); fit \d+\.\d\d; next "
                        r"closest HURRICANE \d+\.\d\d\.", explained[ferry + 1])


def test_play_again_deals_a_new_board_from_a_new_seed_and_saves_each_game(
        tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    # Quit each game and save it; yes to a second game, then the input ends.
    done = run_main("play", "--seed", "3", "--save", str(save),
                    stdin="A1\nquit\ny\ny\ny\nquit\ny\ny\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    first = GameRecord.from_jsonl(save.read_text())
    second = GameRecord.from_jsonl((tmp_path / "game-2.jsonl").read_text())
    assert first.seed == 3 and second.seed != 3 and second.board != first.board
    assert out.count(PLAY_AGAIN) == 2 and out.count("The key:") == 2
    assert out.count("Codenames, words edition, you play: guess") == 1
    again = out.index("A new board, dealt from a new seed, not --seed 3: its seed is shown "
                      "when the game is over.")
    assert out.index("Seed 3: ") < again
    seeds = re.findall(r"^Seed (\d+): codenames play --seed \1 deals this board again\.$", out,
                       flags=re.M)
    assert seeds == ["3", str(second.seed)]
    assert out.index("The key:", again) < out.index(f"Seed {second.seed}:", again)
    saved = re.findall(r"^Saved: (\S+)  ", out, flags=re.M)
    assert saved == [str(save), str(tmp_path / "game-2.jsonl")]


def test_no_or_the_end_of_input_after_a_game_exits(tmp_path: Path) -> None:
    save = str(tmp_path / "game.jsonl")
    # Seed 21: touching DESERT (the assassin) ends the game at once.
    for answer in ("n\nA1\n", "\nA1\n", "whatever\n", ""):
        done = run_main("play", "--seed", "21", "--save", save, stdin=f"desert\n{answer}")
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("The key:") == 1
        # The end of input gets a new line after the prompt; a typed answer has its own.
        assert done.stdout.endswith(PLAY_AGAIN + ("" if answer else "\n"))


def test_the_legend_names_every_mark_and_colours_them_as_the_board_does() -> None:
    assert board_legend(key=False) == LEGEND
    assert board_legend(key=True) == f"{LEGEND}\n{KEY_LEGEND}"
    painted = board_legend(key=True, color=True)
    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == board_legend(key=True)
    for line in painted.split("\n"):  # red, blue, tan and the assassin: four colours
        styles = [s for s in re.findall(r"\x1b\[([0-9;]*)m", line) if s != "0"]
        assert len(styles) == len(set(styles)) == 4


def test_colours_on_a_terminal_unless_no_color_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert _colors(None, interactive=True) and not _colors(None, interactive=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not _colors(None, interactive=True)
    assert _colors(True, interactive=False)  # --color wins
    monkeypatch.setenv("NO_COLOR", "")  # empty: as if unset (no-color.org)
    assert _colors(None, interactive=True)
