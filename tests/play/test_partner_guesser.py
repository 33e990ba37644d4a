"""Who gives the clues decides the AI guesser (``partner_guesser``): in ``codenames play``
the person's own team guesses with people-guesser-v1 beside their clues, every other AI
guesser with DEFAULT_GUESSER beside the AI spymaster (people-guesser-v2 too since issue 38),
and ``--guesser`` is kept as given.
Read from the saved record's header (the agents' ids), through the CLI's own entry point."""

from __future__ import annotations

from pathlib import Path

from codenames_ai.agents.registry import DEFAULT_GUESSER, PERSON_PARTNER_GUESSER
from codenames_ai.core import GameRecord

from ..cli_main import run_main

QUIT_AND_SAVE = "quit\ny\ny\nn\n"  # quit, yes, save it, no other game


def seated(tmp_path: Path, *args: str) -> dict[str, str]:
    """The agents of a game of ``codenames play ARGS`` quit at the first prompt and saved."""
    saved = tmp_path / "game.jsonl"
    done = run_main("play", "--seed", "21", "--level", "hard", "--save", str(saved), *args,
                    stdin=QUIT_AND_SAVE)
    assert done.returncode == 0, done.stderr
    return dict(GameRecord.from_jsonl(saved.read_text()).agents)


def test_the_persons_clues_get_the_people_guesser_and_the_other_team_the_default(
        tmp_path: Path) -> None:
    agents = seated(tmp_path, "--role", "spymaster")
    assert agents["red spymaster"] == "human-spymaster"
    assert agents["red guesser"] == PERSON_PARTNER_GUESSER == "people-guesser-v2"
    assert agents["blue guesser"] == DEFAULT_GUESSER == "people-guesser-v2"


def test_the_guesser_beside_the_ai_spymaster_stays_the_default(tmp_path: Path) -> None:
    agents = seated(tmp_path, "--role", "guess")
    assert agents["red guesser"] == "human-guesser"
    assert agents["blue guesser"] == DEFAULT_GUESSER


def test_a_chosen_guesser_is_kept_beside_the_persons_clues(tmp_path: Path) -> None:
    agents = seated(tmp_path, "--role", "spymaster", "--guesser", "glove-guesser-v1")
    assert agents["red guesser"] == "glove-guesser-v1"
    # at the hard level the other team plays with the person's own choice, as before
    assert agents["blue guesser"] == "glove-guesser-v1"


def test_a_wrong_chosen_guesser_is_refused_before_the_game(tmp_path: Path) -> None:
    done = run_main("play", "--role", "spymaster", "--guesser", "panel-spymaster-v3",
                    stdin=QUIT_AND_SAVE)
    assert done.returncode != 0
    assert "the AI guesser needs a guesser" in done.stderr
