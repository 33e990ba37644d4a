"""Every registered agent id plays its golden games as pinned in tests/golden/games.json: a
change that was meant to leave an agent alone proves it did; one that changes its games needs a
new id (codenames_ai/harness/golden.py)."""

from __future__ import annotations

import pytest

from codenames_ai.agents.registry import registered
from codenames_ai.core import Role
from codenames_ai.harness.golden import (
    WRITE_COMMAND,
    Pinned,
    differences,
    game_digest,
    pin,
    pin_all,
    read_pinned,
)


def test_every_id_plays_its_golden_games() -> None:
    found = differences(pin_all(), read_pinned())
    assert not found, "\n".join(found)


def test_every_available_id_is_pinned_and_no_stale_one() -> None:
    stored = read_pinned()
    available = {s.agent_id for s in registered(available_only=True)}
    assert available <= set(stored), f"not pinned: {sorted(available - set(stored))}"
    assert set(stored) <= {s.agent_id for s in registered()}


def test_a_game_is_pinned_by_what_happened_not_by_the_agents_options() -> None:
    first = pin("random-spymaster-v1", Role.SPYMASTER, seeds=(3,), editions=("words",))
    again = pin("random-spymaster-v1", Role.SPYMASTER, seeds=(3,), editions=("words",))
    other = pin("random-spymaster-v1", Role.SPYMASTER, seeds=(4,), editions=("words",))
    assert first.games == again.games
    assert first.games["words/3"] != other.games["words/4"]
    rows = [{"kind": "header", "seed": 1, "rules": {}, "board": {}, "agents": {"a": "x"},
             "version": 1},
            {"kind": "event", "event": "pass", "turn": 1, "team": "red"},
            {"kind": "outcome", "winner": "red"}, {"kind": "end", "sha256": "0"}]
    renamed = [dict(rows[0], agents={"a": "y", "cache_dir": "/elsewhere"}), *rows[1:3],
               {"kind": "end", "sha256": "1"}]
    assert game_digest(rows) == game_digest(renamed)
    assert game_digest(rows) != game_digest([*rows[:1], dict(rows[1], team="blue"), *rows[2:]])


def test_a_changed_game_names_the_id_the_game_and_what_to_do() -> None:
    played = [Pinned("x-spymaster-v1", {"words/0": "new"}), Pinned("y-guesser-v1", {}),
              Pinned("z-spymaster-v1", {}, skipped="needs torch")]
    found = differences(played, {"x-spymaster-v1": {"words/0": "old"},
                                 "gone-guesser-v1": {"words/0": "d"}})
    assert any(line.startswith("x-spymaster-v1: its game words/0 changed")
               and "new id" in line and WRITE_COMMAND in line for line in found)
    assert any(line.startswith("y-guesser-v1: a new id") for line in found)
    assert any(line.startswith("gone-guesser-v1: pinned but no longer registered")
               for line in found)
    assert not any(line.startswith("z-spymaster-v1") for line in found)


@pytest.mark.parametrize("role", [Role.SPYMASTER, Role.GUESSER])
def test_ids_of_each_role_are_pinned(role: Role) -> None:
    stored = read_pinned()
    assert any(s.agent_id in stored for s in registered(role, available_only=True))
