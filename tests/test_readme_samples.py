"""Every sample output in the README and docs/*.md is what its command prints today.

A sample is a ```text block whose first line is ``$ COMMAND``; the rest is the output, where a
line ``  ...`` stands for any number of lines and ``…`` within a line for any text (a timing
that varies). The command runs in a shell in a fresh folder with the installed ``codenames``
script, as a reader would run it; the files the same page shows whole (a ```python block whose
first line is ``# NAME.py``, as docs/api.md's ``my_spymaster.py``) are saved there first, as
the page tells its reader to.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.figures import named_blocks

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
ELISION = "  ..."
ANY_TEXT = "…"


def samples(page: Path = README) -> list[tuple[str, list[str]]]:
    blocks = re.findall(r"```text\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
    found = []
    for block in blocks:
        lines = block.rstrip("\n").split("\n")
        if lines[0].startswith("$ "):
            found.append((lines[0][2:], lines[1:]))
    return found


def every_sample() -> list[tuple[Path, str, list[str]]]:
    return [(page, command, expected) for page in PAGES for command, expected in samples(page)]


def line_pattern(line: str) -> str:
    return r"[^\n]*".join(re.escape(part) for part in line.split(ANY_TEXT)) + r"\n"


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` with each elision standing for zero or more lines and each
    ``…`` for any text within its line."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line == ELISION else line_pattern(line)
                      for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def test_the_readme_and_the_api_page_have_samples() -> None:
    assert len(samples(README)) >= 1
    # The plugin walkthrough's tournament, as its reader runs it: what it gives is quoted.
    assert [c for c, _ in samples(ROOT / "docs" / "api.md")] == [
        "python my_spymaster.py && codenames report runs/one-card"]


@pytest.mark.parametrize(("page", "command", "expected"), every_sample(),
                         ids=lambda v: v.name if isinstance(v, Path) else str(v)[:40])
def test_sample_output_is_current(page: Path, command: str, expected: list[str],
                                  tmp_path: Path) -> None:
    assert shutil.which("codenames"), "the codenames script is not installed"
    for name, text in named_blocks(page).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    # The width a pipe gets when the terminal says nothing, whatever runs pytest; the
    # command's own modules, never a checkout's on PYTHONPATH.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "COLUMNS": "100"}
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600, env=env)
    actual = [line.rstrip() for line in result.stdout.rstrip("\n").split("\n")]
    assert result.returncode == 0, result.stderr
    assert matches([line.rstrip() for line in expected], actual), (
        f"the sample in {page.name} is out of date; today the command prints:\n"
        + result.stdout)


def test_elision_matches_any_run_of_lines() -> None:
    assert matches(["a", ELISION, "d"], ["a", "b", "c", "d"])
    assert matches(["a", ELISION, "d"], ["a", "d"])
    assert not matches(["a", ELISION, "d"], ["a", "b", "c"])
    assert not matches(["a", "d"], ["a", "b", "d"])


def test_an_ellipsis_matches_any_text_within_its_line() -> None:
    assert matches(["│ 3.0% │…"], ["│ 3.0% │ 2.98 │ 0.424 │"])
    assert matches(["a … z"], ["a  z"])
    assert not matches(["│ 3.0% │…"], ["│ 6.5% │ 2.98 │"])
    assert not matches(["a…"], ["a", "b"])  # never past its line
