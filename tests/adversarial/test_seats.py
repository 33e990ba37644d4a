"""An agent of the wrong role in a seat is refused when the seat is built, naming the seat,
instead of forfeiting every move of the game."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from codenames_ai.agents.registry import REGISTRY, make_agent
from codenames_ai.cli.app import app
from codenames_ai.core import ConfigError, Role


class NotAnAgent:
    """A plugin class with neither give_clue nor guess."""


@pytest.mark.parametrize("agent_id", sorted(REGISTRY))
def test_every_registered_agent_is_refused_in_the_other_roles_seat(agent_id: str) -> None:
    other = Role.GUESSER if REGISTRY[agent_id].role is Role.SPYMASTER else Role.SPYMASTER
    with pytest.raises(ConfigError, match=f"the blue seat needs a {other.value}.*{agent_id}"):
        make_agent(agent_id, role=other, seat="the blue seat")


def test_a_plugin_without_the_roles_method_is_refused() -> None:
    with pytest.raises(ConfigError, match="needs a guesser"):
        make_agent(f"{__name__}:NotAnAgent", role=Role.GUESSER)


def test_the_right_role_builds() -> None:
    agent = make_agent("random-guesser-v1", role=Role.GUESSER)
    assert agent.agent_id == "random-guesser-v1"


@pytest.mark.parametrize("args", [
    ["watch", "--red-spymaster", "random-guesser-v1"],
    ["watch", "--blue-guesser", "random-spymaster-v1"],
])
def test_watch_refuses_a_seat_of_the_wrong_role(args: list[str]) -> None:
    result = CliRunner().invoke(app, [*args, "--seed", "1"])
    assert isinstance(result.exception, ConfigError)  # main() prints it as one line, exit 1
    assert f"{args[1]} needs a" in str(result.exception)
