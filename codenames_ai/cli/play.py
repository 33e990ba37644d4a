"""``codenames play``: a person plays in the terminal (or through a pipe), game after game
(the session itself is ``play.terminal_session``; watching is ``watch_game``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..agents.registry import (
    DEFAULT_SPYMASTER,
    partner_guesser,
    strength_options,
)
from ..agents.spymasters import Strength
from ..core import (
    DEFAULT_LEVEL,
    ClueRulesName,
    EditionName,
    GameSettings,
    GuessLimit,
    Level,
    PlayRole,
)
from ..core.errors import ConfigError
from ..output import check_target
from ..pictures import PictureDeck
from .checks import check_seconds, check_seed
from .plugins import Plugins, load_plugins
from .setup import deck_for, deck_validator, picture_options
from .watch import Tags, watch_game

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
    settings = GameSettings(edition=edition_name, guess_limit=guess_limit_name, level=level,
                            clue_rules=clue_rules_name.value if clue_rules_name else None)
    if role is PlayRole.WATCH:
        ai_guesser = partner_guesser(guesser, person_clues=False)  # the AIs give every clue
        watch_game(settings, seed=seed if seed is not None else 7, deck=deck, record=save_to,
                   spymasters=(spymaster, spymaster), guessers=(ai_guesser, ai_guesser),
                   explain=explain, tags=tags)
        return
    if clue_check not in {"refuse", "table"}:
        raise ConfigError(f"--clue-check must be refuse or table, not {clue_check!r}")
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise ConfigError("standard input is closed, and codenames play reads your moves "
                          "from it; give it a terminal, a pipe or a file (< /dev/null only "
                          "shows the board and its key)")
    # The terminal game is imported only when played: the command line's start waits for
    # no module only some commands use.
    from ..play.terminal_session import SessionLeft, TerminalSession, colors, play_games

    rules = settings.to_rules()
    words, pictures = deck_for(rules, deck)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    agent_options = _agent_options(spymaster, guesser, model, strength, pictures)
    session = TerminalSession(role, settings, words, pictures, deck_validator(rules, pictures),
                              spymaster, guesser, *agent_options, clue_check == "refuse",
                              time_limit, interactive, colors(color, interactive=interactive),
                              explain, tags, save_to)
    try:
        play_games(session, seed)
    except SessionLeft:  # Ctrl-C at a prompt, after the game's ending
        typer.echo("interrupted", err=True)
        raise typer.Exit(code=130) from None


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
