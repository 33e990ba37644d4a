"""``codenames check``: is a clue legal on a board, and if not, which rules it breaks."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..core import ClueRulesName, normalize_word
from .board import covered_cards, split_cards


def check(
    clue: Annotated[str, typer.Argument(help="The clue word to check.")],
    board: Annotated[str, typer.Option(
        help="The board's cards, comma-separated (cards may hold spaces: 'ice cream').")],
    revealed: Annotated[str, typer.Option(
        help="Cards already covered, comma-separated: their words are legal again.")] = "",
    rules: Annotated[ClueRulesName, typer.Option(help="The clue rule set.")]
    = ClueRulesName.CLASSIC,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")]
    = False,
) -> None:
    """Is CLUE a legal clue on this board? Exit 0 and 'legal', or exit 1 and every broken
    rule with the reason."""
    from ..core.board import check_word_cards
    from ..legality.check import check_clue_word

    cards = split_cards(board)
    check_word_cards(cards, 1, source="--board")  # the rule of a deck's cards
    covered = covered_cards(cards, split_cards(revealed, "--revealed", required=False))
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
