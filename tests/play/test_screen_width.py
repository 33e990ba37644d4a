"""``codenames play`` on a real 80-column pseudo-terminal: every line fits the screen, so the
terminal never cuts a word in two, and the commands the ending quotes (deal the board again,
replay the saved game) stay whole on a line of their own, ready to copy."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import platformdirs
import pytest
import wcwidth

from codenames_ai.core import EndReason, GameRecord

from ..cli_main import run_main

COLUMNS = 80
# A secret seed is this long (128 bits); given with --seed, the game is the same every run.
SEED = "123456789012345678901234567890123456789"
# Seed SEED: blue opens, then red guesses: board, then quit and save, and no other game.
TYPED = ["board", "quit", "y", "y", "n"]
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def on_80_columns(args: list[str], home: Path) -> tuple[int | None, str]:
    """``codenames play ARGS`` on a pseudo-terminal of 80 columns, typing ``TYPED`` at its
    prompts, with ``home`` as the home folder (the model cache stays the shared one). The
    exit code and the text it wrote, colours and carriage returns left out."""
    screen, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    cache = Path(platformdirs.user_cache_dir("codenames-ai", appauthor=False)).parent
    env = {name: value for name, value in os.environ.items()
           if name not in {"COLUMNS", "LINES", "XDG_DATA_HOME"}}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(cache))
    process = subprocess.Popen(
        [sys.executable, "-c", "from codenames_ai.cli.app import main; main()", "play",
         *args], stdin=secondary, stdout=secondary, stderr=secondary, close_fds=True, env=env)
    os.close(secondary)
    typed, output = iter(TYPED), b""
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([screen], [], [], 0.2)
        if not ready:
            continue
        try:
            chunk = os.read(screen, 65536)
        except OSError:
            break
        output += chunk
        if chunk.rstrip().endswith((b">", b"]")):  # a prompt: the next answer
            os.write(screen, (next(typed, "n") + "\n").encode())
    if process.poll() is None:
        process.kill()
    process.wait(timeout=30)
    os.close(screen)
    return process.returncode, ANSI.sub("", output.decode().replace("\r", ""))


def rows(text: str) -> list[str]:
    """The screen's rows: a line wider than the screen goes on in the next row, as the
    terminal shows it, cut wherever the columns run out."""
    shown = []
    for line in text.split("\n"):
        row = ""
        for ch in line:
            if wcwidth.wcswidth(row + ch) > COLUMNS:
                shown.append(row)
                row = ""
            row += ch
        shown.append(row)
    return shown


def test_every_line_fits_80_columns_and_no_word_is_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    code, text = on_80_columns(["--seed", SEED], home)
    assert code == 0, text[-2000:]
    lines = text.split("\n")
    assert "Turn 2 · the game is stopped by a player who quit" in lines
    wide = [line for line in lines if wcwidth.wcswidth(line) > COLUMNS]
    assert not wide, wide
    # The same game through a pipe, where no line is wrapped: each of its words is whole in a
    # row of the screen (the seed and the saved file's lines are laid out apart, below).
    monkeypatch.setenv("COLUMNS", str(COLUMNS))  # the same layout: one card a line
    piped = run_main("play", "--seed", SEED, "--save", str(tmp_path / "piped.jsonl"),
                     stdin="\n".join(TYPED) + "\n")
    assert piped.returncode == 0, piped.stderr
    words = {word for line in piped.stdout.splitlines()
             if not line.startswith(("Seed ", "Saved: ")) for word in line.split()}
    on_screen = {word for row in rows(text) for word in row.split()}
    assert "assassin" in words and "aimed" in words
    assert words - on_screen == set()
    # The commands the ending quotes, each whole on its own line.
    assert f"  codenames play --seed {SEED}" in lines
    [replay] = [line for line in lines if line.startswith("  codenames replay ")]
    saved = Path(replay.removeprefix("  codenames replay ").replace("~", str(home), 1))
    assert saved.parent == home / ".local" / "share" / "codenames-ai" / "games"
    assert SEED not in saved.name  # 39 digits would make a path no line holds
    assert GameRecord.from_jsonl(saved.read_text()).outcome.reason is EndReason.STOPPED
