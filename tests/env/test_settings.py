"""The environment takes a game's settings as every front end gives them."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the environment is the optional extra: "
                                         "pip install 'codenames-ai[env]'")

from codenames_ai.core import EditionName, GameSettings, GuessLimit  # noqa: E402
from codenames_ai.env import CodenamesEnv  # noqa: E402


def test_the_env_plays_the_rule_set_of_the_settings_it_is_given() -> None:
    settings = GameSettings(edition=EditionName.PICTURES, guess_limit=GuessLimit.STRICT)
    env = CodenamesEnv(settings, clue_vocabulary=["ocean", "music"])
    assert env.rules == settings.to_rules()
    env.reset(seed=3)
    assert env.observe(env.agent_selection)["observation"].shape == (3 * 20 + 4,)
