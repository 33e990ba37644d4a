"""Typer commands. Thin: every rule lives in ``codenames_ai.core``."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..agents.levels import DEFAULT_LEVEL, Level
from ..agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER, takes_option
from ..core import (
    DEFAULT_MAX_TURNS,
    ClueValidator,
    CodenamesError,
    GameRecord,
    Layout,
    RuleSet,
    Seats,
    Variant,
    custom,
    edition,
    guess_limit,
    normalize_word,
    play_game,
    secret_seed,
    variant,
)
from ..core.errors import ConfigError
from ..decks import default_deck, read_deck
from ..output import check_target, write_file
from ..pictures import PictureDeck, load_deck
from . import agents as agents_cli
from . import registry as registry_cli
from . import tournament as tournament_cli
from .agents import EditionName
from .checks import check_seconds, check_seed, check_whole
from .models import app as models_app

if TYPE_CHECKING:
    from ..play.terminal import Console

MAX_TURNS = 10_000  # a game has at most a few dozen turns; more is a typo
# The most `codenames replay` reads: a record of MAX_TURNS turns is a few MB.
MAX_RECORD_BYTES = 64 << 20

app = typer.Typer(
    name="codenames",
    help="AI spymasters and guessers for Codenames: watch bots play, replay records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class VariantName(StrEnum):
    standard = "standard"
    coop = "coop"
    three_player = "three-player"


class GuessLimitName(StrEnum):
    classic = "classic"
    strict = "strict"


class RulesName(StrEnum):
    classic = "classic"
    strict = "strict"
    flexible = "flexible"
    pictures = "pictures"


app.add_typer(models_app, name="models")
app.command("clue")(agents_cli.clue)
app.command("guess")(agents_cli.guess)
app.command("agents")(registry_cli.agents)
app.command("tournament")(tournament_cli.tournament)
app.command("report")(tournament_cli.report)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (default: this machine "
                                           "only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[Path | None, typer.Option(
        help="SQLite file for the games (default: in the user data folder).")] = None,
    agents: Annotated[str, typer.Option(
        help="The AIs clients may choose: all (every agent this install can build), default "
             "(the default AIs and the levels' AIs only, the smallest memory), or registry "
             "ids separated by commas, offered beside those.")] = "all",
) -> None:
    """Play in the browser: a local web app with the AI spymaster and AI team-mates."""
    import errno
    import socket

    import platformdirs

    from ..web import serving
    from ..web.app import create_app
    from ..web.games import Offer
    from ..web.store import StoreError, StoreInUse

    # The agents, the port and the database are checked before anything says the server
    # started, the database last so that a refused start creates no database file.
    offer = Offer.parse(agents)
    if not 0 <= port <= 65535:
        raise ConfigError(f"port {port} is not a port number (0 to 65535); choose one with "
                          "--port")
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is already in use (another server?); "
                              "stop it or choose another port with --port") from None
        raise ConfigError(f"cannot listen on {host} port {port} ({exc.strerror or exc}); "
                          "choose another address with --host or port with --port") from None
    database = db or Path(platformdirs.user_data_dir("codenames-ai")) / "web-games.sqlite3"
    try:
        application = create_app(database, offer=offer)
    except StoreInUse as exc:
        listener.close()
        raise ConfigError(str(exc)) from None
    except StoreError as exc:
        listener.close()
        raise ConfigError(f"{exc}; give --db a games file made by codenames serve, or a new "
                          "file name in a folder you can write") from None
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"codenames-ai web app on http://{shown}:{port}/  (games kept in {database}; "
               "Ctrl-C stops it)")

    serving.run(application, listener, say=lambda text: typer.echo(text, err=True))


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


def build_rules(
    edition_name: str,
    *,
    variant_name: str = "standard",
    guess_limit_name: str = "classic",
    layout_overrides: dict[str, int | bool | None] | None = None,
    clue_rules_name: str | None = None,
) -> RuleSet:
    """The rule set the command-line options describe (custom counts only for ``custom``)."""
    overrides = {k: v for k, v in (layout_overrides or {}).items() if v is not None}
    if edition_name == "custom":
        base = edition("words").layout
        fields = {**base.__dict__, **overrides}
        rules = custom(Layout(**fields))
    else:
        if overrides:
            raise ConfigError(
                f"layout options ({', '.join('--' + k.replace('_', '-') for k in overrides)}) "
                "need --edition custom"
            )
        rules = edition(edition_name)
    rules = rules.with_options(variant=variant(variant_name),
                               guess_limit=guess_limit(guess_limit_name))
    if clue_rules_name is not None:
        rules = rules.with_options(clue_rules=clue_rules_name)
    return rules


@app.command()
def watch(
    seed: Annotated[int, typer.Option(help="Seed for the board, key and every agent.")] = 7,
    edition_name: Annotated[EditionName, typer.Option(
        "--edition", help="Words (5x5), Pictures (5x4) or a custom layout.")] = EditionName.words,
    variant_name: Annotated[VariantName, typer.Option(
        "--variant", help="Standard 4+ players, 2-player co-op, or 3-player.")]
    = VariantName.standard,
    guess_limit_name: Annotated[GuessLimitName, typer.Option(
        "--guess-limit", help="classic: number+1; strict: +1 only with leftover cards.")]
    = GuessLimitName.classic,
    clue_rules_name: Annotated[RulesName | None, typer.Option(
        "--clue-rules", help="Clue rules; default: classic (Words), pictures (Pictures).")]
    = None,
    deck: Annotated[Path | None, typer.Option(
        help="A word list (one card per line), an emoji deck (.tsv) or a folder of images "
             "with captions.csv/json, instead of the shipped deck.")] = None,
    record: Annotated[Path | None, typer.Option(
        help="Write the game record (JSON Lines) to this file.")] = None,
    max_turns: Annotated[int, typer.Option(help="Stop a game that runs longer than this.")]
    = DEFAULT_MAX_TURNS,
    red_spymaster: Annotated[str, typer.Option(help="Agent id or module:Class.")]
    = DEFAULT_SPYMASTER,
    red_guesser: Annotated[str, typer.Option(help="Agent id or module:Class (co-op and "
                                                  "three-player: the only guesser).")]
    = DEFAULT_GUESSER,
    blue_spymaster: Annotated[str, typer.Option(help="Agent id or module:Class.")]
    = DEFAULT_SPYMASTER,
    blue_guesser: Annotated[str, typer.Option(help="Agent id or module:Class.")]
    = DEFAULT_GUESSER,
    explain: Annotated[bool, typer.Option(help="Show why each clue was chosen.")] = False,
    rows: Annotated[int | None, typer.Option(help="Custom layout: rows.")] = None,
    cols: Annotated[int | None, typer.Option(help="Custom layout: columns.")] = None,
    first_agents: Annotated[int | None, typer.Option(
        help="Custom layout: starting team's agents, without the double agent.")] = None,
    second_agents: Annotated[int | None, typer.Option(
        help="Custom layout: the other team's agents.")] = None,
    double_agent: Annotated[bool | None, typer.Option(
        "--double-agent/--no-double-agent", help="Custom layout: a double agent or not.")]
    = None,
    bystanders: Annotated[int | None, typer.Option(help="Custom layout: bystanders.")] = None,
    assassins: Annotated[int | None, typer.Option(help="Custom layout: assassins.")] = None,
    tags: Annotated[bool, typer.Option(
        "--tags", help="Pictures: list each picture's caption tags under the board.")]
    = False,
) -> None:
    """Watch AI agents play one game, printed turn by turn (default: the panel spymaster and
    guesser on both teams; the README's agent table lists the other ids)."""
    from ..render import render_game

    check_seed("--seed", seed)
    check_whole("--max-turns", max_turns, 1, MAX_TURNS)
    rules = build_rules(
        edition_name.value, variant_name=variant_name.value,
        guess_limit_name=guess_limit_name.value,
        layout_overrides=dict(rows=rows, cols=cols, first_team_agents=first_agents,
                              second_team_agents=second_agents, double_agent=double_agent,
                              bystanders=bystanders, assassins=assassins),
        clue_rules_name=clue_rules_name.value if clue_rules_name else None,
    )
    words, pictures = _deck(rules, deck)
    validator = _validator(rules, pictures)
    if record is not None:
        check_target(record, "--record", record=True)
    seats = _seats(rules, (red_spymaster, blue_spymaster), (red_guesser, blue_guesser),
                   pictures)
    game = play_game(rules, seats, seed=seed, deck=words, max_turns=max_turns,
                     validator=validator)
    explanations = _explanations(seats, game) if explain else {}
    for block in render_game(game, tags=tags, validator=validator, deck=pictures):
        typer.echo(block)
        if block.startswith("Turn ") and " spymaster: " in block and block in explanations:
            typer.echo("  why: " + explanations[block])
    if record is not None:
        write_file(record, game.to_jsonl(), "--record", record=True)
        typer.echo(f"Record written to {record}")


class Role(StrEnum):
    guess = "guess"
    spymaster = "spymaster"
    coop = "coop"
    three_player = "three-player"
    watch = "watch"


class Strength(StrEnum):
    cautious = "cautious"
    normal = "normal"
    bold = "bold"


@app.command()
def play(
    role: Annotated[Role, typer.Option(help="guess: the AI spymaster clues for you; spymaster: "
                                            "you clue for AI guessers; coop: 2-player variant; "
                                            "three-player: you guess for both teams; watch.")]
    = Role.guess,
    seed: Annotated[int | None, typer.Option(
        help="Seed (default: a new one, printed when the game is over).")]
    = None,
    edition_name: Annotated[EditionName, typer.Option("--edition")] = EditionName.words,
    guess_limit_name: Annotated[GuessLimitName, typer.Option("--guess-limit")]
    = GuessLimitName.classic,
    clue_rules_name: Annotated[RulesName | None, typer.Option("--clue-rules")] = None,
    clue_check: Annotated[str, typer.Option(help="refuse: illegal clues you type are refused "
                                                 "with the reason; table: they stand and are "
                                                 "penalised, as at a table.")] = "refuse",
    deck: Annotated[Path | None, typer.Option(
        help="A word list, an emoji deck (.tsv) or a folder of captioned images.")]
    = None,
    spymaster: Annotated[str, typer.Option(help="AI spymaster id.")] = DEFAULT_SPYMASTER,
    guesser: Annotated[str, typer.Option(help="AI guesser id.")] = DEFAULT_GUESSER,
    model: Annotated[str | None, typer.Option(help="Word-vector model for the AIs.")] = None,
    strength: Annotated[Strength, typer.Option(
        help="Risk of an AI spymaster that takes one (glove-ev-spymaster-v1, ...; the "
             "default panel spymaster has none).")] = Strength.normal,
    level: Annotated[Level, typer.Option(
        help="How hard the other team plays: easy, normal or hard (your own AIs are the "
             "same at every level).")] = DEFAULT_LEVEL,
    time_limit: Annotated[float | None, typer.Option(
        help="Seconds per move for you; a late answer forfeits the move.")] = None,
    explain: Annotated[bool, typer.Option(
        help="After the game, the AI's own account of each clue (scores, runners-up) beside "
             "the plain-words reasons shown anyway.")] = False,
    save_to: Annotated[Path | None, typer.Option("--save", help="Where to save the game.")]
    = None,
    color: Annotated[bool | None, typer.Option(
        "--color/--no-color", help="Colours (default: on a terminal, unless NO_COLOR is "
                                   "set).")]
    = None,
    tags: Annotated[bool, typer.Option(
        "--tags", help="Pictures: list each picture's caption tags under the board.")]
    = False,
) -> None:
    """Play a game in the terminal (or through a pipe: one answer per line); afterwards,
    another with the same settings on a new board if you like."""
    import shutil

    from ..play.session import (
        default_save_path,
        kept,
        key_board,
        last_moves,
        save,
        seats_for_role,
        summary,
    )
    from ..play.terminal import Console

    check_seed("--seed", seed)
    check_seconds("--time-limit", time_limit)
    if save_to is not None:
        check_target(save_to, "--save", record=True)
    if role is Role.watch:
        watch(seed=seed if seed is not None else 7, edition_name=edition_name,
              variant_name=VariantName.standard, guess_limit_name=guess_limit_name,
              clue_rules_name=clue_rules_name, deck=deck, record=save_to,
              max_turns=DEFAULT_MAX_TURNS, rows=None, cols=None, first_agents=None,
              second_agents=None, double_agent=None, bystanders=None, assassins=None,
              red_spymaster=spymaster, red_guesser=guesser, blue_spymaster=spymaster,
              blue_guesser=guesser, explain=explain, tags=tags)
        return
    if clue_check not in {"refuse", "table"}:
        raise ConfigError(f"--clue-check must be refuse or table, not {clue_check!r}")
    if sys.stdin is None:  # started with standard input closed (`<&-`)
        raise ConfigError("standard input is closed, and codenames play reads your moves "
                          "from it; give it a terminal, a pipe or a file (< /dev/null only "
                          "shows the board and its key)")
    base_rules = build_rules(edition_name.value, guess_limit_name=guess_limit_name.value,
                             clue_rules_name=clue_rules_name.value if clue_rules_name else None)
    words, pictures = _deck(base_rules, deck)
    validator = _validator(base_rules, pictures)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    colored = _colors(color, interactive=interactive)
    guesser_options: dict[str, object] = {"model": model} if model else {}
    spymaster_options = {**guesser_options, **_picture_options(spymaster, pictures)}
    guesser_options.update(_picture_options(guesser, pictures))
    if takes_option(spymaster, "risk"):
        spymaster_options["risk"] = strength.value
    game_seed = seed
    games = 0
    while True:
        games += 1
        if game_seed is None:
            game_seed = secret_seed()
        console = Console(color=colored, width=shutil.get_terminal_size((100, 24)).columns,
                          stream=sys.stdin if interactive and time_limit is not None else None,
                          tags=tags, deck=pictures)
        with _first_run_progress():
            rules, seats, _ = seats_for_role(
                role.value, base_rules, console, spymaster_id=spymaster, guesser_id=guesser,
                spymaster_options=spymaster_options, guesser_options=guesser_options,
                checked=clue_check == "refuse", time_limit=time_limit, validator=validator,
                level=level)
        # The seed deals the board and key (`codenames watch --seed N` shows the key), so it
        # is shown only once the game is over.
        if games == 1:
            against = (f" against the {level.value} level" if rules.variant is Variant.STANDARD
                       else "")
            typer.echo(f"Codenames, {rules.edition} edition, you play: {role.value}{against} "
                       "(type 'help' at any prompt)")
        game = play_game(rules, seats, seed=game_seed, deck=words, validator=validator)
        if console.lost is not None:  # the output failed in the game: nothing can be shown
            raise console.lost
        for line in [*last_moves(game, seats, console), *summary(game, seats, explain=explain),
                     *key_board(game, console, validator)]:
            typer.echo(line)
        typer.echo(f"Seed {game_seed}: codenames play --seed {game_seed} deals this board "
                   "again.")
        if kept(game, seats, console):
            target = (default_save_path(game_seed, role.value) if save_to is None
                      else save_to if games == 1 else _nth(save_to, games))
            path = save(game, target)
            typer.echo(f"Saved: {path}  (codenames replay {path})")
        elif console.keep is None:
            typer.echo("Not saved: you made no move in this game.")
        if console.refused is not None:  # input that is no answer: the game ended at it
            raise ConfigError(console.refused)
        if console.interrupted:  # Ctrl-C at a prompt leaves, after the game's ending
            _leave()
        again = _play_again(console)
        if console.lost is not None:
            raise console.lost
        if console.interrupted:
            _leave()
        if not again:
            return
        typer.echo("A new board" + (f", dealt from a new seed, not --seed {seed}" if seed
                                     is not None else "") + ": its seed is shown when the "
                   "game is over.")
        game_seed = None


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
    from ..vectors import load_model, unconverted

    cold = unconverted(PEOPLE_MINDS)
    if not cold:
        yield
        return
    typer.echo("Preparing the AI: converting the word models (first run only, about 20 s)...",
               err=True)
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


@app.command()
def replay(
    path: Annotated[Path, typer.Argument(help="A game record written with --record.")],
    hide_key: Annotated[bool, typer.Option(help="Show the board as operatives see it.")]
    = False,
    tags: Annotated[bool, typer.Option(
        "--tags", help="Pictures: list each picture's caption tags under the board.")]
    = False,
) -> None:
    """Check a game record against the rules and show it turn by turn."""
    from ..files import read_bounded
    from ..render import render_game

    try:
        text = read_bounded(path, MAX_RECORD_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the record ({exc})") from None
    game = GameRecord.from_jsonl(text, source=str(path))
    # Rendered in full first: a record the rules refuse halfway prints nothing but the error.
    blocks = list(render_game(game, show_key=not hide_key, tags=tags, source=str(path)))
    for block in blocks:
        typer.echo(block)


@app.command()
def check(
    clue: Annotated[str, typer.Argument(help="The clue word to check.")],
    board: Annotated[str, typer.Option(
        help="The board's cards, comma-separated (cards may hold spaces: 'ice cream').")],
    revealed: Annotated[str, typer.Option(
        help="Cards already covered, comma-separated: their words are legal again.")] = "",
    rules: Annotated[RulesName, typer.Option(help="The clue rule set.")] = RulesName.classic,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")]
    = False,
) -> None:
    """Is CLUE a legal clue on this board? Exit 0 and 'legal', or exit 1 and every broken
    rule with the reason."""
    from ..core.board import check_word_cards
    from ..legality.check import check_clue_word

    covered = {normalize_word(w)
               for w in agents_cli.split_cards(revealed, "--revealed", required=False)}
    cards = agents_cli.split_cards(board)
    check_word_cards(cards, 1, source="--board")  # the rule of a deck's cards
    visible = [w for w in cards if normalize_word(w) not in covered]
    violations = check_clue_word(clue, visible, rules.value)
    if as_json:
        typer.echo(json.dumps({
            "clue": clue, "rules": rules.value, "legal": not violations,
            "violations": [{"rule": v.rule, "message": v.message} for v in violations],
        }, ensure_ascii=False))
    elif violations:
        for violation in violations:
            typer.echo(f"illegal [{violation.rule}]: {violation.message}")
    else:
        typer.echo("legal")
    if violations:
        raise typer.Exit(code=1)


def _seats(rules: RuleSet, spymasters: tuple[str, str], guessers: tuple[str, str],
           pictures: PictureDeck | None = None) -> Seats:
    """Seats for the variant from agent ids (red, blue); each seat gets its own agent (and
    the captions of a user's picture deck, when it reads pictures)."""
    from ..agents.registry import make_agent
    from ..core.cards import Role as SeatRole
    from ..core.cards import Team
    from ..core.protocols import Guesser, Spymaster

    def spymaster(team: Team) -> Spymaster:
        name = spymasters[0 if team is Team.RED else 1]
        agent: Spymaster = make_agent(name, role=SeatRole.SPYMASTER,
                                      seat=f"--{team.value}-spymaster",
                                      **_picture_options(name, pictures))
        return agent

    def guesser(team: Team) -> Guesser:
        name = guessers[0 if team is Team.RED else 1]
        agent: Guesser = make_agent(name, role=SeatRole.GUESSER,
                                    seat=f"--{team.value}-guesser",
                                    **_picture_options(name, pictures))
        return agent

    seats = Seats.for_variant(rules.variant, spymaster=spymaster, guesser=guesser)
    _refuse_unused_seats(rules, blue_spymaster=spymasters[1], blue_guesser=guessers[1])
    return seats


def _refuse_unused_seats(rules: RuleSet, *, blue_spymaster: str, blue_guesser: str) -> None:
    """An agent given for a seat the variant does not have would be silently ignored."""
    unused = {"coop": {"--blue-spymaster": blue_spymaster != DEFAULT_SPYMASTER,
                       "--blue-guesser": blue_guesser != DEFAULT_GUESSER},
              "three-player": {"--blue-guesser": blue_guesser != DEFAULT_GUESSER}}
    given = [option for option, changed in unused.get(rules.variant.value, {}).items()
             if changed]
    if given:
        raise ConfigError(f"{' and '.join(given)}: {rules.variant.value} play has no such "
                          "seat (--red-guesser is the only guesser"
                          + (", --red-spymaster the only spymaster" if rules.variant.value
                             == "coop" else "") + "); leave it out")


def _explanations(seats: Seats, game: GameRecord) -> dict[str, str]:
    """Each clue line as the game shows it, mapped to its spymaster's explanation."""
    from ..play.session import paired_explanations
    from ..render import describe_event

    return {describe_event(event): explanation.describe()
            for event, explanation in paired_explanations(game, seats) if explanation}


def _deck(rules: RuleSet, deck: Path | None) -> tuple[tuple[str, ...], PictureDeck | None]:
    """The cards to deal from (the user's deck if given, else the shipped one; enough for
    the grid), and the user's picture deck, whose captions the agents, the clue rules and
    the board must be given (``None`` for words and the shipped pictures)."""
    needed = rules.layout.cells
    if deck is None:
        return default_deck(rules.edition, needed=needed), None
    if deck.is_dir() or deck.suffix.lower() == ".tsv":
        pictures = load_deck(deck, needed=needed)
        return pictures.names, pictures
    return read_deck(deck, needed=needed), None


def _picture_options(agent: str, deck: PictureDeck | None) -> dict[str, object]:
    """``pictures=`` for an agent that reads pictures, when a user's picture deck is in play."""
    return {"pictures": deck.captions} if deck and takes_option(agent, "pictures") else {}


def _validator(rules: RuleSet, deck: PictureDeck | None) -> ClueValidator | None:
    """The clue rules for a user's picture deck (its tags); ``None``: the rule set's own."""
    if deck is None:
        return None
    from ..legality.validator import validator_for

    return validator_for(rules.clue_rules, deck.captions)


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
