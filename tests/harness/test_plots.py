"""The report's pictures are cropped to what they draw: no wide empty margin beside the
win-rate matrix (whose cells are square, in a figure sized for its labels)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cli_main import run_main

DPI = 110  # harness.report's
MOST_MARGIN = 0.15 * DPI  # pixels: the 0.1-inch pad and a little anti-aliasing


def blank_margins(png: Path) -> tuple[int, int, int, int]:
    """Columns at the left and right, and rows at the top and bottom, that are all white."""
    from matplotlib import image

    pixels = image.imread(png)[..., :3]
    drawn = (pixels < 0.99).any(axis=2)
    columns, rows = np.flatnonzero(drawn.any(axis=0)), np.flatnonzero(drawn.any(axis=1))
    return (int(columns[0]), drawn.shape[1] - 1 - int(columns[-1]), int(rows[0]),
            drawn.shape[0] - 1 - int(rows[-1]))


def test_the_win_rate_matrix_and_the_other_plots_have_no_empty_margin(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(
        'spymasters = ["random-spymaster-v1", "cautious"]\nguessers = ["random-guesser-v1"]\n'
        '[agents.cautious]\nagent = "random-spymaster-v1"\noptions = { max_number = 1 }\n')
    done = run_main("tournament", str(tmp_path / "t.toml"), "--games", "4", "--backend",
                    "serial", "--out", str(tmp_path / "r"), "--quiet")
    assert done.returncode == 0, done.stderr
    report = run_main("report", str(tmp_path / "r"), "--plots", str(tmp_path / "plots"))
    assert report.returncode == 0, report.stderr
    for name in ("win_rate.png", "turns.png", "clue_numbers.png"):
        margins = blank_margins(tmp_path / "plots" / name)
        assert max(margins) <= MOST_MARGIN, (name, margins)
