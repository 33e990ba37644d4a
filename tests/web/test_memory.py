"""A server's memory stays bounded whatever AIs its clients choose, and running out of it
answers one clear 503 line."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from codenames_ai.agents import REGISTRY, register
from codenames_ai.agents.space import SPACES_KEPT
from codenames_ai.core import Role
from codenames_ai.web.app import create_app

REPO = Path(__file__).resolve().parents[2]

# Games of the embedding spymasters on three models, one more than the spaces kept; then
# the count of clue spaces (and of their models) still alive in the server's process.
# Run in a process of its own, so that no other test's agents are counted.
SCENARIO = textwrap.dedent("""
    import gc, sys, tempfile
    from pathlib import Path
    from fastapi.testclient import TestClient
    from codenames_ai.agents.space import ClueSpace
    from codenames_ai.web.app import create_app

    app = create_app(Path(tempfile.mkdtemp()) / "games.sqlite3",
                     new_seed=iter(range(3, 100)).__next__)
    with TestClient(app) as client:
        for spymaster in sys.argv[1:]:
            # "hard": both teams' spymaster is the chosen one, and it gives the first clue
            made = client.post("/api/games", json={
                "spymaster": spymaster, "guesser": "random-guesser-v1", "level": "hard"})
            assert made.status_code == 201, made.text
            assert made.json()["view"]["moves"] > 0  # the chosen AI played
        gc.collect()
        spaces = [o for o in gc.get_objects() if isinstance(o, ClueSpace)]
        print(len(spaces), app.state.games.sizes()[0])
""")


def test_the_clue_spaces_kept_are_bounded_however_many_models_clients_choose() -> None:
    spymasters = ["glove-ev-spymaster-v1", "eat-ev-spymaster-v1", "wordnet-ev-spymaster-v1"]
    assert len(spymasters) > SPACES_KEPT
    done = subprocess.run([sys.executable, "-c", SCENARIO, *spymasters], cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    spaces, games_in_memory = map(int, done.stdout.split())
    assert games_in_memory == len(spymasters)  # the games stay in memory, not their AIs
    assert spaces == SPACES_KEPT


class HungrySpymaster:
    """A plugin spymaster that asks for more memory than any machine has, as an agent on a
    full server would (a real allocation, refused by the system)."""

    def __init__(self) -> None:
        self.tables = bytearray(1 << 62)

    def give_clue(self, view: object) -> None:
        raise AssertionError("never built")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    register("hungry-spymaster-v1", HungrySpymaster, role=Role.SPYMASTER)
    try:
        with TestClient(create_app(tmp_path / "games.sqlite3",
                                   new_seed=itertools.count(3).__next__)) as test_client:
            yield test_client
    finally:
        REGISTRY.pop("hungry-spymaster-v1")


def test_out_of_memory_answers_one_503_line_and_the_server_goes_on(
        client: TestClient) -> None:
    refused = client.post("/api/games", json={"spymaster": "hungry-spymaster-v1",
                                              "guesser": "random-guesser-v1",
                                              "level": "hard"})
    assert refused.status_code == 503
    assert refused.json() == {"error": "the server is out of memory for this request; "
                                       "nothing was changed: try again later, or with the "
                                       "default AIs"}
    assert refused.headers["retry-after"] == "60"
    assert client.app.state.games.sizes() == (0, 0)  # nothing was kept
    assert client.post("/api/games", json={"guesser": "random-guesser-v1"}).status_code == 201


# A board of every deck and edition the web deals, at every level and clue rule set, with
# the default AIs; then the models loaded in the process (the model cache's contents).
DEALS = textwrap.dedent("""
    import itertools
    from codenames_ai.vectors.default import _load
    from codenames_ai.web.games import CLUE_RULES, DECKS, GameConfig, WebGame

    for edition, deck, rules, level, role in itertools.product(
            ("words", "pictures"), DECKS, CLUE_RULES, ("easy", "normal", "hard"),
            ("guess", "spymaster")):
        for seed in range(2):
            game = WebGame.solo(GameConfig(role=role, edition=edition, deck=deck,
                                           clue_rules=rules, level=level, seed=seed))
            game.ai_moves()
    print(_load.cache_info().currsize)
""")


def test_the_default_ais_load_no_model_for_any_board_the_web_deals() -> None:
    def models_loaded() -> int:
        done = subprocess.run([sys.executable, "-c", DEALS], cwd=REPO,
                              env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    models_loaded()  # the first run prepares the decks' tables in the cache, as a first serve
    assert models_loaded() == 0
