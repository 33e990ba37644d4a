"""The hints a player reads (the web start page and its room settings, the levels'
descriptions, ``codenames play --help``) are in plain words: no model names or jargon. A
newcomer (issue 41) met "the other team's guesser reads clues through word use alone
(GloVe), a mind its spymaster does not consult" as the start page's level hint. The README
may keep the detail; the browser test checks the hints as the page shows them."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from codenames_ai.cli.app import app
from codenames_ai.web.app import create_app

# Model names, the agents' inner workings, and agent ids (a player chooses a level or a
# strength, not ``panel-guesser-v2``). Whole words, in any case.
JARGON = ("GloVe", "WordNet", "MiniLM", "fastText", "word2vec", "mind", "minds", "panel",
          "EV", "expected value", "vector", "vectors", "word-vector", "embedding",
          "embeddings", "cosine", "Zipf", "z-score", "posterior", "lemma", "corpus",
          "co-occurrence", "sentence encoder", "norms")
AGENT_ID = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)*-v\d+\b")
_TERMS = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(t) for t in JARGON) + r")(?![\w-])",
                    re.IGNORECASE)


def jargon(text: str) -> list[str]:
    """The jargon terms and agent ids in ``text`` (empty when it is plain)."""
    return _TERMS.findall(text) + AGENT_ID.findall(text)


def test_the_jargon_check_finds_what_the_newcomer_read() -> None:
    assert jargon("reads clues through word use alone (GloVe), a mind its spymaster does "
                  "not consult") == ["GloVe", "mind"]
    assert jargon("the default panel-guesser-v2; its EV") == ["EV", "panel-guesser-v2"]
    assert jargon("every event, reminded, evens out") == []


def _visible(page: str) -> str:
    """The text of an HTML page, its scripts and styles left out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _strings(script: str) -> str:
    """The string literals of a script (what it may show), its comments left out."""
    script = re.sub(r"^\s*//.*$|\s//\s.*$", "", script, flags=re.M)
    return "\n".join(m.group(2) for m in re.finditer(r"([\"'`])((?:\\.|(?!\1).)*)\1", script))


def test_the_served_start_page_and_its_hints_are_plain(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        page = client.get("/")
        assert page.status_code == 200
        found = {"the page": jargon(_visible(page.text))}
        for script in ("app.js", "rooms.js"):
            found[script] = jargon(_strings(client.get(f"/static/{script}").text))
        options = client.get("/api/options").json()
        assert {level["name"] for level in options["levels"]} == {"easy", "normal", "hard"}
        for level in options["levels"]:
            found[f"level {level['name']}"] = jargon(level["description"])
    assert {where: terms for where, terms in found.items() if terms} == {}


def test_codenames_play_help_is_plain() -> None:
    shown = CliRunner().invoke(app, ["play", "--help"], terminal_width=200,
                               env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "--level" in shown.output and "--strength" in shown.output
    assert jargon(shown.output) == []
