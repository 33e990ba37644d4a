"""docs/web-game.png, the README's picture of a game's end in the browser, is made by
docs/web_game_png.py from a fixed seed: the game it plays (in memory here, as the server
plays it) is one the person wins with clues for two and three, and the README's caption says
what the picture shows. Before (issue 41), the picture was copied by hand from a test run and
showed a loss on turn 15 after "gasoline: 1"."""

from __future__ import annotations

import importlib.util
import re
import struct
from pathlib import Path
from types import ModuleType

DOCS = Path(__file__).resolve().parents[1] / "docs"
README = DOCS.parent / "README.md"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("web_game_png", DOCS / "web_game_png.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_screenshot_s_seed_plays_a_won_game_with_clues_for_two_and_three() -> None:
    made = script()
    _, view = made.person_moves(made.SEED)
    assert made.wanted(view)
    assert view["winner"] == "red" and view["you"]["team"] == "red"
    caption = re.search(r"!\[([^\]]*)\]\(docs/web-game\.png\)", README.read_text())
    assert caption is not None
    text = caption.group(1)
    assert f"wins on turn {view['turn']}" in text and "won" in text
    clues = [e for e in view["log"] if e["event"] == "clue"]
    for entry in clues:
        if entry["number"] in (2, 3):
            assert entry["word"].upper() in text


def test_the_picture_is_a_whole_page_photograph() -> None:
    with (DOCS / "web-game.png").open("rb") as picture:
        header = picture.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert width == script().WIDTH and height > 1500  # down to the history
