"""Dealing boards and keys from a seed."""

from __future__ import annotations

import pytest

from codenames_ai.core import PICTURES, WORDS, DeckError, Identity, Team, deal


def test_same_seed_same_board_and_key(deck: tuple[str, ...]) -> None:
    assert deal(WORDS, deck, 42) == deal(WORDS, deck, 42)
    assert deal(WORDS, deck, 42) != deal(WORDS, deck, 43)


def test_keys_are_valid_and_the_starting_team_owns_the_double_agent(
        deck: tuple[str, ...]) -> None:
    starters = set()
    for seed in range(40):
        for rules in (WORDS, PICTURES):
            board = deal(rules, deck, seed)
            board.check_fits(rules.layout)
            starting = board.starting_team
            starters.add(starting)
            assert board.count(starting.agent) == rules.layout.starting_team_cards
            assert board.count(starting.other.agent) == rules.layout.second_team_agents
            assert board.count(Identity.ASSASSIN) == 1
            assert len(set(board.words)) == rules.layout.cells
    assert starters == {Team.RED, Team.BLUE}


def test_deck_too_small_or_with_duplicates_is_refused() -> None:
    with pytest.raises(DeckError, match="has 3 cards but a board needs 25"):
        deal(WORDS, ["a", "b", "c"], 1)
    words = [f"w{i}" for i in range(30)] + ["W3"]
    with pytest.raises(DeckError, match=r"'W3' appears twice \(cards 4 and 31\)"):
        deal(WORDS, words, 1)
    with pytest.raises(DeckError, match="card 2 is empty"):
        deal(WORDS, ["a", " "] + [f"w{i}" for i in range(30)], 1)
