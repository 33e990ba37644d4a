"""The README's map ("What is here") names every module of the package, each in the row of
its folder, so a reader finds where a thing lives without opening the tree (issue 40)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "codenames_ai"


def map_rows() -> dict[str, str]:
    """The map's rows: the path in the first column -> the text of the second."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## What is here\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\| `([^`]+)` \| (.*) \|$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def unnamed_modules(rows: dict[str, str]) -> list[str]:
    """Modules (``__init__.py`` aside) that the row of their folder does not name, in
    backticks, by their path inside that folder (or, with no row of their own folder,
    that no row names by their whole path)."""
    whole_section = " ".join(rows.values())
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        name = path.relative_to(ROOT).as_posix()
        owners = [row for row in rows
                  if name == row or (row.endswith("/") and name.startswith(row))]
        if name in owners:
            continue
        if owners:
            owner = max(owners, key=len)
            if f"`{name[len(owner):]}`" not in rows[owner]:
                missing.append(f"{name} (row {owner})")
        elif f"`{name}`" not in whole_section:
            missing.append(name)
    return missing


def test_the_readme_map_names_every_module() -> None:
    missing = unnamed_modules(map_rows())
    assert not missing, ("README.md's 'What is here' does not name: " + ", ".join(missing)
                         + "; add each to its folder's row with a few words on what it holds")


def test_the_check_sees_a_module_left_out() -> None:
    rows = map_rows()
    rows["codenames_ai/core/"] = rows["codenames_ai/core/"].replace("`match.py`", "match")
    assert "codenames_ai/core/match.py (row codenames_ai/core/)" in unnamed_modules(rows)
