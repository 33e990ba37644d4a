"""The figures the README and docs/*.md quote are the generated files' (docs/figures/*.json).

A benchmark run with ``--write-figures`` writes its file and puts its figures in the docs
(``benchmarks/figures.py``); these tests fail when a quote was edited by hand, a file was
written and its figures never put in the docs, a page (the README or docs/*.md, whole) states a
measurement outside a quote, or a record does not name the commits it was measured on.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from benchmarks import figures

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "docs" / "figures").glob("*.json"))
# A measurement: a number with a unit of time, memory, speed, or a percentage. Every page (the
# README and docs/*.md, whole) states one only in a quote of a figures file; a number someone
# chose (a limit, a timeout, a goal) is marked <!-- setting -->, and code blocks are samples
# (checked by the tests that run them).
MEASUREMENT = re.compile(r"\d[\d,.]*\s?(?:%|s\b|ms\b|min\b|minutes?\b|seconds?\b|hours?\b"
                         r"|KB\b|KiB\b|MB\b|GB\b|games/s\b)")
# What an interval is, not a figure.
INTERVAL = re.compile(r"95% Wilson|Wilson 95%|95% CI")


def unquoted_measurements(text: str) -> list[str]:
    """The measurements ``text`` states outside a quote, a setting and a code block."""
    text = figures.SETTING.sub("", figures.QUOTE.sub("", text))
    text = re.sub(r"```.*?```", "", INTERVAL.sub("", text), flags=re.S)
    return MEASUREMENT.findall(text)


def test_every_quoted_figure_is_its_file_s() -> None:
    assert figures.disagreements() == []


def test_the_docs_quote_figures() -> None:
    quoted = {(q.name, q.key) for page in figures.documents() for q in figures.quotes(page)}
    names = {name for name, _ in quoted}
    assert {"firstrun", "levels", "suite", "walkthrough", "models", "people", "pairs",
            "tournament", "quick", "minds", "speed", "serve", "pictures", "readers"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_figures_file_says_how_it_was_made_and_is_quoted_whole(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == figures.FORMAT
    for field in figures.FIELDS:
        assert isinstance(document[field], str) and document[field], field
    assert document["figures"] and all(isinstance(v, str) for v in document["figures"].values())
    quoted = {q.key for page in figures.documents() for q in figures.quotes(page)
              if q.name == path.stem}
    assert set(document["figures"]) <= quoted, "a figure no doc quotes"


@pytest.mark.parametrize("page", figures.documents(), ids=lambda p: p.name)
def test_a_page_states_no_measurement_outside_a_quote(page: Path) -> None:
    assert unquoted_measurements(page.read_text(encoding="utf-8")) == []


def test_a_measurement_outside_a_quote_is_found() -> None:
    assert unquoted_measurements(
        "about <!-- figure x.time -->12 s<!-- /figure --> then 17 s, 3.5 minutes and 45%; "
        "a 95% Wilson interval, a cap of <!-- setting -->16 KB<!-- /setting -->, 1.2 GB,\n"
        "```text\n$ time run\n0.6 s\n```\n8 games/s, 10 seconds") == [
        "17 s", "3.5 minutes", "45%", "1.2 GB", "8 games/s", "10 seconds"]


@pytest.mark.parametrize("page", figures.documents(), ids=lambda p: p.name)
def test_a_setting_is_one_short_number(page: Path) -> None:
    """A setting mark holds a number and its unit, never a passage (nor a quote)."""
    for found in figures.SETTING.finditer(page.read_text(encoding="utf-8")):
        assert re.fullmatch(r"[\w ,.%/-]{1,24}", found[1]), found[0]


def test_the_docs_quote_every_kind_of_figure() -> None:
    made = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in FILES}
    assert [name for name, document in made.items() if "recorded" not in document], "measured"
    assert [name for name, document in made.items() if "recorded" in document], "records"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_record_names_its_commits_and_a_measurement_its_benchmark(path: Path) -> None:
    """A record says how it was made and names the commits it was measured on (each one this
    repository holds); any other file is written by the benchmark its command runs."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if "recorded" in document:
        assert isinstance(document["recorded"], str) and len(document["recorded"]) > 40
        commits = re.findall(r"\b[0-9a-f]{7,40}\b", document["commit"])
        assert commits, f"{path.name}: a record names the commit it was measured on"
        for commit in commits:
            found = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"],
                                   cwd=ROOT, capture_output=True)
            assert found.returncode == 0, f"{path.name}: no commit {commit} in this repository"
    else:
        module = re.match(r"python -m benchmarks(?:\.(\w+))?( |$)", document["command"])
        assert module, f"{path.name}: a measured file's command runs a benchmark"
        source = (ROOT / "benchmarks" / f"{module[1] or 'suite'}.py").read_text(encoding="utf-8")
        assert f'figures.write("{path.stem}"' in source
        assert re.fullmatch(r"[0-9a-f]{7,40}", document["commit"]), "measured on a commit"


def test_rewrite_puts_a_file_s_figures_where_they_are_quoted() -> None:
    document = {"command": "python -m benchmarks.x", "figures": {"time": "12 s",
                                                                  "table": "| a |\n|---|"}}
    text = ("about <!-- figure x.time -->17 s<!-- /figure --> (<!-- figure x.command -->"
            "`old`<!-- /figure -->), <!-- figure y.time -->3 s<!-- /figure -->\n"
            "<!-- figure x.table -->\n\n| b |\n|---|\n\n<!-- /figure -->\n")
    assert figures.rewrite(text, "x", document) == (
        "about <!-- figure x.time -->12 s<!-- /figure --> (<!-- figure x.command -->"
        "`python -m benchmarks.x`<!-- /figure -->), <!-- figure y.time -->3 s<!-- /figure -->\n"
        "<!-- figure x.table -->\n\n| a |\n|---|\n\n<!-- /figure -->\n")
    with pytest.raises(KeyError, match="no 'memory'"):
        figures.rewrite("<!-- figure x.memory -->1 MB<!-- /figure -->", "x", document)


def test_a_quote_that_differs_is_named_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "docs" / "figures").mkdir(parents=True)
    (tmp_path / "docs" / "figures" / "x.json").write_text(json.dumps(
        {"format": figures.FORMAT, "command": "c", "date": "d", "commit": "e", "cpus": "2 CPUs",
         "figures": {"time": "12 s"}}))
    (tmp_path / "README.md").write_text("a\nabout <!-- figure x.time -->17 s<!-- /figure -->"
                                        " <!-- figure z.time -->1 s<!-- /figure -->\n")
    (tmp_path / "docs" / "api.md").write_text("<!-- figure x.speed -->1 s<!-- /figure -->\n")
    assert figures.disagreements(tmp_path) == [
        "README.md:2: x.time quotes '17 s', the file holds '12 s'",
        "README.md:2: no figures file docs/figures/z.json",
        "docs/api.md:1: docs/figures/x.json has no 'speed'"]
    (tmp_path / "docs" / "api.md").unlink()
    assert figures.update_docs("x", tmp_path) == [tmp_path / "README.md"]
    assert "<!-- figure x.time -->12 s<!-- /figure -->" in (tmp_path / "README.md").read_text()


def test_a_benchmark_s_figures_go_to_their_file_and_the_docs(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text(
        "about <!-- figure x.time -->17 s<!-- /figure --> (<!-- figure x.command -->`old`"
        "<!-- /figure --> at <!-- figure x.commit -->0000000<!-- /figure -->)\n")
    path = figures.write("x", figures.command_line("benchmarks.x", ["--games", "2",
                                                                     "--write-figures"]),
                         {"time": figures.seconds_text(165.4)}, commit="abc1234",
                         root=tmp_path)
    document = json.loads(path.read_text())
    assert path == tmp_path / "docs" / "figures" / "x.json"
    assert document["command"] == "python -m benchmarks.x --games 2"
    assert document["figures"] == {"time": "2 min 45 s"} and document["commit"] == "abc1234"
    assert (tmp_path / "README.md").read_text() == (
        "about <!-- figure x.time -->2 min 45 s<!-- /figure --> (<!-- figure x.command -->"
        "`python -m benchmarks.x --games 2`<!-- /figure --> at <!-- figure x.commit -->abc1234"
        "<!-- /figure -->)\n")
    assert figures.disagreements(tmp_path) == []
