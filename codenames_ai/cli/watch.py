"""``codenames watch``: AI agents play one game, printed turn by turn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..agents.registry import DEFAULT_GUESSER, DEFAULT_SPYMASTER
from ..core import (
    DEFAULT_MAX_TURNS,
    ClueRulesName,
    ClueValidator,
    EditionName,
    GameRecord,
    GameSettings,
    GuessLimit,
    LayoutOverrides,
    RuleSet,
    Seats,
    Variant,
    play_game,
)
from ..core.errors import ConfigError
from ..core.record import MAX_RECORD_TURNS
from ..output import check_target, write_file
from ..pictures import PictureDeck
from .checks import check_seed, check_whole
from .plugins import Plugins, load_plugins
from .setup import deck_for, deck_validator, picture_options

# A game has at most a few dozen turns; more is a typo. No more than replay reads back.
MAX_TURNS = MAX_RECORD_TURNS

# The options, declared apart so that the command reads as its steps.
Seed = Annotated[int, typer.Option(help="Seed for the board, key and every agent.")]
EditionOption = Annotated[EditionName, typer.Option(
    "--edition", help="Words (5x5), Pictures (5x4) or a custom layout.")]
VariantOption = Annotated[Variant, typer.Option(
    "--variant", help="Standard 4+ players, 2-player co-op, or 3-player.")]
GuessLimitOption = Annotated[GuessLimit, typer.Option(
    "--guess-limit", help="classic: number+1; strict: +1 only with leftover cards.")]
ClueRulesOption = Annotated[ClueRulesName | None, typer.Option(
    "--clue-rules", help="Clue rules; default: classic (Words), pictures (Pictures).")]
Deck = Annotated[Path | None, typer.Option(
    help="A word list (one card per line), an emoji deck (.tsv) or a folder of images "
         "with captions.csv/json, instead of the shipped deck.")]
Record = Annotated[Path | None, typer.Option(
    help="Write the game record (JSON Lines) to this file.")]
MaxTurns = Annotated[int, typer.Option(help="Stop a game that runs longer than this.")]
Agent = Annotated[str, typer.Option(help="Agent id or module:Class.")]
RedGuesser = Annotated[str, typer.Option(help="Agent id or module:Class (co-op and "
                                              "three-player: the only guesser).")]
Explain = Annotated[bool, typer.Option(help="Show why each clue was chosen and each card "
                                             "touched.")]
Rows = Annotated[int | None, typer.Option(help="Custom layout: rows.")]
Cols = Annotated[int | None, typer.Option(help="Custom layout: columns.")]
FirstAgents = Annotated[int | None, typer.Option(
    help="Custom layout: starting team's agents, without the double agent.")]
SecondAgents = Annotated[int | None, typer.Option(
    help="Custom layout: the other team's agents.")]
DoubleAgent = Annotated[bool | None, typer.Option(
    "--double-agent/--no-double-agent", help="Custom layout: a double agent or not.")]
Bystanders = Annotated[int | None, typer.Option(help="Custom layout: bystanders.")]
Assassins = Annotated[int | None, typer.Option(help="Custom layout: assassins.")]
Tags = Annotated[bool, typer.Option(
    "--tags", help="Pictures: list each picture's caption tags under the board.")]


def watch(
    seed: Seed = 7,
    edition_name: EditionOption = EditionName.WORDS,
    variant_name: VariantOption = Variant.STANDARD,
    guess_limit_name: GuessLimitOption = GuessLimit.CLASSIC,
    clue_rules_name: ClueRulesOption = None,
    deck: Deck = None,
    record: Record = None,
    max_turns: MaxTurns = DEFAULT_MAX_TURNS,
    red_spymaster: Agent = DEFAULT_SPYMASTER,
    red_guesser: RedGuesser = DEFAULT_GUESSER,
    blue_spymaster: Agent = DEFAULT_SPYMASTER,
    blue_guesser: Agent = DEFAULT_GUESSER,
    explain: Explain = False,
    rows: Rows = None,
    cols: Cols = None,
    first_agents: FirstAgents = None,
    second_agents: SecondAgents = None,
    double_agent: DoubleAgent = None,
    bystanders: Bystanders = None,
    assassins: Assassins = None,
    tags: Tags = False,
    plugin: Plugins = None,
) -> None:
    """Watch AI agents play one game, printed turn by turn (default: the panel spymaster and
    guesser on both teams; the README's agent table lists the other ids)."""
    check_seed("--seed", seed)
    check_whole("--max-turns", max_turns, 1, MAX_TURNS)
    load_plugins(plugin)
    layout = LayoutOverrides(rows=rows, cols=cols, first_team_agents=first_agents,
                             second_team_agents=second_agents, double_agent=double_agent,
                             bystanders=bystanders, assassins=assassins)
    given = layout.given()
    if given and edition_name is not EditionName.CUSTOM:
        flags = ", ".join("--" + _LAYOUT_FLAGS[name] for name in given)
        raise ConfigError(f"{flags} need --edition custom")
    settings = GameSettings(edition=edition_name, variant=variant_name, layout=layout,
                            clue_rules=clue_rules_name.value if clue_rules_name else None,
                            guess_limit=guess_limit_name)
    watch_game(settings, seed=seed, deck=deck, record=record, max_turns=max_turns,
               spymasters=(red_spymaster, blue_spymaster),
               guessers=(red_guesser, blue_guesser), explain=explain, tags=tags)


# The command's flag for each of a custom layout's counts (``LayoutOverrides``' fields).
_LAYOUT_FLAGS = {"rows": "rows", "cols": "cols", "first_team_agents": "first-agents",
                 "second_team_agents": "second-agents", "double_agent": "double-agent",
                 "bystanders": "bystanders", "assassins": "assassins"}


def watch_game(settings: GameSettings, *, seed: int, spymasters: tuple[str, str],
               guessers: tuple[str, str], deck: Path | None = None, record: Path | None = None,
               max_turns: int = DEFAULT_MAX_TURNS, explain: bool = False, tags: bool = False
               ) -> None:
    """AI agents (red, blue) play one game with ``settings``, printed turn by turn
    (``codenames watch``, and ``codenames play --role watch``); the record written to
    ``record`` if given."""
    rules = settings.to_rules()
    words, pictures = deck_for(rules, deck)
    validator = deck_validator(rules, pictures)
    if record is not None:
        check_target(record, "--record", record=True)
    seats = make_seats(rules, spymasters, guessers, pictures)
    game = play_game(rules, seats, seed=seed, deck=words, max_turns=max_turns,
                     validator=validator)
    _show(game, seats, explain=explain, tags=tags, pictures=pictures, validator=validator)
    if record is not None:
        write_file(record, game.to_jsonl(), "--record", record=True)
        typer.echo(f"Record written to {record}")


def _show(game: GameRecord, seats: Seats, *, explain: bool, tags: bool,
          pictures: PictureDeck | None, validator: ClueValidator | None) -> None:
    """The game turn by turn, each clue followed by its spymaster's reasons and each touch
    by its guesser's, if asked."""
    from ..render import render_game

    explanations = _explanations(seats, game) if explain else {}
    touches = _touch_reasons(seats, game) if explain else {}
    for block in render_game(game, tags=tags, validator=validator, deck=pictures):
        typer.echo(block)
        if block.startswith("Turn ") and " spymaster: " in block and block in explanations:
            typer.echo("  why: " + explanations[block])
        elif block in touches:
            typer.echo("    why: " + touches[block])


def make_seats(rules: RuleSet, spymasters: tuple[str, str], guessers: tuple[str, str],
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
                                      **picture_options(name, pictures))
        return agent

    def guesser(team: Team) -> Guesser:
        name = guessers[0 if team is Team.RED else 1]
        agent: Guesser = make_agent(name, role=SeatRole.GUESSER,
                                    seat=f"--{team.value}-guesser",
                                    **picture_options(name, pictures))
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


def _touch_reasons(seats: Seats, game: GameRecord) -> dict[str, str]:
    """Each touch line as the game shows it, mapped to its guesser's reason (a card is
    touched once, so its line is the game's only one)."""
    from ..core.events import GuessMade
    from ..play.session import touch_explanations
    from ..render import describe_event

    reasons = touch_explanations(seats)
    return {describe_event(event): f"{reason.plain()} {reason.describe()}"
            for event in game.events if isinstance(event, GuessMade)
            and (reason := reasons.get((event.turn, event.index))) is not None}
