"""``codenames tournament``: run a reproducible self-play tournament."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..core import EditionName, GuessLimit
from ..core.errors import ConfigError, quoted, quoted_some
from ..harness import BACKENDS
from ..harness.spec import Mode
from .checks import check_whole
from .plugins import Plugins, load_plugins
from .report import wide_console

if TYPE_CHECKING:
    from ..harness.spec import TournamentSpec
    from ..harness.summary import Summary

MAX_WORKERS = 4096  # processes or CPUs; more is a typo
MAX_BATCH = 100_000  # games per task


def _split(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def _spec(spec_file: Path | None, out: Path, spymasters: list[str] | None,
          guessers: list[str] | None, options: dict[str, Any]) -> TournamentSpec:
    """The spec from a TOML file, the command line, or the results folder (to continue)."""
    from ..harness.results import read_spec
    from ..harness.spec import TournamentSpec

    if spec_file is not None:
        overrides = {**options, "spymasters": spymasters, "guessers": guessers}
        return TournamentSpec.from_toml(spec_file, **overrides)
    if spymasters or guessers:
        if not spymasters or not guessers:
            raise ConfigError("give both --spymasters and --guessers (comma-separated agent "
                              "ids; codenames tournament --help lists where to find them)")
        return TournamentSpec.from_options(spymasters=spymasters, guessers=guessers,
                                           **options)
    saved = read_spec(out)
    if saved is None:
        raise ConfigError(f"{out} holds no tournament to continue; give --spymasters and "
                          "--guessers, or a spec file")
    changed = {k: v for k, v in options.items() if v is not None}
    if set(changed) - {"games"}:
        raise ConfigError(f"{out} holds a tournament; to continue it give only --out (and "
                          f"--games to extend it), not {', '.join(sorted(changed))}")
    return saved.with_games(changed.get("games", saved.games))


def tournament(
    spec_file: Annotated[Path | None, typer.Argument(
        help="A TOML tournament spec (see the README); command-line options override it.")]
    = None,
    out: Annotated[Path, typer.Option(
        help="Results folder; on a folder with results, only the missing games are played.")]
    = Path("runs/tournament"),
    spymasters: Annotated[str | None, typer.Option(
        help="Comma-separated spymaster ids or module:Class plugins.")] = None,
    guessers: Annotated[str | None, typer.Option(
        help="Comma-separated guesser ids or module:Class plugins.")] = None,
    games: Annotated[int | None, typer.Option(help="Games in all (default 100).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Master seed; every game's seed is derived from it (default 0).")] = None,
    mode: Annotated[Mode | None, typer.Option(
        help="two-team, single-team (a race against the turn limit) or coop.")] = None,
    edition: Annotated[EditionName | None, typer.Option(help="words or pictures.")] = None,
    guess_limit: Annotated[GuessLimit | None, typer.Option(help="classic or strict.")] = None,
    clue_rules: Annotated[str | None, typer.Option(
        help="Clue rules: classic, strict, flexible, pictures, house:a+b.")] = None,
    move_time_limit: Annotated[float | None, typer.Option(
        help="Seconds per clue or guess; an overrun forfeits the move.")] = None,
    max_turns: Annotated[int | None, typer.Option(
        help="Turn limit (own turns in a single-team race; default 25 there, 60 else).")]
    = None,
    swap_sides: Annotated[bool | None, typer.Option(
        "--swap-sides/--no-swap-sides",
        help="Play every board twice with the sides swapped (default: on).")] = None,
    backend: Annotated[str, typer.Option(help=f"Where games run: {', '.join(BACKENDS)}.")]
    = "pool",
    workers: Annotated[int | None, typer.Option(
        help="Worker processes (pool) or CPUs (local Ray); default: every core.")] = None,
    batch_size: Annotated[int, typer.Option(help="Games per task sent to a worker.")] = 16,
    address: Annotated[str | None, typer.Option(
        help="Ray cluster: auto or HOST:PORT (default: start Ray on this machine).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                        help="No progress bar or tables.")] = False,
    plugin: Plugins = None,
) -> None:
    """Run a reproducible self-play tournament; results survive a crash and resume."""
    from ..harness.run import make_backend, run_tournament

    _check_backend(backend, address=address, workers=workers, batch_size=batch_size)
    load_plugins(plugin)  # before the spec, which records each plugin agent's module
    options = {"games": games, "seed": seed, "mode": _name(mode), "edition": _name(edition),
               "guess_limit": _name(guess_limit), "clue_rules": clue_rules,
               "move_time_limit": move_time_limit, "max_turns": max_turns,
               "swap_sides": swap_sides}
    spec = _spec(spec_file, out, _split(spymasters), _split(guessers), options)
    _refuse_unnamed_code(spec, spec_file or out / "tournament.json",
                         {*(plugin or ()), *_typed_modules(spymasters, guessers),
                          *_own_recorded_modules(out)})
    runner = make_backend(backend, workers=workers, batch_size=batch_size, address=address)
    try:
        summary = run_tournament(spec, out, runner, quiet=quiet)
    except KeyboardInterrupt:
        typer.echo(f"\nstopped: finished games are kept in {out}; run the same command to "
                   "play the rest", err=True)
        raise typer.Exit(130) from None
    _show(summary, out, quiet=quiet)


def _name(choice: Enum | None) -> str | None:
    """A choice as the spec reads it, by name (``TournamentSpec.settings`` parses it)."""
    return None if choice is None else str(choice.value)


def _typed_modules(*agent_lists: str | None) -> set[str]:
    """The modules of ``module:Class`` agents typed on the command line."""
    return {name.partition(":")[0] for names in agent_lists for name in _split(names) or ()
            if ":" in name}


def _own_recorded_modules(out: Path) -> set[str]:
    """The modules ``out``'s tournament recorded loading from files this user's own
    tournaments loaded (so it resumes from any folder; an edited path is not one of them)."""
    from ..agents.registry import trusted_recorded_module
    from ..harness.results import recorded_plugins

    return {module for module, file in recorded_plugins(out).items()
            if trusted_recorded_module(module, file)}


def _refuse_unnamed_code(spec: TournamentSpec, source: Path, named: set[str]) -> None:
    """A spec file or a results folder can come from anyone, and a ``module:Class`` in it
    (``os:system``) runs when its agent is built: only modules the person named on this
    command line (``--plugin``, or a ``module:Class`` they typed), or their own earlier runs
    loaded from the file recorded, are imported."""
    unnamed = [module for module in spec.code_modules() if module not in named]
    if unnamed:
        plugins = " ".join(f"--plugin {quoted(m)}" for m in unnamed[:5])
        raise ConfigError(f"{source} names code to run: {quoted_some(unnamed)}; a tournament "
                          "file runs only the modules you name yourself: if you trust it and "
                          f"that code, add {plugins}")


def _check_backend(backend: str, *, address: str | None, workers: int | None,
                   batch_size: int) -> None:
    if address is not None and backend != "ray":
        raise ConfigError("--address is for --backend ray")
    # Checked for every backend (the serial one would ignore a nonsense --workers).
    check_whole("--workers", workers, 1, MAX_WORKERS)
    check_whole("--batch-size", batch_size, 1, MAX_BATCH)


def _show(summary: Summary, out: Path, *, quiet: bool) -> None:
    """The tournament's tables (or one line when quiet) and where its files are."""
    from ..harness.report import print_summary

    if quiet:
        counts = summary.games
        typer.echo(f"{counts.played} games played, {counts.failed} failed; summary in "
                   f"{out / 'summary.json'}")
    else:
        print_summary(summary, wide_console())
        typer.echo(f"results: {out / 'games.jsonl'}; summary: {out / 'summary.json'}")
