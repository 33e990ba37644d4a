"""The agent registry: registering callables and ``module:Class``, typed options checked
before anything is built, ids that record the options that change play, requirements with
install hints, plugins from the current folder, and ``codenames agents``."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codenames_ai.agents import REGISTRY, Option, make_agent, register, registered
from codenames_ai.agents.baselines import RandomGuesser
from codenames_ai.core import ConfigError, Guess, Role
from codenames_ai.extras import Requirement
from codenames_ai.harness import TournamentSpec


class FirstCardGuesser:
    def __init__(self, *, patience: int = 1) -> None:
        self.patience = patience

    def guess(self, view: object) -> Guess:
        return Guess(0)


def test_a_callable_registers_with_typed_options(scratch_ids: list[str]) -> None:
    register("first-card-v1", FirstCardGuesser, role=Role.GUESSER, summary="first card",
             options=[Option("patience", "int", "touches before it gives up")])
    scratch_ids.append("first-card-v1")
    agent = make_agent("first-card-v1", role=Role.GUESSER, patience=3)
    assert isinstance(agent, FirstCardGuesser) and agent.patience == 3
    assert agent.agent_id == "first-card-v1(patience=3)"  # options that change play
    assert make_agent("first-card-v1").agent_id == "first-card-v1"
    with pytest.raises(ConfigError, match="option 'patience' takes a whole number, not '3'"):
        make_agent("first-card-v1", patience="3")
    with pytest.raises(ConfigError, match="has no option 'speed'; its options: patience"):
        make_agent("first-card-v1", speed=2)
    with pytest.raises(ConfigError, match="the spymaster seat needs a spymaster"):
        make_agent("first-card-v1", role=Role.SPYMASTER, seat="the spymaster seat")
    assert "first-card-v1" in [s.agent_id for s in registered(Role.GUESSER)]
    assert "first-card-v1" not in [s.agent_id for s in registered(Role.SPYMASTER)]


def test_registering_refuses_bad_ids_and_silent_replacement(scratch_ids: list[str]) -> None:
    with pytest.raises(ConfigError, match="lowercase letters"):
        register("My Agent", FirstCardGuesser, role=Role.GUESSER)
    with pytest.raises(ConfigError, match="already registered for "
                                          "codenames_ai.agents.baselines:RandomGuesser"):
        register("random-guesser-v1", FirstCardGuesser, role=Role.GUESSER)
    with pytest.raises(ConfigError, match="unknown kind 'colour'"):
        register("odd-v1", FirstCardGuesser, role=Role.GUESSER,
                 options=[Option("patience", "colour")])
    # The same factory again is a no-op (a plugin module imported twice).
    register("first-card-v1", FirstCardGuesser, role=Role.GUESSER)
    scratch_ids.append("first-card-v1")
    register("first-card-v1", FirstCardGuesser, role=Role.GUESSER)
    register("first-card-v1", "codenames_ai.agents.baselines:RandomGuesser",
             role=Role.GUESSER, replace=True)
    assert isinstance(make_agent("first-card-v1"), RandomGuesser)


def test_a_bug_in_a_constructor_is_not_reported_as_an_option_problem(
        scratch_ids: list[str]) -> None:
    def broken(**_: object) -> object:
        raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")

    register("broken-v1", broken, role=Role.GUESSER)
    scratch_ids.append("broken-v1")
    with pytest.raises(TypeError, match="unsupported operand"):
        make_agent("broken-v1")
    with pytest.raises(ConfigError, match="built OrderedDict\\(\\), which is neither a "
                                          "spymaster"):
        make_agent("collections:OrderedDict")
    # An option the signature does not take is named before the factory runs.
    with pytest.raises(ConfigError, match="cannot build agent 'codenames_ai.agents.baselines:"
                                          "ScriptedGuesser' with options"):
        make_agent("codenames_ai.agents.baselines:ScriptedGuesser", moves=[], colour="red")


def test_a_missing_requirement_refuses_with_the_install_hint(scratch_ids: list[str]) -> None:
    needs = Requirement("the 'telepathy' extra", "pip install 'codenames-ai[telepathy]'",
                        lambda: False)
    register("mind-reader-v1", FirstCardGuesser, role=Role.GUESSER, requires=[needs])
    scratch_ids.append("mind-reader-v1")
    assert not REGISTRY["mind-reader-v1"].available
    assert "mind-reader-v1" not in [s.agent_id for s in registered(available_only=True)]
    with pytest.raises(ConfigError, match=r"agent 'mind-reader-v1' needs the 'telepathy' "
                                          r"extra: pip install 'codenames-ai\[telepathy\]'"):
        make_agent("mind-reader-v1")


def test_built_in_options_are_typed_and_recorded() -> None:
    spymaster = make_agent("glove-ev-spymaster-v1", risk="bold", cache_dir=None)
    assert spymaster.agent_id == "glove-ev-spymaster-v1(risk=bold)"
    # ``normal`` is the default risk, and a cache folder does not change play.
    assert make_agent("glove-ev-spymaster-v1", risk="normal").agent_id == \
        "glove-ev-spymaster-v1"
    with pytest.raises(ConfigError, match="'risk' is one of cautious, normal, bold, not "
                                          "'insane'"):
        make_agent("glove-ev-spymaster-v1", risk="insane")
    assert REGISTRY["glove-ev-spymaster-v1"].option("risk") is not None
    assert REGISTRY["glove-guesser-v1"].option("risk") is None
    assert REGISTRY["ensemble-ev-spymaster-v1"].option("risk") is None  # its config sets it


def test_a_record_header_names_each_seat_with_its_options(deck: tuple[str, ...]) -> None:
    from codenames_ai.core import WORDS, GameRecord, Seats, play_game

    seats = Seats.standard(
        red_spymaster=make_agent("glove-ev-spymaster-v1", risk="bold"),
        red_guesser=make_agent("random-guesser-v1", stop_probability=0.5),
        blue_spymaster=make_agent("glove-ev-spymaster-v1"),
        blue_guesser=make_agent("random-guesser-v1"))
    record = play_game(WORDS, seats, seed=5, deck=deck)
    header = json.loads(record.to_jsonl().splitlines()[0])["agents"]
    assert header == {"red spymaster": "glove-ev-spymaster-v1(risk=bold)",
                      "red guesser": "random-guesser-v1(stop_probability=0.5)",
                      "blue spymaster": "glove-ev-spymaster-v1",
                      "blue guesser": "random-guesser-v1"}
    assert GameRecord.from_jsonl(record.to_jsonl()).agents == record.agents


PLUGIN = textwrap.dedent("""
    from codenames_ai.agents import register
    from codenames_ai.core import Guess, Role


    class FirstCard:
        def guess(self, view):
            return Guess(view.unrevealed[0])


    register("first-card-v1", FirstCard, role=Role.GUESSER, summary="touches the first card")
""")


def test_a_plugin_in_the_current_folder_works_without_pythonpath(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scratch_ids: list[str]) -> None:
    from typer.testing import CliRunner

    from codenames_ai.cli.app import app

    (tmp_path / "my_plugin.py").write_text(PLUGIN)
    # As the installed console script runs: the current folder is not on the path (the
    # walkthrough test in tests/test_api_walkthrough.py runs the real script).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.setattr(sys, "modules", dict(sys.modules))  # my_plugin is forgotten after
    scratch_ids.append("first-card-v1")
    listed = CliRunner().invoke(app, ["agents", "--role", "guesser", "--plugin", "my_plugin",
                                      "--json"])
    assert listed.exit_code == 0, listed.output
    entries = {e["id"]: e for e in json.loads(listed.stdout)}
    assert entries["first-card-v1"]["factory"] == "my_plugin:FirstCard"
    assert entries["people-guesser-v2"]["default"] is True
    assert all(e["role"] == "guesser" for e in entries.values())
    watched = CliRunner().invoke(app, [
        "watch", "--seed", "2", "--red-guesser", "my_plugin:FirstCard", "--red-spymaster",
        "random-spymaster-v1", "--blue-spymaster", "random-spymaster-v1", "--blue-guesser",
        "random-guesser-v1"])
    assert watched.exit_code == 0, watched.output
    assert "red touches 'saw'" in watched.stdout  # seed 2's first card: the plugin guessed


def test_a_tournament_spec_remembers_the_module_that_registers_a_plugin_id(
        scratch_ids: list[str]) -> None:
    register("first-card-v1", FirstCardGuesser, role=Role.GUESSER)
    scratch_ids.append("first-card-v1")
    spec = TournamentSpec.from_options(spymasters=["random-spymaster-v1"],
                                       guessers=["first-card-v1", "random-guesser-v1"])
    saved = spec.to_dict()["agents"]
    assert saved["first-card-v1"]["plugin"] == __name__
    assert "plugin" not in saved["random-guesser-v1"]  # built-ins need no import
    assert TournamentSpec.from_dict(spec.to_dict()).fingerprint() == spec.fingerprint()
    # A class from Python is stored as the module:Class another process imports.
    by_class = TournamentSpec.from_options(spymasters=["random-spymaster-v1"],
                                           guessers=[FirstCardGuesser])
    assert by_class.guessers == (f"{__name__}:FirstCardGuesser",)
    with pytest.raises(ConfigError, match="plugin must be a module name"):
        TournamentSpec.from_dict({**spec.to_dict(), "agents": {
            "x": {"agent": "first-card-v1", "plugin": "../evil"}}})


def test_the_learning_environment_without_its_extra_says_how_to_install_it() -> None:
    # ``sys.modules[name] = None`` is how Python marks a module that cannot be imported.
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['gymnasium'] = None; "
         "import codenames_ai.env"], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: codenames_ai.env needs the optional 'env' extra: pip install "
        "'codenames-ai[env]' (from a checkout: pip install -e '.[env]')")
