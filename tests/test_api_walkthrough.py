"""The plugin walkthrough of docs/api.md, as a user runs it: the script registers a custom
spymaster and plays a tournament from Python; the installed ``codenames`` command (which,
unlike ``python -m``, does not put the current folder on the path) resumes it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_readme import api_blocks
from tests.waiting import until

ROOT = Path(__file__).resolve().parent.parent
CODENAMES = str(Path(sys.executable).parent / "codenames")
def env() -> dict[str, str]:
    """The environment as the suite set it (its own data folder), without PYTHONPATH."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def write_script(folder: Path, games: int | None = None) -> None:
    script = api_blocks()[1]
    if games is not None:
        assert script.count("games=200") == 1
        script = script.replace("games=200", f"games={games}")
    (folder / "my_spymaster.py").write_text(script)


def game_lines(folder: Path) -> list[dict[str, object]]:
    path = folder / "runs" / "one-card" / "games.jsonl"
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def finished(folder: Path) -> int:
    """Whole lines so far (a kill may leave a torn last line, which a resume drops)."""
    path = folder / "runs" / "one-card" / "games.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def codenames(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([CODENAMES, *args], cwd=folder, env=env(), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def test_the_walkthrough_plays_the_defaults_on_every_core() -> None:
    """The page says the script plays "against the default" on one worker per core."""
    from codenames_ai.agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER

    script = api_blocks()[1]
    spymasters = re.search(r"spymasters=\[(.*?)\]", script)
    guessers = re.search(r"guessers=\[(.*?)\]", script)
    assert spymasters and guessers
    assert f'"{DEFAULT_SPYMASTER}"' in spymasters[1]
    assert guessers[1] == f'"{DEFAULT_GUESSER}"'
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        blocks = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)
        assert not [b for b in blocks if re.search(r"PoolBackend\(\s*\d", b)], (
            f"{page.name}: a worker count fixed in an example (the machine's is the default)")


def test_the_walkthrough_extended_from_the_command_line(tmp_path: Path) -> None:
    write_script(tmp_path, games=4)
    subprocess.run([sys.executable, "my_spymaster.py"], cwd=tmp_path, env=env(), check=True,
                   capture_output=True, timeout=600)
    assert len(game_lines(tmp_path)) == 4
    shown = codenames(tmp_path, "tournament", "--out", "runs/one-card", "--games", "6").stdout
    assert "one-card-spymaster-v1+people-guesser-v2" in shown  # the tables at the end
    games = game_lines(tmp_path)
    assert sorted(int(str(g["game"])) for g in games) == list(range(6))
    assert all(g["status"] == "ok" for g in games)
    # The CLI's games (4 and 5) seat the plugin's agent, imported from the current folder.
    seated = {agent for g in games if g["game"] in (4, 5)
              for agent in g["record"][0]["agents"].values()}  # type: ignore[index]
    assert "one-card-spymaster-v1" in seated


@pytest.mark.slow
def test_the_walkthrough_killed_and_resumed_as_written(tmp_path: Path) -> None:
    write_script(tmp_path)
    process = subprocess.Popen([sys.executable, "my_spymaster.py"], cwd=tmp_path, env=env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    until(lambda: finished(tmp_path) >= 30 or process.poll() is not None, "30 games",
          timeout=300)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    played = finished(tmp_path)
    assert 30 <= played < 200
    codenames(tmp_path, "tournament", "--out", "runs/one-card")
    games = game_lines(tmp_path)
    assert sorted(int(str(g["game"])) for g in games) == list(range(200))
