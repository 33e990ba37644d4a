"""One clue word against a board, with every rule it breaks (for people and explanations)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.actions import Clue
from ..core.cards import Team
from ..core.clues import ClueContext, ClueViolation, check_clue
from ..core.rules import WORDS
from ..pictures import Captions
from .validator import validator_for

_BASIC = WORDS.with_options(clue_rules="basic")


def check_clue_word(clue: str, visible_words: Sequence[str], rules: str = "classic", *,
                    pictures: Captions | None = None) -> list[ClueViolation]:
    """Every rule ``clue`` breaks with ``visible_words`` face up: the core's basics (one word,
    not a visible board word) first, then the rule set's own rules in their report order.
    ``pictures``: the captions of the picture deck in play (see ``validator_for``)."""
    visible = tuple(visible_words)
    context = ClueContext(rules=_BASIC, team=Team.RED, visible_words=visible,
                          covered_words=(), cards_left=1)
    basic = check_clue(Clue(clue, 1), context)
    if basic is not None and basic.rule in {"one-word", "too-long", "characters"}:
        return [basic]  # not one word of letters: the word rules have nothing to judge
    found = [basic] if basic is not None else []
    return found + validator_for(rules, pictures).violations(clue.strip(), list(visible))
