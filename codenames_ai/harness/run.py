"""Running a tournament into a results folder, with a progress bar, and its summary."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..agents.registry import trust_plugin_files
from ..core.errors import ConfigError, RecordError
from ..files import atomic_write
from .backends import Backend, PoolBackend, SerialBackend
from .games import FAILED, check_agents, located_plugins
from .results import (
    HAND_EDITED,
    ResultsFolder,
    ResultsInOrder,
    read_spec,
    recorded_plugins,
)
from .spec import BACKENDS, TournamentSpec
from .summary import Summary, summarize

SUMMARY_FILE = "summary.json"


def make_backend(name: str, *, workers: int | None = None, batch_size: int = 16,
                 address: str | None = None) -> Backend:
    """A backend by name (``pool``, ``serial`` or ``ray``)."""
    if name == "serial":
        return SerialBackend()
    if name == "pool":
        return PoolBackend(workers, batch_size)
    if name == "ray":
        from .ray_backend import RayBackend

        return RayBackend(address, workers, batch_size)
    raise ConfigError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")


class _Rate(ProgressColumn):
    """Games per second since this run started (not counting games found on disk)."""

    def __init__(self) -> None:
        super().__init__()
        self.started = time.monotonic()
        self.first: float | None = None

    def render(self, task: Task) -> Text:
        if self.first is None:
            self.first = task.completed
        elapsed = time.monotonic() - self.started
        done = task.completed - self.first
        return Text(f"{done / elapsed:6.1f} games/s" if elapsed > 0 and done else "")


def run_tournament(spec: TournamentSpec, out: Path, backend: Backend, *,
                   quiet: bool = False, console: Console | None = None) -> Summary:
    """Play every game of ``spec`` not yet in ``out`` and return the summary of all of them.

    Results are written as games end; stopping at any moment (Ctrl-C, ``kill -9``) keeps
    every finished game, and running again plays only the missing ones.
    """
    console = console or Console(stderr=True)
    recorded = recorded_plugins(out)
    resumed = read_spec(out) is not None
    if not resumed:  # refused before the folder is made
        check_agents(spec, recorded)
    with ResultsFolder(out, spec) as folder:
        missing = folder.missing()
        if missing and resumed:  # with nothing left to play, no agent (no plugin) is needed
            check_agents(spec, recorded)
        located = located_plugins(spec)
        trust_plugin_files(located.values())
        folder.note_plugins(located)
        failures = 0
        refreshed = 0.0
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      _Rate(), TextColumn("eta"), TimeRemainingColumn(), console=console,
                      disable=quiet, auto_refresh=False) as progress:
            # No refresh thread: pool workers are forked from this process, and a fork
            # with a second thread alive can copy a lock that thread holds.
            task = progress.add_task(f"{backend.name}", total=spec.games,
                                     completed=spec.games - len(missing))

            def emit(result: dict[str, Any]) -> None:
                nonlocal failures, refreshed
                folder.append(result)
                failures += result.get("status") == FAILED
                progress.advance(task)
                if time.monotonic() - refreshed > 0.1:
                    progress.refresh()
                    refreshed = time.monotonic()

            if missing:
                backend.run(spec, missing, emit)
    if failures and not quiet:
        console.print(f"{failures} game(s) failed; their reasons are in the summary")
    return write_summary(out, spec)


def write_summary(out: Path, spec: TournamentSpec | None = None) -> Summary:
    """Summarise a results folder and write ``summary.json`` beside the games."""
    spec = spec or read_spec(out)
    if spec is None:
        raise ConfigError(f"{out} holds no tournament (no tournament.json); run "
                          "codenames tournament --out with it first")
    # Each line is checked against the schedule as it is read, and each game's record by
    # the rules: a line changed by hand is named, and no summary is written.
    results = ResultsInOrder(out, spec)
    try:
        summary = summarize(spec, results)
    except RecordError as exc:
        raise ConfigError(f"{results.where}: {exc}; {HAND_EDITED}") from None
    try:
        atomic_write(out / SUMMARY_FILE,
                     (json.dumps(summary.to_dict(), indent=2) + "\n").encode("utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot write {out / SUMMARY_FILE}: {exc.strerror or exc}; the "
                          "games are kept: make room, or make the folder writable, and run "
                          f"codenames report {out}") from None
    return summary
