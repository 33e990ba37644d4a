"""``codenames guess``: the AI guesser's guesses for a clue on a board you type in."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from ..agents.registry import (
    LEVEL_GUESSER,
    PERSON_PARTNER_GUESSER,
    partner_guesser,
    takes_option,
)
from ..core import (
    WORDS,
    Clue,
    ClueRulesName,
    ConfigError,
    Guess,
    GuesserView,
    Identity,
    Phase,
    PublicView,
    Role,
    Team,
    clue_number_to_json,
    parse_clue_number,
)
from .board import check_distinct, check_guess_clue, split_cards
from .language import prepare_language_data
from .plugins import Plugins, load_plugins


def guess(
    board: Annotated[str, typer.Option(help="The face-up cards, comma-separated.")],
    clue_word: Annotated[str, typer.Option("--clue", help="The clue word.")],
    number: Annotated[str, typer.Option(help="The clue number (0, 1, 2, ... or unlimited).")],
    guesser: Annotated[str | None, typer.Option(help=(
        f"Agent id or module:Class (default: {PERSON_PARTNER_GUESSER}, the guesser for a "
        "person's clues)."), show_default=False)] = None,
    model: Annotated[str | None, typer.Option(help="Word-vector model for the agent.")] = None,
    rules: Annotated[ClueRulesName, typer.Option(
        help="The clue rule set the clue must keep, as in a game.")] = ClueRulesName.CLASSIC,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plugin: Plugins = None,
) -> None:
    """The AI guesser's guesses for a clue, in order, assuming each one is right, and where it
    would stop."""
    from ..agents.registry import make_agent

    load_plugins(plugin)
    cards = split_cards(board)
    check_distinct(cards)  # before the models load: a typo answers at once
    try:
        clue_number = parse_clue_number(number)
    except ValueError as exc:
        raise ConfigError(f"--number: {exc}") from None
    the_clue = Clue(clue_word.strip(), clue_number)
    check_guess_clue(the_clue, cards, rules.value)
    # You give the clue here, so the default is the guesser that reads a person's clues.
    agent_id = partner_guesser(guesser, person_clues=True)
    prepare_language_data()
    agent = make_agent(agent_id, role=Role.GUESSER, seat="--guesser",
                       **_model_option(agent_id, model, chosen=guesser is not None))
    basic = WORDS.with_options(clue_rules="basic")
    shown: list[Identity | None] = [None] * len(cards)
    picks: list[str] = []
    limit = clue_number + 1 if isinstance(clue_number, int) and clue_number > 0 else len(cards)
    stopped = "it runs out of guesses"
    while len(picks) < min(limit, len(cards)):
        # Red guesses; each card it touched is taken to be one of its agents.
        table = PublicView.table(basic, cards, shown, Team.RED, phase=Phase.GUESS)
        view = GuesserView.of_table(
            table, the_clue, guesses_made=len(picks),
            guesses_left=None if limit == len(cards) else limit - len(picks))
        action = agent.guess(view)
        if not isinstance(action, Guess):
            stopped = "it stops (not confident enough)"
            break
        picks.append(cards[action.index])
        shown[action.index] = Team.RED.agent
    if as_json:
        typer.echo(json.dumps({"clue": the_clue.word, "number": clue_number_to_json(clue_number),
                               "guesses": picks, "stop": stopped}, ensure_ascii=False))
        return
    for i, card in enumerate(picks, start=1):
        typer.echo(f"{i}. {card}")
    typer.echo(f"then {stopped}")


def _model_option(agent_id: str, model: str | None, *, chosen: bool) -> dict[str, str]:
    """``--model`` for the guesser; refused up front for the default guesser when it takes
    none (the agent the person chose says so itself when it is built)."""
    if model is None:
        return {}
    if not chosen and not takes_option(agent_id, "model"):
        raise ConfigError(f"--model: the default guesser for a person's clues, {agent_id}, "
                          "thinks with its own minds and takes no model; add --guesser "
                          f"{LEVEL_GUESSER} (or another guesser that takes one) to use "
                          f"--model {model}")
    return {"model": model}
