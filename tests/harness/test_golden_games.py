"""Every registered agent id plays its golden games as pinned in tests/golden/games.json: a
change that was meant to leave an agent alone proves it did; one that changes its games needs a
new id (codenames_ai/harness/golden.py). An id whose extra is not installed is skipped, with
the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codenames_ai.agents.registry import AgentSpec, registered
from codenames_ai.core import Role
from codenames_ai.harness.games import play_task
from codenames_ai.harness.golden import (
    GUESSER_PARTNER,
    WRITE_COMMAND,
    Pinned,
    differences,
    game_digest,
    golden_spec,
    pin,
    pinned_on,
    platform_note,
    read_pinned,
    stale_setup,
    write_pinned,
)


@pytest.mark.parametrize("spec", registered(), ids=lambda spec: spec.agent_id)
def test_the_id_plays_its_golden_games(spec: AgentSpec) -> None:
    problem = spec.problem()
    if problem is not None:
        pytest.skip(problem)
    stale = stale_setup()  # other partners or seeds: every id differs, for that one reason
    if stale:
        pytest.fail(stale)
    stored = read_pinned()
    found = differences([pin(spec.agent_id, spec.role)],
                        {spec.agent_id: stored[spec.agent_id]} if spec.agent_id in stored else {})
    note = platform_note()
    if found and note:  # another CPU or BLAS may break a near-tie the other way: no verdict
        pytest.skip("\n".join([*found, note]))
    assert not found, "\n".join(found)


def test_the_file_pins_these_golden_games_and_only_registered_ids() -> None:
    assert not stale_setup()
    known = {s.agent_id for s in registered()}
    stale = sorted(set(read_pinned()) - known)
    assert not stale, (f"pinned but no longer registered (stale entries): {', '.join(stale)}; "
                       f"regenerate with {WRITE_COMMAND}")


@pytest.mark.parametrize("role", [Role.SPYMASTER, Role.GUESSER])
def test_ids_of_each_role_are_pinned(role: Role) -> None:
    stored = read_pinned()
    assert any(s.agent_id in stored for s in registered(role, available_only=True))


def _rows(agent_id: str, role: Role, seed: int) -> list[dict[str, object]]:
    spec = golden_spec(agent_id, role, "words", seed)
    result = play_task(spec, spec.task(0))
    assert result["status"] == "ok"
    rows: list[dict[str, object]] = result["record"]
    return rows


def test_the_digest_keeps_what_happened_and_leaves_out_the_rest() -> None:
    rows = _rows("random-spymaster-v1", Role.SPYMASTER, 3)
    # The record format's version, the seats' names, a toolkit version and the end line's
    # digest are not behaviour.
    header = {**rows[0], "version": 99, "toolkit_version": "9.9.9",
              "agents": {"red spymaster": "renamed"}}
    relabelled = [header, *rows[1:-1], {**rows[-1], "sha256": "0" * 64}]
    assert game_digest(rows) == game_digest(relabelled)
    first_event = next(i for i, row in enumerate(rows) if row["kind"] == "event")
    touched = [*rows[:first_event], {**rows[first_event], "turn": 2}, *rows[first_event + 1:]]
    assert game_digest(rows) != game_digest(touched)


def test_the_same_game_gives_one_digest_and_another_seed_another() -> None:
    first = pin("random-guesser-v1", Role.GUESSER, seeds=(3,), editions=("words",))
    again = pin("random-guesser-v1", Role.GUESSER, seeds=(3,), editions=("words",))
    other = pin("random-guesser-v1", Role.GUESSER, seeds=(4,), editions=("words",))
    assert first.games == again.games
    assert first.games["words/3"] != other.games["words/4"]


def test_a_changed_game_names_the_id_the_game_and_what_to_do() -> None:
    played = [Pinned("x-spymaster-v1", {"words/0": "new", "words/1": "same"}),
              Pinned("y-guesser-v1", {"words/0": "d"}),
              Pinned("z-spymaster-v1", {}, skipped="needs torch")]
    found = differences(played, {"x-spymaster-v1": {"words/0": "old", "words/1": "same"},
                                 "z-spymaster-v1": {"words/0": "kept"},
                                 "gone-guesser-v1": {"words/0": "d"}})
    assert found == [
        "x-spymaster-v1: its golden game on words, seed 0 changed. Bump the id's version (a new "
        "id) if its behaviour was meant to change, or fix the regression; then regenerate with "
        f"{WRITE_COMMAND}",
        f"y-guesser-v1: a new id with no golden games; pin it: {WRITE_COMMAND}",
        "gone-guesser-v1: pinned but no longer registered (a stale entry); regenerate with "
        f"{WRITE_COMMAND}"]
    # A partner plays in every id's games: its change is named first.
    shared = differences([Pinned(GUESSER_PARTNER, {"words/0": "new"})],
                         {GUESSER_PARTNER: {"words/0": "old"}})
    assert shared[0].startswith(f"{GUESSER_PARTNER} also play in the other ids' golden games")


def test_writing_keeps_the_games_of_ids_skipped_here(tmp_path: Path) -> None:
    path = tmp_path / "games.json"
    write_pinned([Pinned("a-spymaster-v1", {"words/0": "a"}),
                  Pinned("b-guesser-v1", {"words/0": "b"})], path)
    write_pinned([Pinned("a-spymaster-v1", {"words/0": "a2"}),
                  Pinned("b-guesser-v1", {}, skipped="needs torch")], path)
    assert read_pinned(path) == {"a-spymaster-v1": {"words/0": "a2"},
                                 "b-guesser-v1": {"words/0": "b"}}
    document = json.loads(path.read_text(encoding="utf-8"))
    assert WRITE_COMMAND in document["about"]
    assert not stale_setup(path)
    # Where it was pinned is recorded beside the digests: a failure elsewhere says so.
    assert document["pinned_on"] == pinned_on() and not platform_note(path)
    path.write_text(json.dumps({**document, "pinned_on": {"blas": "Other"}}), encoding="utf-8")
    assert "Float rounding differs" in platform_note(path)


def test_a_changed_game_fails_until_the_id_moves_and_is_pinned(tmp_path: Path) -> None:
    """The cycle on real games: an id pinned, then the same id playing otherwise (a changed
    default) fails; the new behaviour under a new version fails too until ``--write`` pins
    it, which also drops the old id; then nothing differs."""
    from codenames_ai.agents.registry import REGISTRY, register

    path = tmp_path / "games.json"
    old, new = "golden-probe-guesser-v1", "golden-probe-guesser-v2"
    factory = "codenames_ai.agents.baselines:RandomGuesser"

    def pinned(agent_id: str) -> Pinned:
        return pin(agent_id, Role.GUESSER, seeds=(3,), editions=("words",))

    try:
        register(old, factory, role=Role.GUESSER, defaults={"stop_probability": 0.0})
        write_pinned([pinned(old)], path)
        # The same id, another behaviour: it passes after its first touch now.
        register(old, factory, role=Role.GUESSER, defaults={"stop_probability": 1.0},
                 replace=True)
        changed = differences([pinned(old)], read_pinned(path))
        assert changed == [f"{old}: its golden game on words, seed 3 changed. Bump the id's "
                           "version (a new id) if its behaviour was meant to change, or fix "
                           f"the regression; then regenerate with {WRITE_COMMAND}"]
        # The version moved: the new id is refused until pinned, the old one is stale.
        REGISTRY.pop(old)
        register(new, factory, role=Role.GUESSER, defaults={"stop_probability": 1.0})
        played = [pinned(new)]
        assert differences(played, read_pinned(path)) == [
            f"{new}: a new id with no golden games; pin it: {WRITE_COMMAND}",
            f"{old}: pinned but no longer registered (a stale entry); regenerate with "
            f"{WRITE_COMMAND}"]
        write_pinned(played, path)  # what --write does with the ids registered now
        assert set(read_pinned(path)) == {new}
        assert not differences(played, read_pinned(path))
    finally:
        REGISTRY.pop(old, None)
        REGISTRY.pop(new, None)
