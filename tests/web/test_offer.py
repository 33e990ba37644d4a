"""``codenames serve --agents``: the host chooses the AIs its clients may choose (each AI
offered can cost the server its models), through a real server's HTTP API."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codenames_ai.agents.registry import (
    DEFAULT_GUESSER,
    DEFAULT_SPYMASTER,
    LEVEL_SPYMASTER,
    PERSON_PARTNER_GUESSER,
)

from .server import Server


@pytest.fixture
def restricted(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "games.sqlite3", "--agents", "default,glove-guesser-v1")
    server.start()
    yield server
    server.stop()


def call(server: Server, path: str, body: dict[str, Any] | None = None
         ) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        server.base + path, data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_a_server_offers_only_the_agents_its_host_chose(restricted: Server) -> None:
    status, options = call(restricted, "/api/options")
    assert status == 200
    assert options["spymasters"] == [DEFAULT_SPYMASTER, LEVEL_SPYMASTER]
    # both default guessers: beside the AI spymaster, and beside a person's clues
    assert options["guessers"] == [*dict.fromkeys((DEFAULT_GUESSER, PERSON_PARTNER_GUESSER)),
                                   "glove-guesser-v1"]
    assert options["defaults"]["guesser"] == ""  # by who gives the clues

    for path, body in (("/api/games", {"spymaster": "glove-ev-spymaster-v1"}),
                       ("/api/rooms", {"settings": {"spymaster": "glove-ev-spymaster-v1"},
                                       "people": []})):
        status, refused = call(restricted, path, body)
        assert status == 400, refused
        assert refused["error"] == ("spymaster 'glove-ev-spymaster-v1' is not offered by this "
                                    f"server; choose one of: {DEFAULT_SPYMASTER}, "
                                    f"{LEVEL_SPYMASTER}")
    assert call(restricted, "/api/games", {"guesser": "glove-guesser-v1"})[0] == 201
    assert call(restricted, "/api/games", {"spymaster": LEVEL_SPYMASTER})[0] == 201


def test_an_agent_the_install_cannot_build_is_refused_in_one_line(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    done = subprocess.run([sys.executable, "-m", "codenames_ai", "serve", "--port", "0",
                           "--db", str(database), "--agents", "default,no-such-agent-v1"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "--agents: 'no-such-agent-v1' is not an agent this install can build" in done.stderr
    assert not database.exists()  # refused before the server started
