"""The ratings table ranks only agents with rated games; the rest are listed apart."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from codenames_ai.harness.backends import SerialBackend
from codenames_ai.harness.report import print_summary
from codenames_ai.harness.run import run_tournament

from .test_run import cheap


def test_a_shared_guesser_with_no_rated_game_is_listed_apart(tmp_path: Path) -> None:
    # The one guesser "rg" plays on both teams of every game: no game rates it.
    summary = run_tournament(cheap(), tmp_path, SerialBackend(), quiet=True)
    assert [r.agent for r in summary.ranked] == ["rs", "rs2"]
    assert [(r.agent, r.games) for r in summary.unrated] == [("rg", 0)]
    assert summary.ratings[-1].agent == "rg"  # summary.json: ranked first, unrated last
    console = Console(width=160, record=True, color_system=None)
    print_summary(summary, console)
    text = console.export_text()
    table = text[text.index("Ratings"):text.index("Not ranked")]
    assert "rs2" in table and "rg" not in table
    assert "Not ranked (no rated game" in text and text.rstrip().endswith(": rg")
