"""Dealing boards and keys from a seed."""

from __future__ import annotations

from pathlib import Path

import pytest

from codenames_ai.core import (
    MAX_CARD_LENGTH,
    PICTURES,
    WORDS,
    DeckError,
    Identity,
    Team,
    check_word_cards,
    deal,
)
from codenames_ai.decks import read_word_list


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


@pytest.mark.parametrize("card", ["ice cream", "mother-in-law", "café", "cafe\u0301", "O'Brien",
                                  "r2-d2", "हिन्दी", "x" * MAX_CARD_LENGTH])
def test_a_word_card_is_words_with_a_letter(card: str) -> None:
    check_word_cards(["apple", card], 2, source="my.txt")


@pytest.mark.parametrize(("card", "message"), [
    ("!!!", "my.txt: card 2 ('!!!') is not a word; a card is one or more words"),
    ("1066", "card 2 ('1066') is not a word"),
    ("ice  cream", "card 2 ('ice  cream') is not a word"),
    ("-ice", "card 2 ('-ice') is not a word"),
    ("x" * 10_000, f"my.txt: card 2 has 10,000 characters; a card is at most {MAX_CARD_LENGTH}"),
    ("Apple", "'Apple' appears twice (cards 1 and 2)"),
])
def test_a_word_card_that_is_no_words_or_too_long_is_refused(card: str, message: str) -> None:
    with pytest.raises(DeckError) as refused:
        check_word_cards(["apple", card], 2, source="my.txt")
    assert message in str(refused.value)


@pytest.mark.parametrize("other", ["cafe\u0301", "CAF\u00c9", "ｃａｆé"])
def test_a_card_written_in_other_code_points_is_the_same_card(other: str) -> None:
    # "café" precomposed and "cafe" + a combining accent show the same, and a clue is
    # compared with both as one word: a deck of both dealt two cards no one can tell apart.
    with pytest.raises(DeckError, match=r"appears twice \(cards 1 and 2\)"):
        check_word_cards(["caf\u00e9", other], 2, source="my.txt")


def test_a_word_list_refuses_a_long_card_naming_the_file(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("apple\n" + "y" * 10_000 + "\n", encoding="utf-8")
    with pytest.raises(DeckError, match=f"{deck}: card 2 has 10,000 characters"):
        read_word_list(deck)


def test_a_byte_order_mark_is_not_part_of_the_first_card(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(b"\xef\xbb\xbfapple\npear\n")  # as Notepad saves "UTF-8 with BOM"
    assert read_word_list(deck) == ("apple", "pear")
