"""Static checks run with the suite: strict typing of the package and lint of the tree.

mypy starts when this module is collected and runs beside the other tests (the suite itself
uses one core of two); the test only waits for its verdict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_MYPY = subprocess.Popen([sys.executable, "-m", "mypy"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_package_passes_mypy_strict() -> None:
    output, _ = _MYPY.communicate(timeout=300)
    assert _MYPY.returncode == 0, output


def test_tree_passes_ruff() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
