"""A person's session of games in the terminal (or through a pipe): what every game of one
``codenames play`` shares, each game played, shown and saved, and playing again on a new board.
The command (``cli/play.py``) reads the options into a ``TerminalSession``; ``play_games``
plays."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import typer

from ..core import (
    ClueValidator,
    ConfigError,
    GameRecord,
    GameSettings,
    PlayRole,
    RuleSet,
    Seats,
    Variant,
    play_game,
    secret_seed,
)
from ..pictures import PictureDeck
from .terminal import Console


class SessionLeft(Exception):
    """The person pressed Ctrl-C at a prompt: the game's ending is shown, then the command
    leaves (exit code 130, as for any Ctrl-C)."""


@dataclass(frozen=True)
class TerminalSession:
    """What every game of one ``codenames play`` shares."""

    role: PlayRole
    settings: GameSettings
    words: tuple[str, ...]
    pictures: PictureDeck | None
    validator: ClueValidator | None
    spymaster: str
    guesser: str | None  # None: by who gives the clues (``partner_guesser``)
    spymaster_options: dict[str, object]
    guesser_options: dict[str, object]
    checked: bool
    time_limit: float | None
    interactive: bool
    colored: bool
    explain: bool
    tags: bool
    save_to: Path | None

    @property
    def rules(self) -> RuleSet:
        return self.settings.to_rules()


def play_games(session: TerminalSession, seed: int | None) -> None:
    """Game after game while the person wants another: the first from ``seed`` (``None``: a
    new secret one), each next one from a new secret seed. ``SessionLeft`` at a Ctrl-C."""
    from ..render import fit

    game_seed, games = seed, 1
    while _play_one(session, game_seed, games):
        typer.echo(fit("A new board" + (f", dealt from a new seed, not --seed {seed}" if seed
                                         is not None else "") + ": its seed is shown when "
                       "the game is over.", _screen_width()))
        game_seed, games = None, games + 1


def colors(color: bool | None, *, interactive: bool) -> bool:
    """``--color``/``--no-color`` if given; else colours on a terminal, unless the NO_COLOR
    environment variable is set and not empty (https://no-color.org)."""
    import os

    if color is not None:
        return color
    return interactive and not os.environ.get("NO_COLOR")


def _play_one(session: TerminalSession, seed: int | None, games: int) -> bool:
    """Game number ``games`` of the session, from ``seed`` (``None``: a new secret one),
    shown and saved; whether the person wants another."""
    import shutil

    from ..render import fit
    from .session import seats_for_role

    game_seed = secret_seed() if seed is None else seed
    console = Console(color=session.colored,
                      width=shutil.get_terminal_size((100, 24)).columns,
                      wrap=_screen_width() is not None,
                      stream=(sys.stdin if session.interactive and session.time_limit
                              is not None else None),
                      tags=session.tags, deck=session.pictures)
    with first_run_progress():
        rules, seats, _ = seats_for_role(
            session.role.value, session.rules, console, spymaster_id=session.spymaster,
            guesser_id=session.guesser, spymaster_options=session.spymaster_options,
            guesser_options=session.guesser_options, checked=session.checked,
            time_limit=session.time_limit, validator=session.validator,
            level=session.settings.level)
    # The seed deals the board and key (`codenames watch --seed N` shows the key), so it
    # is shown only once the game is over.
    if games == 1:
        against = (f" against the {session.settings.level.value} level"
                   if rules.variant is Variant.STANDARD else "")
        typer.echo(fit(f"Codenames, {rules.edition} edition, you play: {session.role.value}"
                       f"{against} (type 'help' at any prompt)", console.line_width))
    game = play_game(rules, seats, seed=game_seed, deck=session.words,
                     validator=session.validator)
    if console.lost is not None:  # the output failed in the game: nothing can be shown
        raise console.lost
    _end_game(session, game, seats, console, game_seed, games)
    again = _play_again(console)
    if console.lost is not None:
        raise console.lost
    if console.interrupted:
        _leave()
    return again


def _end_game(session: TerminalSession, game: GameRecord, seats: Seats, console: Console,
              game_seed: int, games: int) -> None:
    """The game's last moves, its summary and key, its seed, and where it was saved."""
    from ..render import fit
    from .session import default_save_path, kept, key_board, last_moves, save, summary

    width = console.line_width
    for line in [*last_moves(game, seats, console),
                 *summary(game, seats, explain=session.explain),
                 *key_board(game, console, session.validator)]:
        typer.echo(fit(line, width))
    _echo_command(f"Seed {game_seed}: codenames play --seed {game_seed} deals this board "
                  "again.", f"Seed {game_seed}. To deal this board again:",
                  f"codenames play --seed {game_seed}", width)
    if kept(game, seats, console):
        save_to = session.save_to
        target = (default_save_path(game_seed, session.role.value) if save_to is None
                  else save_to if games == 1 else _nth(save_to, games))
        path = save(game, target)
        where = path if width is None else _home_short(path)
        _echo_command(f"Saved: {where}  (codenames replay {_shell_path(where)})",
                      "Saved. Replay it with:", f"codenames replay {_shell_path(where)}",
                      width)
    elif console.keep is None:
        typer.echo("Not saved: you made no move in this game.")
    if console.refused is not None:  # input that is no answer: the game ended at it
        raise ConfigError(console.refused)
    if console.interrupted:  # Ctrl-C at a prompt leaves, after the game's ending
        _leave()


def _screen_width() -> int | None:
    """The columns of the terminal standard output shows on (``None``: a pipe or a file,
    whose lines are never wrapped)."""
    import shutil

    return shutil.get_terminal_size((100, 24)).columns if sys.stdout.isatty() else None


def _echo_command(line: str, lead: str, command: str, width: int | None) -> None:
    """``line``, which quotes ``command``; on a screen too narrow for it, ``lead`` and then
    the command alone on its next line, whole, so that it can be copied (a command still
    too wide goes on two lines joined by the shell's backslash)."""
    from ..render import fit, visible_width

    if width is None or visible_width(line) <= width:
        typer.echo(line)
        return
    typer.echo(fit(lead, width))
    if len(command) + 2 <= width or " " not in command:
        typer.echo(f"  {command}")
        return
    head, _, last = command.rpartition(" ")
    typer.echo(f"  {head} \\\n    {last}")


def _home_short(path: Path) -> Path:
    """``path`` under the home folder as ``~/...``, as a shell reads it back (a screen line
    holds it more often)."""
    try:
        return Path("~") / path.absolute().relative_to(Path.home())
    except (ValueError, RuntimeError):  # not under the home folder, or no home folder
        return path


def _shell_path(path: Path) -> str:
    """``path`` as a shell command takes it: quoted if it must be, with ``~/`` left out of
    the quotes so that the shell still expands it."""
    import shlex

    text = str(path)
    if text.startswith("~/"):
        return "~/" + shlex.quote(text[2:])
    return shlex.quote(text)


def _play_again(console: Console) -> bool:
    """Whether the person answers yes to playing again (the end of input is a no)."""
    from ..core.errors import GameInterrupted

    try:
        answer = console.ask("Play again? (same settings, a new board) [y/N] ")
    except GameInterrupted:
        return False
    return answer.lower() in {"y", "yes"}


def _leave() -> None:
    """Ctrl-C at a prompt: the command leaves."""
    raise SessionLeft


def _nth(path: Path, number: int) -> Path:
    """Where the ``number``-th game of one ``codenames play --save PATH`` goes: beside the
    first, numbered (``game.jsonl``, ``game-2.jsonl``, ...)."""
    return path.with_name(f"{path.stem}-{number}{path.suffix}")


@contextlib.contextmanager
def first_run_progress() -> Iterator[None]:
    """While the AIs are built: when the cache lacks the default AIs' models (a first run),
    say so on standard error and show each model's conversion, then the clue words' analysis.
    On a warm cache, nothing. (Another built-in model, such as eat-associations, is converted
    when an agent first asks for it.)"""
    from ..agents.panel import PEOPLE_MINDS
    from ..vectors import ModelStore, load_model, unconverted

    cold = unconverted(PEOPLE_MINDS)
    if not cold:
        yield
        return
    if any(ModelStore().stale(name) for name in cold):
        typer.echo("Preparing the AI: converting the word models again (the cache holds an "
                   "older version's files, which this one does not read; once, about 20 s)...",
                   err=True)
    else:
        typer.echo("Preparing the AI: converting the word models (first run only, about "
                   "20 s)...", err=True)
    for number, name in enumerate(cold, 1):
        typer.echo(f"  model {number}/{len(cold)} {name} ... ", err=True, nl=False)
        load_model(name)
        typer.echo("done", err=True)
    typer.echo("  choosing the clue words ... ", err=True, nl=False)
    try:
        yield
    except BaseException:
        typer.echo("", err=True)  # the error goes on its own line
        raise
    typer.echo("done", err=True)

