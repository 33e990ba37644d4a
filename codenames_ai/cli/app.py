"""The ``codenames`` Typer app: each command lives in a module of its own and is registered
here, in the order ``codenames --help`` lists them. Thin: every rule lives in
``codenames_ai.core``."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Annotated

import typer

from ..core import CodenamesError
from .agents import agents
from .check import check
from .clue import clue
from .guess import guess
from .models import app as models_app
from .play import play
from .replay import replay
from .report import report
from .serve import serve
from .tournament import tournament
from .watch import watch

app = typer.Typer(
    name="codenames",
    help="AI spymasters and guessers for Codenames: watch bots play, replay records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.add_typer(models_app, name="models")
for command in (clue, guess, agents, tournament, report, serve, watch, play, replay, check):
    app.command(command.__name__)(command)


def _version_callback(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"codenames-ai {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version_callback,
                                          is_eager=True, help="Show the version and exit.")]
    = False,
) -> None:
    """AI spymasters and guessers for Codenames."""


def main() -> None:
    """Entry point: our errors become one line on stderr and exit code 1, no traceback.
    Usage errors (an unknown option or choice) are typer's: a usage line and exit code 2.
    A closed pipe on standard output (``codenames watch | head``) ends quietly, exit code
    141, as a Unix tool killed by SIGPIPE does."""
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        if sys.stderr is not None:
            typer.echo("error: standard output is closed, and codenames writes its results "
                       "there; give it a terminal, a file or a pipe (> /dev/null to discard "
                       "them)", err=True)
        sys.exit(1)
    try:
        app()
    except SystemExit as exc:
        # Click ends a command whose output pipe closed (`| head`) quietly with exit code
        # 1, wrapping the streams so that their last flush is ignored; 141 tells a shell
        # (`set -o pipefail`) that the reader left, as for a tool killed by SIGPIPE.
        # (By the wrapper's name: typer ships its own copy of click.)
        if exc.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            sys.exit(141)
        raise
    except CodenamesError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted", err=True)
        sys.exit(130)
    except OSError as exc:
        if exc.filename is not None or exc.errno not in _OUTPUT_ERRORS:
            raise
        # Standard output cannot be written (`> /dev/full`): one line.
        _drop_output()
        with contextlib.suppress(OSError):
            typer.echo(f"error: cannot write the output ({exc.strerror or exc})", err=True)
        sys.exit(1)


# What a write to a full disk, a closed pipe or a failed device raises.
_OUTPUT_ERRORS = {errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _drop_output() -> None:
    """Point standard output at the null device, so that the text still in its buffer is
    not written again, and refused again, as Python exits."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # None, or a test's in-memory stream
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
