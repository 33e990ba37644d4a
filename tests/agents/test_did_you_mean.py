"""An unknown agent id is answered with the registered id it most likely misspells, wherever
an id is given: the registry, the command line's flags, a tournament spec and the web's
settings (all of them ask the registry's ``did_you_mean``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codenames_ai.agents.registry import check_agent, make_agent
from codenames_ai.core import ConfigError, Role
from codenames_ai.harness.backends import SerialBackend
from codenames_ai.harness.run import run_tournament
from codenames_ai.harness.spec import TournamentSpec
from codenames_ai.web.games import GameConfig, Offer

from ..cli_main import run_main

TYPO = "glove-ev-spymater-v1"
HINT = "did you mean 'glove-ev-spymaster-v1'? "
HINTED = re.escape(HINT)


def test_the_registry_suggests_the_near_id_and_nothing_for_a_far_one() -> None:
    with pytest.raises(ConfigError, match=f"^unknown agent '{TYPO}'; {HINTED}known agents: "):
        make_agent(TYPO, role=Role.SPYMASTER)
    with pytest.raises(ConfigError, match="^unknown agent 'genius-v9'; known agents: "):
        check_agent("genius-v9")
    # A guesser's typo in a guesser seat gets a guesser.
    with pytest.raises(ConfigError, match="did you mean 'panel-guesser-v2'\\?"):
        check_agent("panel-guesser-v3", role=Role.GUESSER)


@pytest.mark.parametrize("args", [["play", "--spymaster", TYPO],
                                  ["watch", "--red-spymaster", TYPO],
                                  ["clue", "--spymaster", TYPO, "--board",
                                   ",".join(f"card{i}" for i in range(25)),
                                   "--key", "R" * 9 + "B" * 8 + "N" * 7 + "A", "--team", "red"]])
def test_the_command_line_flags(args: list[str]) -> None:
    done = run_main(*args)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"error: unknown agent '{TYPO}'; {HINT}known agents: ")


def test_a_tournament_spec(tmp_path: Path) -> None:
    spec = TournamentSpec.from_options(spymasters=[TYPO], guessers=["random-guesser-v1"])
    with pytest.raises(ConfigError, match=f"unknown agent '{TYPO}'; {HINTED}"):
        run_tournament(spec, tmp_path / "out", SerialBackend(), quiet=True)


def test_the_web_settings_and_the_servers_offer() -> None:
    with pytest.raises(ConfigError, match=f"spymaster '{TYPO}' is not a registered spymaster; "
                                          f"{HINTED}known: "):
        GameConfig(spymaster=TYPO).check()
    with pytest.raises(ConfigError, match=f"--agents: '{TYPO}' is not an agent this install "
                                          f"can build; {HINTED}give all"):
        Offer.parse(TYPO)
