"""The harness learns what an agent needs only through the agent protocol's hooks
(``prepare_board``, ``model_names``), so agents with no clue space, such as the panels, are
warmed up and their models listed like any other (issue 28)."""

from __future__ import annotations

from codenames_ai.agents.panel import DEFAULT_MINDS
from codenames_ai.harness.games import check_agents
from codenames_ai.harness.ray_backend import model_names
from codenames_ai.harness.spec import AgentRef, TournamentSpec

from .plugins import PreparingSpymaster


def test_the_warm_up_prepares_every_agent_through_its_hook() -> None:
    spec = TournamentSpec(
        agents=(AgentRef("own", "tests.harness.plugins:PreparingSpymaster"),
                AgentRef("rg", "random-guesser-v1")),
        spymasters=("own",), guessers=("rg",), games=2, seed=1)
    own, guesser = check_agents(spec)
    assert isinstance(own, PreparingSpymaster)
    assert own.prepared == [(spec.rules().clue_rules, ())]  # its tables, with no board yet
    assert model_names([own, guesser]) == ["its-own-model"]


def test_the_model_list_names_the_panels_minds() -> None:
    spec = TournamentSpec.from_options(
        spymasters=["panel-spymaster-v2"], guessers=["panel-guesser-v2", "glove-guesser-v1"],
        games=2, seed=1)
    assert model_names(check_agents(spec)) == list(DEFAULT_MINDS)
