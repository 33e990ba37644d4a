"""``codenames guess``: the AI guesser's guesses for a clue on a board you type in."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from ..agents.registry import DEFAULT_GUESSER
from ..core import (
    WORDS,
    Clue,
    ConfigError,
    Guess,
    GuesserView,
    Phase,
    Role,
    Team,
    clue_number_to_json,
    parse_clue_number,
)
from .board import board_fields, check_guess_clue, split_cards
from .plugins import Plugins, load_plugins


def guess(
    board: Annotated[str, typer.Option(help="The face-up cards, comma-separated.")],
    clue_word: Annotated[str, typer.Option("--clue", help="The clue word.")],
    number: Annotated[str, typer.Option(help="The clue number (0, 1, 2, ... or unlimited).")],
    guesser: Annotated[str, typer.Option(help="Agent id or module:Class.")] = DEFAULT_GUESSER,
    model: Annotated[str | None, typer.Option(help="Word-vector model for the agent.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plugin: Plugins = None,
) -> None:
    """The AI guesser's guesses for a clue, in order, assuming each one is right, and where it
    would stop."""
    from ..agents.registry import make_agent

    load_plugins(plugin)
    cards = split_cards(board)
    try:
        clue_number = parse_clue_number(number)
    except ValueError as exc:
        raise ConfigError(f"--number: {exc}") from None
    the_clue = Clue(clue_word.strip(), clue_number)
    check_guess_clue(the_clue, cards)
    agent = make_agent(guesser, role=Role.GUESSER, seat="--guesser",
                       **({"model": model} if model else {}))
    fields, shown = board_fields(cards, None, [], Team.RED, WORDS.with_options(clue_rules="basic"))
    picks: list[str] = []
    limit = clue_number + 1 if isinstance(clue_number, int) and clue_number > 0 else len(cards)
    stopped = "it runs out of guesses"
    while len(picks) < min(limit, len(cards)):
        fields.update(revealed=tuple(shown), phase=Phase.GUESS)
        view = GuesserView(**fields, clue=the_clue, guesses_made=len(picks),  # type: ignore[arg-type]
                           guesses_left=None if limit == len(cards) else limit - len(picks),
                           can_pass=bool(picks))
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
