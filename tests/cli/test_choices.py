"""One declaration for each list of choices: the command line's options are the core's and
the registry's enums, and the web's /api/options and the terminal game list their values."""

from __future__ import annotations

import itertools
import typing
from pathlib import Path

from fastapi.testclient import TestClient

from codenames_ai.agents.levels import Level
from codenames_ai.agents.registry import DEFAULT_SPYMASTER, strength_options
from codenames_ai.agents.spymasters import RISK_PRESETS, Strength
from codenames_ai.cli.check import check
from codenames_ai.cli.clue import clue
from codenames_ai.cli.play import play
from codenames_ai.cli.watch import watch
from codenames_ai.core import (
    EDITIONS,
    LEVEL_ROLES,
    ClueRulesName,
    EditionName,
    GuessLimit,
    PlayRole,
    Variant,
)
from codenames_ai.legality.rules import PRESETS
from codenames_ai.play import session
from codenames_ai.web.app import create_app


def _choice(command: object, option: str) -> object:
    """The enum an option of ``command`` takes (``X | None`` gives ``X``)."""
    hint = typing.get_type_hints(command)[option]
    return next((a for a in typing.get_args(hint) if a is not type(None)), hint)


def test_the_command_line_takes_the_core_and_registry_enums() -> None:
    assert _choice(play, "role") is PlayRole
    assert _choice(play, "strength") is Strength
    assert _choice(play, "level") is Level
    for command in (play, watch):
        assert _choice(command, "edition_name") is EditionName
        assert _choice(command, "guess_limit_name") is GuessLimit
        assert _choice(command, "clue_rules_name") is ClueRulesName
    assert _choice(watch, "variant_name") is Variant
    assert _choice(clue, "edition_name") is EditionName
    assert _choice(check, "rules") is ClueRulesName


def test_the_web_offers_the_same_lists(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", new_seed=itertools.count(3).__next__)
    with TestClient(app) as client:
        options = client.get("/api/options").json()
    assert options["roles"] == [r.value for r in PlayRole if r is not PlayRole.THREE_PLAYER]
    assert options["editions"] == list(EDITIONS) == ["words", "pictures"]
    assert options["clue_rules"] == [c.value for c in ClueRulesName]
    assert options["guess_limits"] == [g.value for g in GuessLimit]
    assert options["strengths"] == [s.value for s in Strength]
    assert [level["name"] for level in options["levels"]] == [v.value for v in Level]
    assert options["level_roles"] == [r.value for r in LEVEL_ROLES]


def test_the_terminal_the_presets_and_the_risks_read_the_same_lists() -> None:
    assert tuple(r.value for r in PlayRole if r is not PlayRole.WATCH) == session.ROLES
    assert tuple(PRESETS) == tuple(c.value for c in ClueRulesName)
    assert tuple(RISK_PRESETS) == tuple(s.value for s in Strength)
    assert {e.value for e in EditionName} == {*EDITIONS, "custom"}


def test_a_strength_is_given_only_to_an_agent_that_takes_a_risk() -> None:
    assert strength_options("glove-ev-spymaster-v1", Strength.BOLD) == {"risk": "bold"}
    assert strength_options("glove-ev-spymaster-v1", "cautious") == {"risk": "cautious"}
    assert strength_options(DEFAULT_SPYMASTER, "bold") == {}
