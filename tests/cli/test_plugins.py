"""An agent registered by the user's own module, used by id through ``--plugin``: real
processes in a folder holding only the module, as a research user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codenames_ai.harness.spec import TournamentSpec

CLI = [sys.executable, "-m", "codenames_ai"]
PLUGIN = '''
from codenames_ai.agents import register
from codenames_ai.agents.baselines import RandomSpymaster
from codenames_ai.core import Role


class MySpymaster(RandomSpymaster):
    """A random spymaster under the user's own id."""


register("my-spymaster-v1", MySpymaster, role=Role.SPYMASTER)
'''
RANDOM = ["--red-guesser", "random-guesser-v1", "--blue-guesser", "random-guesser-v1",
          "--blue-spymaster", "random-spymaster-v1"]


def codenames(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def _folder(tmp_path: Path) -> Path:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "my_agents.py").write_text(PLUGIN, encoding="utf-8")
    return tmp_path


def test_an_unknown_id_says_how_to_load_a_plugin(tmp_path: Path) -> None:
    done = codenames("watch", "--red-spymaster", "my-spymaster-v1", *RANDOM,
                     cwd=_folder(tmp_path))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert "unknown agent 'my-spymaster-v1'" in line
    assert "add --plugin MODULE" in line


def test_watch_and_clue_take_a_plugin_agent_by_id(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    done = codenames("watch", "--plugin", "my_agents", "--red-spymaster", "my-spymaster-v1",
                     *RANDOM, "--record", "game.jsonl", cwd=folder)
    assert done.returncode == 0, done.stderr
    header = json.loads((folder / "game.jsonl").read_text().splitlines()[0])
    assert "my-spymaster-v1" in json.dumps(header)
    board = ",".join(f"w{i}" for i in range(25)).replace("w", "card")
    clue = codenames("clue", "--plugin", "my_agents", "--spymaster", "my-spymaster-v1",
                     "--board", board, "--key", "R" * 9 + "B" * 8 + "N" * 7 + "A",
                     "--team", "red", cwd=folder)
    assert clue.returncode == 0, clue.stderr


def test_a_tournament_rebuilds_a_plugin_agent_in_its_workers_and_on_resume(
        tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    done = codenames("tournament", "--plugin", "my_agents", "--spymasters",
                     "my-spymaster-v1,random-spymaster-v1", "--guessers", "random-guesser-v1",
                     "--games", "4", "--workers", "2", "--out", "r", "--quiet", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert "4 games played, 0 failed" in done.stdout
    # The spec remembers the module and the file this run loaded: extending the tournament
    # needs no --plugin.
    more = codenames("tournament", "--out", "r", "--games", "6", "--quiet", cwd=folder)
    assert more.returncode == 0, more.stderr
    assert "6 games played, 0 failed" in more.stdout
    summary = json.loads((folder / "r" / "summary.json").read_text())
    assert "my-spymaster-v1+random-guesser-v1" in summary["teams"]


@pytest.mark.parametrize("args", [
    ["agents", "--plugin", ".x"],
    ["agents", "--plugin", "../x"],
    ["agents", "--plugin", ""],
    ["watch", "--red-spymaster", ".x:C", *RANDOM],
    ["clue", "--spymaster", "..:C", "--board", ",".join(f"card{i}" for i in range(25)),
     "--key", "R" * 9 + "B" * 8 + "N" * 7 + "A", "--team", "red"],
])
def test_a_module_name_that_is_not_dotted_words_is_refused_in_one_line(
        tmp_path: Path, args: list[str]) -> None:
    # importlib reads a leading dot as a relative import: a TypeError or ValueError traceback.
    done = codenames(*args, cwd=_folder(tmp_path))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("error: cannot import '")
    assert "words joined with dots" in line


def test_a_plugin_tournament_resumes_and_reports_from_any_folder(tmp_path: Path) -> None:
    project = _folder(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    results = project / "r"
    done = codenames("tournament", "--plugin", "my_agents", "--spymasters",
                     "my-spymaster-v1,random-spymaster-v1", "--guessers", "random-guesser-v1",
                     "--games", "2", "--backend", "serial", "--out", "r", "--quiet",
                     cwd=project)
    assert done.returncode == 0, done.stderr
    # The spec recorded the module's file: the tournament goes on from another folder.
    more = codenames("tournament", "--out", str(results), "--games", "4", "--quiet",
                     cwd=elsewhere)
    assert more.returncode == 0, more.stderr
    assert "4 games played, 0 failed" in more.stdout
    assert codenames("report", str(results), cwd=elsewhere).returncode == 0
    # With the module gone, a run with nothing left to play needs no agent at all...
    (project / "my_agents.py").rename(project / "kept.py")
    again = codenames("tournament", "--out", str(results), "--quiet", cwd=elsewhere)
    assert again.returncode == 0, again.stderr
    # ... and one with games to play names the file and what to do.
    gone = codenames("tournament", "--out", str(results), "--games", "6", "--quiet",
                     cwd=elsewhere)
    assert gone.returncode == 1
    [line] = gone.stderr.splitlines()
    assert f"started with {project / 'my_agents.py'}, which is not there any more; put it " \
           "back, or run the command in the folder that holds it now" in line


def _own_tournament(project: Path) -> Path:
    """``project`` holding my_agents.py and ``r``, a 2-game tournament of its agent that the
    user ran there (so its file is on the user's trusted list)."""
    _folder(project)
    done = codenames("tournament", "--plugin", "my_agents", "--spymasters", "my-spymaster-v1",
                     "--guessers", "random-guesser-v1", "--games", "2", "--backend", "serial",
                     "--out", "r", "--quiet", cwd=project)
    assert done.returncode == 0, done.stderr
    return project


def test_an_edited_tournament_json_loads_no_file_the_user_never_ran(tmp_path: Path) -> None:
    project = _own_tournament(tmp_path / "project")
    # Someone plants a module of the same name and points the results folder at it.
    planted = tmp_path / "planted"
    planted.mkdir()
    marker = tmp_path / "ran"
    (planted / "my_agents.py").write_text(f"open({str(marker)!r}, 'w').close()\n" + PLUGIN)
    spec_file = project / "r" / "tournament.json"
    document = json.loads(spec_file.read_text())
    assert document["plugin_files"] == {"my_agents": str(project / "my_agents.py")}
    document["plugin_files"]["my_agents"] = str(planted / "my_agents.py")
    spec_file.write_text(json.dumps(document))
    attempt = codenames("tournament", "--out", str(project / "r"), "--games", "4", "--quiet",
                        cwd=tmp_path)
    assert attempt.returncode == 1
    [line] = attempt.stderr.splitlines()
    assert line == (f"error: {project / 'r' / 'tournament.json'} names code to run: "
                    "'my_agents'; a tournament file runs only the modules you name yourself: "
                    "if you trust it and that code, add --plugin 'my_agents'")
    assert not marker.exists()


HOSTILE = "import os\nimport subprocess\n" + PLUGIN


@pytest.mark.parametrize("entry", ["my_agents:os.system", "my_agents:subprocess.getoutput",
                                   "my_agents:register.__call__", "my_agents:register"])
def test_a_spec_reaches_no_further_than_the_named_module_s_own_classes(
        tmp_path: Path, entry: str) -> None:
    """The second review of this round (medium): with --plugin my_agents given, a spec could
    call anything the module imported, through a dotted path (my_agents:os.system)."""
    folder = _folder(tmp_path)
    (folder / "my_agents.py").write_text(HOSTILE, encoding="utf-8")
    marker = tmp_path / "ran"
    (folder / "spec.toml").write_text(
        f'spymasters = ["bad"]\nguessers = ["random-guesser-v1"]\ngames = 2\n'
        f'[agents.bad]\nagent = "{entry}"\noptions = {{ command = "touch {marker}" }}\n',
        encoding="utf-8")
    done = codenames("tournament", "spec.toml", "--plugin", "my_agents", "--out", "r",
                     "--backend", "serial", "--quiet", cwd=folder)
    assert done.returncode == 1 and not marker.exists()
    [line] = done.stderr.splitlines()
    assert "is not a class or function of 'my_agents'" in line, line


def test_a_recorded_module_is_trusted_only_as_the_file_it_names(tmp_path: Path) -> None:
    """The second review of this round (high): a results folder naming os:system with
    plugin_files {"os": <a file on the user's trusted list>} passed as the user's own module,
    and `os` imported from the standard library ran the command."""
    project = _own_tournament(tmp_path / "project")
    trusted = json.loads((project / "r" / "tournament.json").read_text())["plugin_files"][
        "my_agents"]
    # A hostile folder made from it: the spymaster is os:system, recorded under "os".
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    document = json.loads((project / "r" / "tournament.json").read_text())
    marker = tmp_path / "ran"
    spec = document["spec"]
    spec["spymasters"] = ["os:system"]
    spec["agents"] = {"os:system": {"agent": "os:system",
                                    "options": {"command": f"touch {marker}"}},
                      "random-guesser-v1": {"agent": "random-guesser-v1", "options": {}}}
    document["spec"] = TournamentSpec.from_dict(spec).to_dict()
    document["fingerprint"] = TournamentSpec.from_dict(spec).fingerprint()
    document["plugin_files"] = {"os": trusted}
    (hostile / "tournament.json").write_text(json.dumps(document))
    attempt = codenames("tournament", "--out", str(hostile), "--games", "4", "--quiet",
                        cwd=tmp_path)
    assert attempt.returncode == 1 and not marker.exists()
    [line] = attempt.stderr.splitlines()
    assert "names code to run: 'os'" in line, line


def test_a_namesake_in_the_current_folder_never_runs_in_place_of_the_recorded_file(
        tmp_path: Path) -> None:
    """The third review of this round (low): resuming one's own plugin tournament from a
    folder holding another my_agents.py imported that one (its code ran) before the check
    that it was the recorded file."""
    project = _own_tournament(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    marker = tmp_path / "ran"
    (elsewhere / "my_agents.py").write_text(f"open({str(marker)!r}, 'w').close()\n" + PLUGIN)
    # `python -m` puts the current folder first on the path: the namesake is found there,
    # and refused before it is imported.
    more = codenames("tournament", "--out", str(project / "r"), "--games", "4", "--quiet",
                     cwd=elsewhere)
    assert more.returncode == 1
    assert more.stderr == (f"error: the tournament ran 'my_agents' from "
                           f"{project / 'my_agents.py'}, but here that name is "
                           f"{elsewhere / 'my_agents.py'}; run the command where the "
                           "tournament's own module is found\n")
    assert not marker.exists()
