"""``codenames report``: a tournament's summary again, and its plots."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.errors import ConfigError
from ..output import check_folder

if TYPE_CHECKING:
    from rich.console import Console


def wide_console() -> Console:
    """The terminal's width, or a width that fits the tables when writing to a file/pipe."""
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=160)


def report(
    folder: Annotated[Path, typer.Argument(help="A tournament results folder.")],
    plots: Annotated[Path | None, typer.Option(
        help="Where to write the PNG plots (default: FOLDER/plots).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]
    = False,
) -> None:
    """Print a tournament's summary again and write its plots."""
    from ..harness.report import MAX_PLOTTED_TEAMS, print_summary, write_plots
    from ..harness.results import GAMES_FILE, torn_line
    from ..harness.run import write_summary

    if not folder.is_dir():
        raise ConfigError(f"{folder} is not a folder; give the --out folder of a tournament")
    check_folder(plots or folder / "plots", "--plots")
    summary = write_summary(folder)
    torn = torn_line(folder)
    if torn is not None:  # left out of the summary, which must not pass for the whole file
        typer.echo(f"note: {folder / GAMES_FILE}: line {torn} is cut short (a run stopped "
                   "while writing it?) and is left out; codenames tournament --out "
                   f"{folder} plays its game again", err=True)
    if as_json:
        typer.echo(json.dumps(summary.to_dict(), indent=2))
    else:
        print_summary(summary, wide_console())
    try:
        written = write_plots(summary, plots or folder / "plots")
    except OSError as exc:  # the folder was checked; this is a full disk or the like
        raise ConfigError(f"{plots or folder / 'plots'}: cannot write the plots "
                          f"({exc.strerror or exc}); give --plots another folder") from None
    for path in written:
        typer.echo(f"wrote {path}", err=as_json)
    if not written:
        typer.echo(f"no plots: {len(summary.teams):,} teams are more than the "
                   f"{MAX_PLOTTED_TEAMS} a plot shows; their figures are in the summary",
                   err=as_json)
