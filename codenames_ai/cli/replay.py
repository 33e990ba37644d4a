"""``codenames replay``: a game record checked against the rules and shown turn by turn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core import GameRecord
from ..core.errors import ConfigError

# The most `codenames replay` reads: a record of MAX_RECORD_TURNS turns is a few MB.
MAX_RECORD_BYTES = 64 << 20


def replay(
    path: Annotated[Path, typer.Argument(help="A game record written with --record.")],
    hide_key: Annotated[bool, typer.Option(help="Show the board as operatives see it.")]
    = False,
    tags: Annotated[bool, typer.Option(
        "--tags", help="Pictures: list each picture's caption tags under the board.")]
    = False,
) -> None:
    """Check a game record against the rules and show it turn by turn."""
    from ..core.record import check_record_length
    from ..files import read_bounded
    from ..render import render_game

    try:
        text = read_bounded(path, MAX_RECORD_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the record ({exc})") from None
    check_record_length(text, source=str(path))
    game = GameRecord.from_jsonl(text, source=str(path))
    # Rendered in full first: a record the rules refuse halfway prints nothing but the error.
    blocks = list(render_game(game, show_key=not hide_key, tags=tags, source=str(path)))
    for block in blocks:
        typer.echo(block)
