"""The table of hand-checked verdicts (``cases.py``): every rule, every preset, tricky
negatives. Each case gives the first rule a clue breaks, or ``None`` for a legal clue."""

from __future__ import annotations

import pytest

from codenames_ai.core.actions import Clue
from codenames_ai.core.cards import Team
from codenames_ai.core.clues import ClueContext, check_clue, resolve_validator
from codenames_ai.core.rules import PICTURES, WORDS
from codenames_ai.legality.check import check_clue_word

from .cases import CASES

Case = tuple[str, tuple[str, ...], tuple[str, ...], str, str | None]


def _id(case: Case) -> str:
    clue, board, _, rules, expected = case
    return f"{rules}-{clue[:16]}-{'/'.join(board)[:24]}-{expected}"


def test_the_table_is_large_and_covers_every_preset() -> None:
    assert len(CASES) >= 150
    assert {rules for *_, rules, _ in CASES} == {"classic", "strict", "flexible", "pictures"}


def _in_play(clue: str, visible: tuple[str, ...], revealed: tuple[str, ...], rules: str
             ) -> str | None:
    """The first rule the clue breaks as a game judges it: the core's check with the board as
    the table sees it (``revealed`` cards face down, as ``GameState.clue_context`` gives them)
    and the validator the rule set names."""
    ruleset = (PICTURES if rules == "pictures" else WORDS).with_options(clue_rules=rules)
    context = ClueContext(rules=ruleset, team=Team.RED, visible_words=visible,
                          covered_words=revealed, cards_left=1)
    found = check_clue(Clue(clue, 1), context, resolve_validator(ruleset.clue_rules))
    return found.rule if found else None


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_hand_checked_verdict(case: Case) -> None:
    clue, visible, revealed, rules, expected = case
    assert not set(visible) & set(revealed)
    found = check_clue_word(clue, visible, rules)
    assert (found[0].rule if found else None) == expected, [v.message for v in found]
    # The same verdict in a game, where the revealed cards are on the board, covered.
    assert _in_play(clue, visible, revealed, rules) == expected


# Legal only because a card is covered: the verdict hangs on the revealed column.
COVERED = [c for c in CASES if c[2] and c[4] is None]


def test_the_table_has_cases_that_hang_on_a_covered_card() -> None:
    assert len(COVERED) >= 10


@pytest.mark.parametrize("case", COVERED, ids=[_id(c) for c in COVERED])
def test_the_covered_card_is_what_makes_the_clue_legal(case: Case) -> None:
    clue, visible, revealed, rules, _ = case
    assert _in_play(clue, visible + revealed, (), rules) is not None, \
        f"{clue!r} is legal even with {'/'.join(revealed)} face up: the case tests nothing"
