"""The benchmark suite's plumbing (one small section for real): its JSON and its comparison.
Speeds are printed, never asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.suite import FORMAT, SECTIONS, main


def test_suite_writes_figures_and_compares(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "first.json"
    main(["--quick", "--only", "engine", "--json", str(first)])
    document = json.loads(first.read_text())
    assert document["format"] == FORMAT and document["quick"] is True
    assert document["machine"]["cpus"] and document["versions"]["codenames-ai"]
    assert set(document["figures"]["engine"]) == {
        "bare engine ms/game", "runner + random agents ms/game",
        "record write + parse ms/game", "replay ms/game"}
    assert all(v > 0 for v in document["figures"]["engine"].values())
    # The comparison, with the section measured above standing in for a second run of it:
    # every figure twice as large (slower in ms/game) is worse.
    doubled = {name: 2 * value for name, value in document["figures"]["engine"].items()}
    monkeypatch.setitem(SECTIONS, "engine", lambda quick: doubled)
    main(["--quick", "--only", "engine", "--json", str(tmp_path / "second.json"),
          "--compare", str(first)])
    out = capsys.readouterr().out
    assert "before" in out and "bare engine ms/game" in out
    assert out.count("+100.0% worse") == len(doubled), out


def test_unknown_sections_and_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="unknown section"):
        main(["--only", "engines"])
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(SystemExit, match="not a benchmark file"):
        main(["--only", "engine", "--compare", str(tmp_path / "x.json")])


@pytest.mark.slow
def test_levels_benchmark_prints_every_level() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "benchmarks.levels", "--games", "3",
                           "--workers", "1"], capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    rows = [line.split()[0] for line in done.stdout.splitlines()
            if line.split() and line.split()[0] in {"easy", "normal", "hard"}]
    assert rows == ["easy", "normal", "hard"] + ["easy"] * 2 + ["normal"] * 2 + ["hard"] * 2


@pytest.mark.slow
def test_speed_benchmark_prints_every_section() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "benchmarks.speed", "--boards", "3",
                           "--games", "4", "--repeats", "1", "--rooms-moves", "1", "--think", "0"],
                          capture_output=True, text=True, timeout=900,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("codenames-ai ") and "commit " in out
    for section in ("1. clue latency", "2. throughput", "3. concurrent rooms"):
        assert section in out, out
    assert out.count("default/v1") == 3 and out.count("held-out/deck") == 2, out
    assert out.count("new cards") == 1, out  # the default's held-out boards, cards unseen
    rooms = [line.split()[0] for line in out.split("3. concurrent rooms")[1].splitlines()
             if line.split() and line.split()[0].isdigit()]
    assert rooms == ["1", "2", "20"] * 2, out  # the latency table, then the server's


@pytest.mark.slow
def test_firstrun_benchmark_times_a_first_and_a_later_run() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "benchmarks.firstrun", "--first", "1",
                           "--later", "1"], capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    first, later = done.stdout.splitlines()
    assert first.startswith("first run 1: ") and first.endswith(" MB")
    assert later.startswith("later run 1: ") and "prepared again" not in later


def test_the_readme_s_sentences_of_benchmark_figures() -> None:
    """What --write-figures puts in the README, from measured values (no run)."""
    from benchmarks.people import halves_text, readme_table
    from benchmarks.tournament import rates_text

    assert rates_text({"serial": 64.2, "pool 1 worker(s)": 73.0, "pool 2 worker(s)": 115.4,
                       "ray 2 CPUs": 73.4}) == (
        "64 games/s serial, 73 with one pool worker, 115 with two (x1.80), 73 on a local Ray")
    people = {"found": 0.793, "first": 0.902, "duet_target": 0.863, "assassins": 3.08}
    guesser = {"found": 0.725, "precision": 0.73, "first": 0.897, "stopped": 0.01,
               "agree": 0.678, "assassins": 5.71}
    assert readme_table(people, {"people-guesser-v1": guesser}).splitlines()[2:] == [
        "| people (their own guesses) | 79.3% | 79.3% | 90.2% | - | 86.3% (first touch a target)"
        " | 3.08 |", "| `people-guesser-v1` | 72.5% | 73.0% | 89.7% | 1.0% | 67.8% | 5.71 |"]
    assert halves_text([{"found": 0.756, "first": 0.907, "agree": 0.683},
                        {"found": 0.684, "first": 0.888, "agree": 0.673}]) == (
        "75.6% and 68.4% of the intended words, first touches 90.7% and 88.8%, "
        "Duet 68.3% and 67.3%")


def test_a_measured_command_s_peak_is_its_own_not_the_benchmark_s() -> None:
    """A child forked from a large benchmark would report the benchmark's memory as its own."""
    import sys

    from benchmarks.firstrun import measured

    ballast = b"x" * (300 << 20)  # this process holds 300 MB more than the command
    small = [sys.executable, "-S", "-c", "import sys; sys.stderr.write('said'); sys.exit(3)"]
    seconds, peak, code, error = measured(small, {})
    assert code == 3 and error == "said" and seconds > 0 and peak < 100
    big = [sys.executable, "-S", "-c", "x = b'x' * (200 << 20)"]
    assert 200 < measured(big, {})[1] < 300
    del ballast
