"""House rules a reader can hold in their head: no function in codenames_ai/ over 60 lines
(issue 28; 60 since issue 40)."""

from __future__ import annotations

import ast
from pathlib import Path

import codenames_ai

PACKAGE = Path(codenames_ai.__file__).parent
MAX_LINES = 60


def long_functions() -> dict[str, int]:
    """``path:name`` of every function (methods and nested ones too) longer than
    ``MAX_LINES``, from its ``def`` line to its last line, and its length."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    found[f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"] = lines
    return found


def test_no_function_is_over_60_lines() -> None:
    over = long_functions()
    assert not over, "functions over 60 lines: " + ", ".join(
        f"{name} ({lines})" for name, lines in sorted(over.items()))
