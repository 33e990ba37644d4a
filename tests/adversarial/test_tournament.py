"""Tournaments under hostile conditions (issue 15, items 5, 9, 10 and 11): a ``kill -9`` of
the driver leaves no worker behind; a second run on a folder in use is refused; a spec or a
results file changed by hand, an ``--out`` that cannot be written, or an agent in a seat of
the other role each give one line and leave nothing behind. A hypothesis probe feeds the
results-line parser arbitrary JSON."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codenames_ai.core import ConfigError
from codenames_ai.harness.backends import SerialBackend
from codenames_ai.harness.results import parse_result
from codenames_ai.harness.run import run_tournament
from codenames_ai.harness.spec import TournamentSpec

from ..cli_main import run_main
from ..conftest import probe_examples
from ..waiting import until

CLI = [sys.executable, "-m", "codenames_ai"]
CHEAP = ["--spymasters", "random-spymaster-v1", "--guessers", "random-guesser-v1"]


def in_process(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_main(*args, cwd=cwd)


def assert_one_line(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert message in lines[0], lines[0]


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def start_pool_run(tmp_path: Path, out: Path) -> subprocess.Popen[bytes]:
    command = [*CLI, "tournament", *CHEAP, "--games", "20000", "--seed", "1", "--backend",
               "pool", "--workers", "2", "--out", str(out), "--quiet"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    games = out / "games.jsonl"

    def one_game() -> bool:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        return games.exists() and games.stat().st_size > 0

    until(one_game, "a game to finish", timeout=120)
    return process


Run = tuple[subprocess.Popen[bytes], Path]


@pytest.fixture(scope="module")
def pool_runs() -> Iterator[list[Run]]:
    """The pool tournaments this module started; those still running are killed at its end."""
    runs: list[Run] = []
    yield runs
    for process, _ in runs:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture
def pool_run(pool_runs: list[Run], tmp_path_factory: pytest.TempPathFactory) -> Run:
    """A pool tournament in progress, and its --out: the one the module runs already (its
    workers take seconds to start), or a new one if a test killed it."""
    if not pool_runs or pool_runs[-1][0].poll() is not None:
        folder = tmp_path_factory.mktemp("pool")
        pool_runs.append((start_pool_run(folder, folder / "out"), folder / "out"))
    return pool_runs[-1]


def test_a_folder_in_use_by_a_running_tournament_is_refused(
        pool_run: Run, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """0c1badc: two runs on one --out wrote 244 games twice."""
    first, out = pool_run
    second = in_process(tmp_path, "tournament", "--out", str(out),
                        "--quiet")
    assert_one_line(second, "is in use by another codenames tournament (process ")
    assert first.poll() is None
    lines = (out / "games.jsonl").read_bytes().splitlines()
    games = [json.loads(line)["game"] for line in lines if line.endswith(b"}")]
    assert len(games) == len(set(games))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_the_driver_leaves_no_worker_behind(pool_run: Run) -> None:
    """0c1badc: two workers per kill, ~520 MB each, blocked on a pipe for 18+ minutes."""
    process, _ = pool_run
    workers = children(process.pid)
    assert len(workers) >= 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    until(lambda: not any(alive(w) for w in workers), "the workers to end with their driver",
          timeout=5)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 4-game tournament's folder (played in this process)."""
    out = tmp_path_factory.mktemp("finished") / "out"
    summary = run_tournament(SPEC, out, SerialBackend(), quiet=True)
    assert summary.games.played == 4
    return out


@pytest.mark.parametrize(("line", "message"), [
    (b"[1, 2, 3]", "is not a game result (a JSON array, not an object)"),
    (b"not json", "is damaged"),
    (b"[" * 3000 + b"]" * 3000, "is damaged"),
    (b'{"game": ' + b"9" * 5000 + b"}", "is damaged"),
    # As the toolkit writes it (no space): report's index of the lines read the number
    # with int(), a ValueError traceback past 4,300 digits (review, low/medium).
    (b'{"game":' + b"9" * 5000 + b',"status":"ok"}',
     "is damaged (it holds a number 5000 characters long"),
    (b'{"game": 0, "status": "failed", "reason": "\\ud800"}',
     "is damaged (it holds a string that is not valid Unicode text"),
    (b'{"game": 3, "status": "ok", "record": 5}',
     "is not a game result ('record' must be a list of rows)"),
])
@pytest.mark.parametrize("command", ["report", "tournament"])
def test_a_results_line_changed_by_hand_is_named(
        finished: Path, tmp_path: Path, line: bytes, message: str, command: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for name in ("tournament.json", "games.jsonl"):
        (out / name).write_bytes((finished / name).read_bytes())
    lines = (out / "games.jsonl").read_bytes().splitlines(keepends=True)
    lines[1] = line + b"\n"
    (out / "games.jsonl").write_bytes(b"".join(lines))
    args = ["report", str(out)] if command == "report" else ["tournament", "--out", str(out)]
    assert_one_line(in_process(tmp_path, *args),
                    f"games.jsonl: line 2 {message}")


@pytest.mark.parametrize("command", ["report", "tournament"])
def test_a_second_line_for_a_game_changed_by_hand_is_named(
        finished: Path, tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Review, low: report kept the first line of each game and never read a later one, so
    a copy of game 0's line with a status no result has passed report and not tournament."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("tournament.json", "games.jsonl"):
        (out / name).write_bytes((finished / name).read_bytes())
    first = json.loads((out / "games.jsonl").read_bytes().splitlines()[0])
    first["status"] = "bogus"
    with (out / "games.jsonl").open("ab") as games:
        games.write(json.dumps(first, separators=(",", ":")).encode() + b"\n")
    args = ["report", str(out)] if command == "report" else ["tournament", "--out", str(out)]
    assert_one_line(in_process(tmp_path, *args), f"{out / 'games.jsonl'}: line 5 is not a "
                    "game result ('status' must be one of ok, failed)")


def edited(finished: Path, out: Path, change: Any) -> None:
    """``out``: a copy of the finished folder whose line 2 (game 1) is ``change(result)``."""
    out.mkdir()
    (out / "tournament.json").write_bytes((finished / "tournament.json").read_bytes())
    lines = (finished / "games.jsonl").read_bytes().splitlines(keepends=True)
    result = json.loads(lines[1])
    change(result)
    lines[1] = json.dumps(result).encode() + b"\n"
    (out / "games.jsonl").write_bytes(b"".join(lines))


def without(key: str) -> Any:
    return lambda result: result.pop(key)


def setting(key: str, value: Any) -> Any:
    return lambda result: result.__setitem__(key, value)


def touching_the_record(result: dict[str, Any]) -> None:
    result["record"][1]["seed"] = 1  # the header: the checksum no longer matches


@pytest.mark.parametrize(("change", "message"), [
    (without("red"), "line 2 is not a game result (game 1 has red None, the schedule says "),
    (without("blue"), "line 2 is not a game result (game 1 has blue None"),
    (without("matchup"), "line 2 is not a game result (game 1 has matchup None"),
    (without("board"), "line 2 is not a game result (game 1 has board None"),
    (setting("red", 5), "line 2 is not a game result (game 1 has red 5, "),
    (setting("matchup", "0"), "line 2 is not a game result (game 1 has matchup '0', "),
    (setting("record", [1, 2]), "line 2: game 1: a record must be a list of JSON objects"),
    (setting("record", []), "line 2: game 1: empty file, not a game record"),
    (touching_the_record, "line 2: game 1: checksum mismatch"),
    # Negative or fractional tallies were summed into the report's ms/clue (fifth review).
    *((setting("moves", {"red spymaster": tally}), "line 2 is not a game result ('moves' "
       "must map seats to [moves, seconds], a whole number and a number, neither below 0)")
      for tally in ([-5, 1.0], [5, -1.0], [2.5, 1.0])),
    (setting("seconds", -1e300), "line 2 is not a game result ('seconds' must be a number of "
     "at least 0)"),
])
@pytest.mark.parametrize("command", ["report", "tournament"])
def test_a_result_with_a_key_missing_or_of_the_wrong_type_is_named(
        finished: Path, tmp_path: Path, change: Any, message: str, command: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29, second round, finding 2: a missing 'red' was a KeyError traceback."""
    out = tmp_path / "out"
    edited(finished, out, change)
    before = sorted(path.name for path in out.iterdir())
    # --quiet: a record is checked by the summary, after the progress bar of the games
    # still to play (none here; a resumed run plays and keeps them, then names the line).
    args = (["report", str(out)] if command == "report"
            else ["tournament", "--out", str(out), "--quiet"])
    assert_one_line(in_process(tmp_path, *args), f"{out / 'games.jsonl'}: {message}")
    # Nothing written: no summary, no plots (the lock file is the run's own).
    assert sorted(p.name for p in out.iterdir() if p.name != "tournament.lock") == before


def spec_edit(**changes: Any) -> Any:
    return lambda spec: spec.update(changes)


def rules_edit(spec: dict[str, Any]) -> None:
    spec["rules"]["guess_limit"] = "strict"


@pytest.mark.parametrize(("change", "message"), [
    (rules_edit, "game 0 was played under other rules than tournament.json's (different "
                 "guess_limit)"),
    (spec_edit(seed=2), "game 0 was played from seed "),
])
@pytest.mark.parametrize("command", ["report", "tournament"])
def test_a_spec_edited_with_its_fingerprint_recomputed_is_refused_by_its_games(
        finished: Path, tmp_path: Path, change: Any, message: str, command: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29, second round, finding 13: the fingerprint is only compared with the spec
    stored beside it, so recomputing it let 'tournament --games 8' add strict games to
    classic ones; each game's own record now must match the spec's rules and seed."""
    out = tmp_path / "out"
    out.mkdir()
    document = json.loads((finished / "tournament.json").read_text())
    change(document["spec"])
    document["fingerprint"] = TournamentSpec.from_dict(document["spec"]).fingerprint()
    (out / "tournament.json").write_text(json.dumps(document, indent=2) + "\n")
    (out / "games.jsonl").write_bytes((finished / "games.jsonl").read_bytes())
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    args = (["report", str(out)] if command == "report"
            else ["tournament", "--out", str(out), "--games", "8", "--backend", "serial"])
    assert_one_line(in_process(tmp_path, *args),
                    f"{out / 'games.jsonl'}: line 1: {message}")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != "tournament.lock"
            } == before


@pytest.mark.parametrize("change", [
    spec_edit(mode="single-team", seed=2),  # the review: 4 two-team games read as races
    rules_edit,  # not in the schedule: these games were summarised as strict-rule games
    spec_edit(swap_sides=False),
])
@pytest.mark.parametrize("command", ["report", "tournament"])
def test_a_spec_edited_since_its_games_were_played_is_refused(
        finished: Path, tmp_path: Path, change: Any, command: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29, second round (an edited tournament.json): the stored fingerprint was
    never compared with the spec it was stored with."""
    out = tmp_path / "out"
    out.mkdir()
    document = json.loads((finished / "tournament.json").read_text())
    change(document["spec"])
    (out / "tournament.json").write_text(json.dumps(document, indent=2) + "\n")
    (out / "games.jsonl").write_bytes((finished / "games.jsonl").read_bytes())
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    args = (["report", str(out)] if command == "report"
            else ["tournament", "--out", str(out), "--backend", "serial"])
    assert_one_line(in_process(tmp_path, *args),
                    f"{out / 'tournament.json'} was changed since its games were played: "
                    f"its fingerprint is '{document['fingerprint']}'")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != "tournament.lock"
            } == before


def test_a_cut_last_line_is_left_out_and_said(finished: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "tournament.json").write_bytes((finished / "tournament.json").read_bytes())
    data = (finished / "games.jsonl").read_bytes()
    (out / "games.jsonl").write_bytes(data[:-200])
    done = in_process(tmp_path, "report", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"note: {out / 'games.jsonl'}: line 4 is cut short (a run "
                                  "stopped while writing it?) and is left out; codenames "
                                  f"tournament --out {out} plays its game again\n")
    assert json.loads(done.stdout)["games"]["finished"] == 3


@pytest.mark.parametrize(("text", "message"), [
    ('spymasters = ["bold"]\nguessers = ["random-guesser-v1"]\n'
     '[agents.bold]\nagent = "glove-ev-spymaster-v1"\noptions = { risk = "insane" }\n',
     "agent 'bold' (glove-ev-spymaster-v1): option 'risk' is one of cautious, normal, bold, "
     "not 'insane'"),
    ('spymasters = ["random-guesser-v1"]\nguessers = ["random-guesser-v1"]\n',
     "needs a spymaster, and 'random-guesser-v1' is not one"),
])
def test_a_spec_the_agents_refuse_stops_before_any_game(
        tmp_path: Path, text: str, message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.toml").write_text(text)
    done = in_process(tmp_path, "tournament", "t.toml", "--games", "2",
                      "--backend", "serial", "--out", "out")
    assert_one_line(done, message)
    assert not (tmp_path / "out").exists()


def test_a_spec_that_is_not_utf8_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.toml").write_bytes(b'spymasters = ["\xff"]\n')
    done = in_process(tmp_path, "tournament", "t.toml", "--out", "out")
    assert_one_line(done, "not UTF-8 text")


@pytest.mark.parametrize("spec", ["/dev/zero", "big.toml"])
def test_a_spec_too_large_to_be_one_is_refused_unread(
        tmp_path: Path, spec: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A hostile review: /dev/zero as the spec was read until the kernel killed the process.
    if spec == "big.toml":
        (tmp_path / spec).write_text("# " + "x" * (2 << 20) + "\n")
    done = in_process(tmp_path, "tournament", spec, "--out", "out")
    assert_one_line(done, "cannot read the tournament spec: " + (
        "it is a device, not a regular file" if spec == "/dev/zero" else "larger than 1 MB"))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("where", ["file", "/dev/full/out", "/proc/out", "/sys/out"])
def test_an_out_that_cannot_hold_results_is_refused(
        tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "a-file" if where == "file" else Path(where)
    if where == "file":
        out.write_text("mine\n")
    done = in_process(tmp_path, "tournament", *CHEAP, "--games", "2",
                      "--backend", "serial", "--out", str(out))
    assert_one_line(done, str(out))
    if where == "file":
        assert out.read_text() == "mine\n"
    else:
        assert not out.exists()


SPEC = TournamentSpec.from_options(spymasters=["random-spymaster-v1"],
                                   guessers=["random-guesser-v1"], games=4, seed=1)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)
FIELDS = st.fixed_dictionaries({}, optional={
    "game": st.integers(-2, 6) | JSON, "status": st.sampled_from(["ok", "failed"]) | JSON,
    "record": st.lists(JSON, max_size=3) | JSON, "seconds": st.floats() | JSON,
    "moves": st.dictionaries(st.text(max_size=4), st.lists(st.floats(), max_size=3)) | JSON,
    "reason": st.text() | JSON, "matchup": JSON, "board": JSON, "red": JSON, "blue": JSON})


@settings(max_examples=probe_examples(100), deadline=None)
@given(value=FIELDS | JSON)
def test_probe_the_results_line_parser(value: Any) -> None:
    line = json.dumps(value)
    try:
        result = parse_result(line.encode(), "games.jsonl: line 1", SPEC)
    except ConfigError as exc:
        assert "games.jsonl: line 1" in str(exc) and "\n" not in str(exc)
        return
    assert isinstance(result, dict) and isinstance(result["game"], int)


@settings(max_examples=probe_examples(100), deadline=None)
@given(raw=st.binary(max_size=200))
def test_probe_the_results_line_parser_with_raw_bytes(raw: bytes) -> None:
    try:
        parse_result(raw, "games.jsonl: line 1")
    except ConfigError as exc:
        assert "games.jsonl: line 1" in str(exc)


CODE = "os:system"  # what a shared file could name: a factory that runs a shell command


def code_naming_spec(finished: Path, out: Path, marker: Path) -> None:
    """``out``: the finished tournament's folder with its spymaster swapped for ``CODE``,
    the fingerprint recomputed, as someone handing the folder around could write it."""
    document = json.loads((finished / "tournament.json").read_text())
    spec = document["spec"]
    spec["spymasters"] = [CODE]
    spec["agents"] = {CODE: {"agent": CODE, "options": {"command": f"touch {marker}"}},
                      "random-guesser-v1": {"agent": "random-guesser-v1", "options": {}}}
    document["spec"] = TournamentSpec.from_dict(spec).to_dict()
    document["fingerprint"] = TournamentSpec.from_dict(spec).fingerprint()
    out.mkdir()
    (out / "tournament.json").write_text(json.dumps(document, indent=2) + "\n")


def test_a_results_folder_runs_no_code_the_person_did_not_name(finished: Path,
                                                                tmp_path: Path) -> None:
    """The third round's hostile review (high): a results folder's tournament.json naming
    'os:system' ran a shell command on `codenames tournament --out FOLDER`, before the check
    that it is a spymaster."""
    out, marker = tmp_path / "out", tmp_path / "ran"
    code_naming_spec(finished, out, marker)
    assert_one_line(in_process(tmp_path, "tournament", "--out", str(out), "--backend",
                               "serial"),
                    f"{out / 'tournament.json'} names code to run: 'os'; a tournament file "
                    "runs only the modules you name yourself: if you trust it and that "
                    "code, add --plugin 'os'")
    assert not marker.exists()
    assert not (out / "games.jsonl").exists()


def test_a_spec_file_runs_no_code_the_person_did_not_name(tmp_path: Path) -> None:
    spec, marker = tmp_path / "spec.toml", tmp_path / "ran"
    spec.write_text(f'spymasters = ["{CODE}"]\nguessers = ["random-guesser-v1"]\ngames = 2\n'
                    f'[agents."{CODE}"]\nagent = "{CODE}"\n'
                    f'options = {{ command = "touch {marker}" }}\n')
    assert_one_line(in_process(tmp_path, "tournament", str(spec), "--out",
                               str(tmp_path / "out"), "--backend", "serial"),
                    f"{spec} names code to run: 'os'")
    assert not marker.exists()
