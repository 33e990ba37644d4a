"""The table of hand-checked verdicts (``cases.py``): every rule, every preset, tricky
negatives. Each case gives the first rule a clue breaks, or ``None`` for a legal clue."""

from __future__ import annotations

import pytest

from codenames_ai.legality.check import check_clue_word

from .cases import CASES


def _id(case: tuple[str, tuple[str, ...], tuple[str, ...], str, str | None]) -> str:
    clue, board, _, rules, expected = case
    return f"{rules}-{clue[:16]}-{'/'.join(board)[:24]}-{expected}"


def test_the_table_is_large_and_covers_every_preset() -> None:
    assert len(CASES) >= 150
    assert {rules for *_, rules, _ in CASES} == {"classic", "strict", "flexible", "pictures"}


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_hand_checked_verdict(case: tuple[str, tuple[str, ...], tuple[str, ...], str,
                                          str | None]) -> None:
    clue, visible, revealed, rules, expected = case
    assert not set(visible) & set(revealed)
    found = check_clue_word(clue, visible, rules)
    assert (found[0].rule if found else None) == expected, [v.message for v in found]
