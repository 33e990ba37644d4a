"""Every sample output in the README is what its command prints today.

A sample is a ```text block whose first line is ``$ COMMAND``; the rest is the output, where a
line ``  ...`` stands for any number of lines. The command runs in a shell in a fresh folder
with the installed ``codenames`` script, as a reader would run it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
ELISION = "  ..."


def samples() -> list[tuple[str, list[str]]]:
    blocks = re.findall(r"```text\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    found = []
    for block in blocks:
        lines = block.rstrip("\n").split("\n")
        if lines[0].startswith("$ "):
            found.append((lines[0][2:], lines[1:]))
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` with each elision standing for zero or more lines."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line == ELISION else re.escape(line) + r"\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def test_the_readme_has_samples() -> None:
    assert len(samples()) >= 1


@pytest.mark.parametrize(("command", "expected"), samples(), ids=lambda v: str(v)[:40])
def test_sample_output_is_current(command: str, expected: list[str], tmp_path: Path) -> None:
    assert shutil.which("codenames"), "the codenames script is not installed"
    # The width a pipe gets when the terminal says nothing, whatever runs pytest.
    env = {**os.environ, "COLUMNS": "100"}
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300, env=env)
    actual = [line.rstrip() for line in result.stdout.rstrip("\n").split("\n")]
    assert result.returncode == 0, result.stderr
    assert matches([line.rstrip() for line in expected], actual), (
        "the README sample is out of date; today the command prints:\n" + result.stdout)


def test_elision_matches_any_run_of_lines() -> None:
    assert matches(["a", ELISION, "d"], ["a", "b", "c", "d"])
    assert matches(["a", ELISION, "d"], ["a", "d"])
    assert not matches(["a", ELISION, "d"], ["a", "b", "c"])
    assert not matches(["a", "d"], ["a", "b", "d"])
