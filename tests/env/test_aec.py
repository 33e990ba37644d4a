"""The PettingZoo environment: PettingZoo's own API test, hidden keys, legal-action masks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the environment is the optional extra: "
                                         "pip install 'codenames-ai[env]'")

from pettingzoo.test import api_test  # noqa: E402

from codenames_ai.core import PICTURES  # noqa: E402
from codenames_ai.decks import default_deck  # noqa: E402
from codenames_ai.env import CodenamesEnv  # noqa: E402

VOCABULARY = ["ocean", "music", "animal", "food", "space", "metal", "game", "tree", "money"]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test() -> None:
    api_test(CodenamesEnv(clue_vocabulary=VOCABULARY, max_turns=30), num_cycles=300)


def play(env: CodenamesEnv, seed: int) -> list[int]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    for agent in env.agent_iter(1000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        observation = env.observe(agent)
        team, role = agent.split("_")
        keys = observation["observation"][: 3 * 25].reshape(25, 3)[:, 2]
        assert (keys == 0).all() if role == "guesser" else (keys > 0).all()
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.size, f"{agent} has no legal action"
        action = int(rng.choice(legal))
        taken.append(action)
        env.step(action)
    return taken


def test_guessers_never_see_the_key_and_games_replay_by_seed() -> None:
    env = CodenamesEnv(clue_vocabulary=VOCABULARY)
    assert play(env, 4) == play(env, 4)
    assert play(env, 4) != play(env, 5)


def test_clue_mask_follows_the_clue_rules() -> None:
    deck = default_deck("words")
    env = CodenamesEnv(clue_vocabulary=VOCABULARY + list(deck[:200]), max_number=2)
    env.reset(seed=1)
    agent = env.agent_selection
    assert agent.endswith("spymaster")
    mask = env.observe(agent)["action_mask"]
    board = set(env.state_.board.words)  # type: ignore[union-attr]
    for word_index, word in enumerate(env.vocabulary):
        legal = mask[word_index * 2: word_index * 2 + 2]
        if word in board:
            assert not legal.any(), word  # a visible board word is never a legal clue
    clue = env.decode(agent, int(np.flatnonzero(mask)[0]))
    env.step(int(np.flatnonzero(mask)[0]))
    guesser = env.agent_selection
    assert guesser == agent.replace("spymaster", "guesser")
    observation = env.observe(guesser)["observation"]
    assert observation[75] == env.vocabulary.index(clue.word)  # type: ignore[union-attr]


def test_an_illegal_action_forfeits_the_move() -> None:
    env = CodenamesEnv(clue_vocabulary=VOCABULARY)
    env.reset(seed=2)
    spymaster = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(spymaster)["action_mask"] == 0)[0])
    env.step(illegal)
    assert "illegal" in env.infos[spymaster]
    assert env.agent_selection != spymaster.replace("spymaster", "guesser")


def test_pictures_boards() -> None:
    env = CodenamesEnv(PICTURES, clue_vocabulary=VOCABULARY)
    env.reset(seed=3)
    assert env.observe(env.agent_selection)["observation"].shape == (3 * 20 + 4,)
