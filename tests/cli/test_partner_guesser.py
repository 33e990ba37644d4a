"""The one rule for the default AI guesser (``partner_guesser``), ``codenames guess`` (a
person gives the clue there) and ``codenames agents`` saying which guesser is the default
beside whom."""

from __future__ import annotations

import json

from codenames_ai.agents.registry import (
    DEFAULT_GUESSER,
    DEFAULT_SPYMASTER,
    LEVEL_GUESSER,
    PERSON_PARTNER_GUESSER,
    partner_guesser,
)

from ..cli_main import run_main

BOARD = ("--board", "apple,bank,river,moon,car,piano,dog,ocean,king", "--clue", "fruit",
         "--number", "1", "--json")


def test_the_chosen_guesser_wins_else_whoever_gives_the_clues_decides() -> None:
    assert partner_guesser(None, person_clues=True) == PERSON_PARTNER_GUESSER
    assert partner_guesser(None, person_clues=False) == DEFAULT_GUESSER
    assert partner_guesser("", person_clues=True) == PERSON_PARTNER_GUESSER  # the web's ""
    for clues in (True, False):
        assert partner_guesser("glove-guesser-v1", person_clues=clues) == "glove-guesser-v1"


def test_codenames_guess_reads_the_persons_clue_with_the_people_guesser() -> None:
    default = run_main("guess", *BOARD)
    people = run_main("guess", *BOARD, "--guesser", PERSON_PARTNER_GUESSER)
    assert default.returncode == people.returncode == 0, default.stderr + people.stderr
    assert json.loads(default.stdout) == json.loads(people.stdout)
    assert json.loads(default.stdout)["guesses"][0] == "apple"
    # --model is for a guesser that takes one: the default says which rule and what to do
    refused = run_main("guess", *BOARD, "--model", "glove-6b-50d")
    assert refused.returncode != 0
    assert (f"--model: the default guesser for a person's clues, {PERSON_PARTNER_GUESSER}, "
            f"thinks with its own minds and takes no model; add --guesser {LEVEL_GUESSER}"
            in refused.stderr)
    chosen = run_main("guess", *BOARD, "--guesser", LEVEL_GUESSER, "--model", "glove-6b-50d")
    assert chosen.returncode == 0, chosen.stderr


def test_codenames_agents_names_the_default_guesser_beside_each_partner() -> None:
    listed = run_main("agents")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert f"{DEFAULT_SPYMASTER}  [spymaster] (default)" in lines
    # one guesser reads both partners since the people model is shared (issue 38)
    assert DEFAULT_GUESSER == PERSON_PARTNER_GUESSER
    where = "default beside the AI spymaster and a person's clues"
    assert f"{DEFAULT_GUESSER}  [guesser] ({where})" in lines
    entries = {e["id"]: e for e in json.loads(run_main("agents", "--json").stdout)}
    assert entries[PERSON_PARTNER_GUESSER]["default"] is True
    assert entries[DEFAULT_GUESSER]["default_where"] == where
    assert entries[LEVEL_GUESSER]["default"] is False
    assert entries["glove-guesser-v1"]["default"] is False
    assert entries["glove-guesser-v1"]["default_where"] is None
