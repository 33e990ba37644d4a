"""The web decides nothing about what is hidden: every seat's table comes from a view the
core built (``GameState.spymaster_view`` / ``public_view``). Before, ``web/games.py`` read
``state.board.key`` behind a ``sees_key`` flag, and a room's seat could be shown the key by a
mistake in the web alone. That the key is read only from a spymaster's view, here and in
every other package, is tests/test_views_everywhere.py's."""

from __future__ import annotations

import ast
from pathlib import Path

import codenames_ai

WEB = Path(codenames_ai.__file__).parent / "web"

def reads(attribute: str) -> list[str]:
    """Where web/ reads ``.attribute``, as "file:line: source"."""
    found = []
    for path in sorted(WEB.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == attribute:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_web_never_reaches_the_board_behind_the_views() -> None:
    assert reads("board") == []

