"""``codenames play``: a person plays in the terminal (or through a pipe), game after game."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..agents.levels import DEFAULT_LEVEL, Level
from ..agents.registry import (
    DEFAULT_SPYMASTER,
    partner_guesser,
    strength_options,
)
from ..agents.spymasters import Strength
from ..core import (
    DEFAULT_MAX_TURNS,
    ClueRulesName,
    ClueValidator,
    EditionName,
    GameRecord,
    GuessLimit,
    PlayRole,
    RuleSet,
    Seats,
    Variant,
    play_game,
    secret_seed,
)
from ..core.errors import ConfigError
from ..output import check_target
from ..pictures import PictureDeck
from .checks import check_seconds, check_seed
from .plugins import Plugins, load_plugins
from .setup import build_rules, deck_for, deck_validator, picture_options
from .watch import Tags, watch

if TYPE_CHECKING:
    from ..play.terminal import Console


# The options, declared apart so that the command reads as its steps.
RoleOption = Annotated[PlayRole, typer.Option(
    "--role", help="guess: the AI spymaster gives you clues; spymaster: you give clues to "
                   "AI guessers; coop: two players together against a virtual team; "
                   "three-player: you guess for both teams; watch: AI against AI.")]
Seed = Annotated[int | None, typer.Option(
    help="Seed (default: a new one, printed when the game is over).")]
EditionOption = Annotated[EditionName, typer.Option("--edition")]
GuessLimitOption = Annotated[GuessLimit, typer.Option("--guess-limit")]
ClueRulesOption = Annotated[ClueRulesName | None, typer.Option("--clue-rules")]
ClueCheck = Annotated[str, typer.Option(help="refuse: illegal clues you type are refused with "
                                             "the reason; table: they stand and are "
                                             "penalised, as at a table.")]
Deck = Annotated[Path | None, typer.Option(
    help="A word list, an emoji deck (.tsv) or a folder of captioned images.")]
# The help a player reads is in plain words: agent ids and model names are listed by
# `codenames agents` and `codenames models`, and explained in the README.
SpymasterId = Annotated[str, typer.Option(
    help="Which AI gives the clues, by its id ('codenames agents' lists them; default: the "
         "strongest).", show_default=False)]
GuesserId = Annotated[str | None, typer.Option(help=(
    "Which AI guesses, by its id ('codenames agents' lists them; default: the one that "
    "suits who gives the clues, you with --role spymaster or the AI spymaster)."),
    show_default=False)]
Model = Annotated[str | None, typer.Option(
    help="The word knowledge of the AIs that take one ('codenames models list' lists them; your "
         "default partner brings its own).")]
StrengthOption = Annotated[Strength, typer.Option(
    "--strength", help="How much risk an AI spymaster takes, for the spymasters that have "
                       "this setting (the default one does not).")]
LevelOption = Annotated[Level, typer.Option(
    "--level", help="How well the other team plays: easy, normal or hard (your own team's "
                    "AIs are the same at every level).")]
TimeLimit = Annotated[float | None, typer.Option(
    help="Seconds per move for you; a late answer forfeits the move.")]
Explain = Annotated[bool, typer.Option(
    help="After the game, the AI's own account of each clue (scores, runners-up) and each "
         "touch (its scores) beside the plain-words reasons shown anyway.")]
Save = Annotated[Path | None, typer.Option("--save", help="Where to save the game.")]
Color = Annotated[bool | None, typer.Option(
    "--color/--no-color", help="Colours (default: on a terminal, unless NO_COLOR is set).")]


@dataclass(frozen=True)
class _Session:
    """What every game of one ``codenames play`` shares."""

    role: PlayRole
    rules: RuleSet
    words: tuple[str, ...]
    pictures: PictureDeck | None
    validator: ClueValidator | None
    spymaster: str
    guesser: str | None  # None: by who gives the clues (``partner_guesser``)
    spymaster_options: dict[str, object]
    guesser_options: dict[str, object]
    level: Level
    checked: bool
    time_limit: float | None
    interactive: bool
    colored: bool
    explain: bool
    tags: bool
    save_to: Path | None


def play(
    role: RoleOption = PlayRole.GUESS,
    seed: Seed = None,
    edition_name: EditionOption = EditionName.WORDS,
    guess_limit_name: GuessLimitOption = GuessLimit.CLASSIC,
    clue_rules_name: ClueRulesOption = None,
    clue_check: ClueCheck = "refuse",
    deck: Deck = None,
    spymaster: SpymasterId = DEFAULT_SPYMASTER,
    guesser: GuesserId = None,
    model: Model = None,
    strength: StrengthOption = Strength.NORMAL,
    level: LevelOption = DEFAULT_LEVEL,
    time_limit: TimeLimit = None,
    explain: Explain = False,
    save_to: Save = None,
    color: Color = None,
    tags: Tags = False,
    plugin: Plugins = None,
) -> None:
    """Play a game in the terminal (or through a pipe: one answer per line); afterwards,
    another with the same settings on a new board if you like."""
    check_seed("--seed", seed)
    check_seconds("--time-limit", time_limit)
    load_plugins(plugin)
    if save_to is not None:
        check_target(save_to, "--save", record=True)
    if role is PlayRole.WATCH:
        ai_guesser = partner_guesser(guesser, person_clues=False)  # the AIs give every clue
        watch(seed=seed if seed is not None else 7, edition_name=edition_name,
              variant_name=Variant.STANDARD, guess_limit_name=guess_limit_name,
              clue_rules_name=clue_rules_name, deck=deck, record=save_to,
              max_turns=DEFAULT_MAX_TURNS, rows=None, cols=None, first_agents=None,
              second_agents=None, double_agent=None, bystanders=None, assassins=None,
              red_spymaster=spymaster, red_guesser=ai_guesser, blue_spymaster=spymaster,
              blue_guesser=ai_guesser, explain=explain, tags=tags, plugin=None)
        return
    if clue_check not in {"refuse", "table"}:
        raise ConfigError(f"--clue-check must be refuse or table, not {clue_check!r}")
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise ConfigError("standard input is closed, and codenames play reads your moves "
                          "from it; give it a terminal, a pipe or a file (< /dev/null only "
                          "shows the board and its key)")
    rules = build_rules(edition_name.value, guess_limit_name=guess_limit_name.value,
                        clue_rules_name=clue_rules_name.value if clue_rules_name else None)
    words, pictures = deck_for(rules, deck)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    agent_options = _agent_options(spymaster, guesser, model, strength, pictures)
    session = _Session(role, rules, words, pictures, deck_validator(rules, pictures),
                       spymaster, guesser, *agent_options, level, clue_check == "refuse",
                       time_limit, interactive, _colors(color, interactive=interactive),
                       explain, tags, save_to)
    from ..render import fit

    game_seed, games = seed, 1
    while _play_one(session, game_seed, games):
        typer.echo(fit("A new board" + (f", dealt from a new seed, not --seed {seed}" if seed
                                         is not None else "") + ": its seed is shown when "
                       "the game is over.", _screen_width()))
        game_seed, games = None, games + 1


def _agent_options(spymaster: str, guesser: str | None, model: str | None, strength: Strength,
                   pictures: PictureDeck | None) -> tuple[dict[str, object], dict[str, object]]:
    """The options of the AI spymaster and the AI guessers the person's settings give (with
    no ``guesser`` chosen, those of either guesser the game may seat: each is built with the
    ones it takes)."""
    guesser_options: dict[str, object] = {"model": model} if model else {}
    spymaster_options = {**guesser_options, **picture_options(spymaster, pictures)}
    for agent_id in {partner_guesser(guesser, person_clues=clues) for clues in (False, True)}:
        guesser_options.update(picture_options(agent_id, pictures))
    spymaster_options.update(strength_options(spymaster, strength))
    return spymaster_options, guesser_options


def _play_one(session: _Session, seed: int | None, games: int) -> bool:
    """Game number ``games`` of the session, from ``seed`` (``None``: a new secret one),
    shown and saved; whether the person wants another."""
    import shutil

    from ..play.session import seats_for_role
    from ..play.terminal import Console
    from ..render import fit

    game_seed = secret_seed() if seed is None else seed
    console = Console(color=session.colored,
                      width=shutil.get_terminal_size((100, 24)).columns,
                      wrap=_screen_width() is not None,
                      stream=(sys.stdin if session.interactive and session.time_limit
                              is not None else None),
                      tags=session.tags, deck=session.pictures)
    with _first_run_progress():
        rules, seats, _ = seats_for_role(
            session.role.value, session.rules, console, spymaster_id=session.spymaster,
            guesser_id=session.guesser, spymaster_options=session.spymaster_options,
            guesser_options=session.guesser_options, checked=session.checked,
            time_limit=session.time_limit, validator=session.validator, level=session.level)
    # The seed deals the board and key (`codenames watch --seed N` shows the key), so it
    # is shown only once the game is over.
    if games == 1:
        against = (f" against the {session.level.value} level"
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


def _end_game(session: _Session, game: GameRecord, seats: Seats, console: Console,
              game_seed: int, games: int) -> None:
    """The game's last moves, its summary and key, its seed, and where it was saved."""
    from ..play.session import default_save_path, kept, key_board, last_moves, save, summary
    from ..render import fit

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


def _colors(color: bool | None, *, interactive: bool) -> bool:
    """``--color``/``--no-color`` if given; else colours on a terminal, unless the NO_COLOR
    environment variable is set and not empty (https://no-color.org)."""
    import os

    if color is not None:
        return color
    return interactive and not os.environ.get("NO_COLOR")


def _play_again(console: Console) -> bool:
    """Whether the person answers yes to playing again (the end of input is a no)."""
    from ..core.errors import GameInterrupted

    try:
        answer = console.ask("Play again? (same settings, a new board) [y/N] ")
    except GameInterrupted:
        return False
    return answer.lower() in {"y", "yes"}


def _leave() -> None:
    """Ctrl-C at a prompt: leave the command (exit code 130, as for any Ctrl-C)."""
    typer.echo("interrupted", err=True)
    raise typer.Exit(code=130)


def _nth(path: Path, number: int) -> Path:
    """Where the ``number``-th game of one ``codenames play --save PATH`` goes: beside the
    first, numbered (``game.jsonl``, ``game-2.jsonl``, ...)."""
    return path.with_name(f"{path.stem}-{number}{path.suffix}")
@contextlib.contextmanager
def _first_run_progress() -> Iterator[None]:
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

