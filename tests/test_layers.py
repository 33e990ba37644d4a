"""The rules core imports the standard library only (STYLE.md, convention 1)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import codenames_ai.core

CORE = Path(codenames_ai.core.__file__).parent


def test_core_imports_only_the_standard_library_and_itself() -> None:
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level > 0:
                    assert node.level == 1, f"{path.name} reaches outside the core"
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                assert top not in {"io", "os", "pathlib", "socket", "subprocess", "shutil"}, (
                    f"{path.name} imports {name}: the core does no I/O")
