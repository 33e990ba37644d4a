"""``codenames tournament`` and ``codenames report`` as a user runs them: real processes,
a real ``kill -9`` in the middle, and the errors a user sees. Commands that need no process
of their own run through ``main()`` (the real entry point) in this process, which is
seconds faster than a new one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from codenames_ai.harness.backends import SerialBackend
from codenames_ai.harness.results import read_results
from codenames_ai.harness.run import run_tournament
from codenames_ai.harness.spec import TournamentSpec
from codenames_ai.harness.summary import Summary, without_timing

from ..cli_main import run_main
from ..waiting import until

CLI = [sys.executable, "-m", "codenames_ai"]
CHEAP = ["--spymasters", "random-spymaster-v1", "--guessers", "random-guesser-v1"]


def codenames(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture
def in_process() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``codenames ARGS`` through ``main()`` in this process, in the folder ``cwd``."""
    def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return run_main(*args, cwd=cwd)

    return run


GAMES = 150  # the kill lands after KILL_AFTER of them: a second's play left to interrupt
KILL_AFTER = 15


def test_kill_9_then_resume_gives_every_game_once(
        tmp_path: Path, in_process: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    out = tmp_path / "runs" / "x"
    command = [*CLI, "tournament", *CHEAP, "--games", str(GAMES), "--seed", "1", "--backend",
               "serial", "--out", str(out), "--quiet"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    games = out / "games.jsonl"

    def enough() -> bool:
        assert process.poll() is None, "the tournament ended before it could be killed"
        return games.exists() and games.read_bytes().count(b"\n") >= KILL_AFTER

    until(enough, f"{KILL_AFTER} games", timeout=120)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    written = games.read_bytes().count(b"\n")
    assert KILL_AFTER <= written < GAMES, "the kill should land in the middle of the run"
    resumed = in_process("tournament", "--out", str(out), "--backend", "serial", "--quiet",
                         cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    indices = [r["game"] for r in read_results(out)]
    assert len(indices) == GAMES and sorted(indices) == list(range(GAMES))
    fresh = run_tournament(TournamentSpec.from_options(
        spymasters=["random-spymaster-v1"], guessers=["random-guesser-v1"], games=GAMES,
        seed=1), tmp_path / "fresh", SerialBackend(), quiet=True)
    summary = Summary.from_dict(json.loads((out / "summary.json").read_text()))
    assert without_timing(summary) == without_timing(fresh)


def test_tournament_then_report(tmp_path: Path,
                                in_process: Callable[..., subprocess.CompletedProcess[str]]
                                ) -> None:
    done = codenames("tournament", *CHEAP, "--games", "6", "--workers",
                     "2", "--out", "r", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Teams" in done.stdout and "Ratings" in done.stdout
    assert "pool" in done.stderr  # the progress bar
    report = in_process("report", "r", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "Matchups" in report.stdout and "wrote" in report.stdout
    for name in ("win_rate.png", "turns.png", "clue_numbers.png"):
        assert (tmp_path / "r" / "plots" / name).read_bytes().startswith(b"\x89PNG")
    as_json = in_process("report", "r", "--json", cwd=tmp_path)
    assert json.loads(as_json.stdout)["games"]["played"] == 6


def test_a_spec_file_on_the_command_line(
        tmp_path: Path, in_process: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    (tmp_path / "t.toml").write_text(
        'spymasters = ["cautious"]\nguessers = ["random-guesser-v1"]\nmode = "coop"\n'
        '[agents.cautious]\nagent = "random-spymaster-v1"\noptions = { max_number = 1 }\n')
    done = in_process("tournament", "t.toml", "--games", "3", "--backend", "serial", "--out",
                      "c", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 games played" in done.stdout
    spec = json.loads((tmp_path / "c" / "tournament.json").read_text())["spec"]
    assert spec["agents"]["cautious"]["options"] == {"max_number": 1}


@pytest.mark.parametrize(("args", "message"), [
    (["--spymasters", "glove-ev-spymastr-v1", "--guessers", "glove-guesser-v1"],
     "error: unknown agent 'glove-ev-spymastr-v1'; did you mean 'glove-ev-spymaster-v1'? "
     "known agents:"),
    (["--spymasters", "nowhere.at_all:Agent", "--guessers", "glove-guesser-v1"],
     "error: cannot import 'nowhere.at_all'"),
    (["--spymasters", "random-spymaster-v1"], "error: give both --spymasters and --guessers"),
    ([*CHEAP, "--address", "auto"], "error: --address is for --backend ray"),
    ([*CHEAP, "--backend", "cloud"], "error: unknown backend 'cloud'"),
    ([], "holds no tournament to continue"),
])
def test_errors_are_one_line(tmp_path: Path, args: list[str], message: str,
                             in_process: Callable[..., subprocess.CompletedProcess[str]]
                             ) -> None:
    done = in_process("tournament", *args, "--out", "o", cwd=tmp_path)
    assert done.returncode == 1
    assert message in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def test_an_error_of_a_real_process_is_one_line(tmp_path: Path) -> None:
    done = codenames("tournament", "--spymasters", "nowhere.at_all:Agent", "--guessers",
                     "glove-guesser-v1", "--out", "o", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("error: cannot import 'nowhere.at_all'")
    assert done.stderr.count("\n") == 1, done.stderr


def test_spec_typo_and_another_tournament(
        tmp_path: Path, in_process: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    (tmp_path / "t.toml").write_text('spymasters = ["random-spymaster-v1"]\n'
                                     'guessers = ["random-guesser-v1"]\nseeed = 3\n')
    done = in_process("tournament", "t.toml", "--out", "o", cwd=tmp_path)
    assert done.returncode == 1
    assert "unknown key 'seeed'; did you mean 'seed'?" in done.stderr
    assert in_process("tournament", *CHEAP, "--games", "2", "--backend", "serial", "--out",
                      "o", "-q", cwd=tmp_path).returncode == 0
    done = in_process("tournament", *CHEAP, "--seed", "5", "--out", "o", cwd=tmp_path)
    assert done.returncode == 1
    assert "holds a different tournament (different seed)" in done.stderr
    assert "codenames tournament --out o" in done.stderr
    # The folder's own spec continues it, and --games extends it.
    done = in_process("tournament", "--out", "o", "--games", "4", "--backend", "serial", "-q",
                      cwd=tmp_path)
    assert done.returncode == 0 and "4 games played" in done.stdout


def test_unreachable_ray_cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                in_process: Callable[..., subprocess.CompletedProcess[str]]
                                ) -> None:
    ray = pytest.importorskip("ray",
                              reason="the Ray backend is the optional extra codenames-ai[ray]")
    # As in a new process, even if another test left a local Ray running in this one.
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    done = in_process("tournament", *CHEAP, "--backend", "ray", "--address", "127.0.0.1:9",
                      "--out", "o", cwd=tmp_path)
    assert done.returncode == 1
    assert "error: cannot reach the Ray cluster at 127.0.0.1:9" in done.stderr


def _labels(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def _spec_of(spymasters: list[str], guessers: list[str], mode: str, games: int) -> str:
    lines = [f"spymasters = {json.dumps(spymasters)}", f"guessers = {json.dumps(guessers)}",
             f'mode = "{mode}"', f"games = {games}"]
    for label in spymasters:
        lines += [f"[agents.{label}]", 'agent = "random-spymaster-v1"']
    for label in guessers:
        lines += [f"[agents.{label}]", 'agent = "random-guesser-v1"']
    return "\n".join(lines) + "\n"


def test_a_round_robin_too_large_to_hold_is_refused_in_one_line(
        tmp_path: Path, in_process: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    # 32 x 14 = 448 teams: 100,128 matchups, one round robin past the cap. 300 x 300 teams
    # (a 5 KB spec) asked for 4 billion matchups and ran out of memory.
    spymasters, guessers = _labels("s", 32), _labels("g", 14)
    (tmp_path / "t.toml").write_text(_spec_of(spymasters, guessers, "two-team", 2))
    from_spec = ["t.toml"]
    from_options = ["--spymasters", ",".join(f"m{i}:C" for i in range(300)),
                    "--guessers", ",".join(f"g{i}:C" for i in range(300))]
    for args, teams in ((from_spec, 448), (from_options, 90_000)):
        done = in_process("tournament", *args, "--out", "o", cwd=tmp_path)
        assert done.returncode == 1
        [line] = done.stderr.splitlines()
        assert f"{teams:,} teams make" in line and "more than the 100,000" in line, line
    # A results folder whose tournament.json was edited so is refused as well.
    played = in_process("tournament", *CHEAP, "--games", "2", "--backend", "serial", "--out",
                        "r", "-q", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    stored = json.loads((tmp_path / "r" / "tournament.json").read_text())
    stored["spec"].update(spymasters=spymasters, guessers=guessers, agents={
        **{s: {"agent": "random-spymaster-v1"} for s in spymasters},
        **{g: {"agent": "random-guesser-v1"} for g in guessers}})
    (tmp_path / "r" / "tournament.json").write_text(json.dumps(stored))
    report = in_process("report", "r", cwd=tmp_path)
    assert report.returncode == 1
    [line] = report.stderr.splitlines()
    assert "448 teams make 100,128 matchups" in line


def test_report_draws_no_plot_of_more_teams_than_a_plot_shows(
        tmp_path: Path, in_process: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    # The matrix grows with the square of the teams: 441 teams asked for an 18 GB image.
    (tmp_path / "t.toml").write_text(_spec_of(_labels("s", 31), ["g"], "coop", 31))
    played = in_process("tournament", "t.toml", "--backend", "serial", "--out", "r", "-q",
                        cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    report = in_process("report", "r", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "no plots: 31 teams are more than the 30 a plot shows" in report.stdout
    assert not (tmp_path / "r" / "plots").exists() or not any(
        (tmp_path / "r" / "plots").iterdir())
