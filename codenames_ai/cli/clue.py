"""``codenames clue``: the AI spymaster's clue for a board and key you type in."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from ..agents.registry import DEFAULT_SPYMASTER
from ..core import ConfigError, EditionName, Role, Team, clue_number_to_json
from ..core.errors import quoted
from .board import key_rules, split_cards, spymaster_view, typed_key
from .language import prepare_language_data
from .plugins import Plugins, load_plugins


def clue(
    board: Annotated[str, typer.Option(help="The cards, comma-separated, in grid order.")],
    key: Annotated[str, typer.Option(help="One letter per card: R red, B blue, N bystander, "
                                          "A assassin.")],
    team: Annotated[str, typer.Option(help="The team to give a clue for: red or blue.")],
    revealed: Annotated[str, typer.Option(help="Cards already covered, comma-separated.")] = "",
    spymaster: Annotated[str, typer.Option(help="Agent id or module:Class.")]
    = DEFAULT_SPYMASTER,
    model: Annotated[str | None, typer.Option(help="Word-vector model for the agent.")] = None,
    clue_rules: Annotated[str, typer.Option(help="classic, strict, flexible, pictures.")]
    = "classic",
    edition_name: Annotated[EditionName | None, typer.Option(
        "--edition", help="The layout the key must fit: words (25 cards: 9/8 agents, 7 "
                          "bystanders, 1 assassin), pictures (20: 8/7/4/1) or custom (any "
                          "counts). Default: pictures for 20 cards, else words.")] = None,
    explain: Annotated[bool, typer.Option(help="Say why: targets, feared card, runners-up.")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plugin: Plugins = None,
) -> None:
    """The AI spymaster's clue for a board and key you give."""
    from ..agents.registry import make_agent

    load_plugins(plugin)
    try:
        side = Team(team.strip().lower())
    except ValueError:
        raise ConfigError(f"--team must be red or blue, not {quoted(team)}") from None
    cards = split_cards(board)
    identities = typed_key(key, len(cards))
    rules = key_rules(identities, edition_name, clue_rules)
    view = spymaster_view(cards, identities, split_cards(revealed, "--revealed", required=False),
                          side, rules)
    if view.cards_left(side) == 0:
        raise ConfigError(f"{side.value} has no agents left to find on this board")
    prepare_language_data()
    agent = make_agent(spymaster, role=Role.SPYMASTER, seat="--spymaster",
                       **({"model": model} if model else {}))
    given = agent.give_clue(view)
    explanation = getattr(agent, "last_explanation", None)
    if as_json:
        payload: dict[str, object] = {"clue": given.word,
                                      "number": clue_number_to_json(given.number)}
        if explain and explanation is not None:
            payload["explanation"] = explanation.to_dict()
        typer.echo(json.dumps(payload, ensure_ascii=False))
        return
    typer.echo(f"{given.word} {given.number}")
    if explain and explanation is not None:
        typer.echo(explanation.describe())


