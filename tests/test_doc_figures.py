"""The figures the README and docs/*.md quote are the generated files' (docs/figures/*.json).

A benchmark run with ``--write-figures`` writes its file and puts its figures in the docs
(``benchmarks/figures.py``); these tests fail when a quote was edited by hand, a file was
written and its figures never put in the docs, or a section the figures cover states a
measurement that no file holds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks import figures

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "docs" / "figures").glob("*.json"))
# The parts of the docs whose every measurement is a quoted figure: (page, from the line that
# starts with this, to the next line that starts with that; None: the whole page).
COVERED = [
    ("README.md", "## Quickstart", "## Play"),
    ("README.md", "### Levels", "**Blind readers**"),
    ("docs/api.md", None, None),
]
# A measurement: a number with a unit of time, memory, speed, or a percentage.
MEASUREMENT = re.compile(r"\d[\d,.]*\s?(?:%|s\b|ms\b|min\b|minutes?\b|MB\b|GB\b|games/s\b)")


def test_every_quoted_figure_is_its_file_s() -> None:
    assert figures.disagreements() == []


def test_the_docs_quote_figures() -> None:
    quoted = {(q.name, q.key) for page in figures.documents() for q in figures.quotes(page)}
    names = {name for name, _ in quoted}
    assert {"firstrun", "levels", "suite", "walkthrough"} <= names


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


def section(page: str, start: str | None, end: str | None) -> str:
    text = (ROOT / page).read_text(encoding="utf-8")
    if start is not None:
        text = text[text.index("\n" + start):]
        text = text[:text.index("\n" + end, 1)] if end else text
    return text


@pytest.mark.parametrize(("page", "start", "end"), COVERED, ids=lambda v: str(v)[:20])
def test_a_covered_section_states_no_measurement_outside_a_quote(page: str, start: str | None,
                                                                 end: str | None) -> None:
    text = figures.QUOTE.sub("", section(page, start, end))
    text = re.sub(r"95% Wilson|Wilson 95%", "", text)  # what an interval is, not a figure
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code and samples (checked elsewhere)
    assert MEASUREMENT.findall(text) == []


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
