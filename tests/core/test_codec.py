"""One codec for a card's identity (``Identity.letter`` / ``from_letter``, ``number``,
``standing``) and one text form for a board with its key (``format_key`` / ``parse_key``,
``Board.to_text`` / ``from_text``), in the core: the CLI's ``--key``, the env's observation
and the agents' arrays all spell an identity through them."""

from __future__ import annotations

import pytest

from codenames_ai.core import (
    WORDS,
    Board,
    DeckError,
    Identity,
    Standing,
    Team,
    deal,
    format_key,
    parse_key,
    starting_team_of,
)


def test_each_identity_has_one_letter_read_back_in_either_case() -> None:
    assert [identity.letter for identity in Identity] == ["R", "B", "N", "A"]
    for identity in Identity:
        assert Identity.from_letter(identity.letter) is identity
        assert Identity.from_letter(identity.letter.lower()) is identity
    with pytest.raises(ValueError, match="'X' is not a key letter"):
        Identity.from_letter("X")


def test_numbers_leave_zero_for_a_card_not_shown() -> None:
    assert [identity.number for identity in Identity] == [1, 2, 3, 4]


def test_standing_is_what_a_card_is_to_a_team() -> None:
    assert Identity.RED.standing(Team.RED) is Standing.OWN
    assert Identity.RED.standing(Team.BLUE) is Standing.OPPONENT
    assert Identity.BLUE.standing(Team.RED) is Standing.OPPONENT
    assert Identity.BYSTANDER.standing(Team.BLUE) is Standing.BYSTANDER
    assert Identity.ASSASSIN.standing(Team.RED) is Standing.ASSASSIN
    # The agents' array codes, which their golden games pin.
    assert [int(s) for s in Standing] == [0, 1, 2, 3]


def test_a_key_is_written_and_read_back(deck: tuple[str, ...]) -> None:
    board = deal(WORDS, deck, 7)
    letters = format_key(board.key)
    assert len(letters) == 25 and set(letters) == {"R", "B", "N", "A"}
    assert parse_key(letters) == board.key
    rows = format_key(board.key, cols=5)
    assert rows.split() == [letters[i:i + 5] for i in range(0, 25, 5)]
    assert parse_key(rows.lower(), 25) == board.key


def test_a_bad_key_is_refused_naming_where_it_came_from() -> None:
    with pytest.raises(DeckError, match="--key has 2 letters but the board has 3 cards"):
        parse_key("RB", 3, source="--key")
    with pytest.raises(DeckError, match=r"key has letters \., X; use R \(red\)"):
        parse_key("RB.X")
    with pytest.raises(DeckError, match=r"letters '\\x1b'"):
        parse_key("R\x1bB")


def test_the_team_with_more_agents_starts() -> None:
    assert starting_team_of(parse_key("RRRBBNA")) is Team.RED
    assert starting_team_of(parse_key("RRBBBNA")) is Team.BLUE
    assert starting_team_of(parse_key("RBNA")) is Team.RED  # as many: red


def test_a_board_is_written_and_read_back_as_text(deck: tuple[str, ...]) -> None:
    board = deal(WORDS, deck, 11)
    text = board.to_text(cols=5)
    assert text.splitlines()[1] == f"key: {format_key(board.key, 5)}"
    assert Board.from_text(text) == board
    assert Board.from_text(board.to_text()) == board
    blue = Board(("ice cream", "bear", "cat"), parse_key("BRA"), Team.BLUE)
    assert blue.to_text() == "words: ice cream, bear, cat\nkey: BRA\nstarts: blue\n"
    assert Board.from_text("key: b r a\n\nwords: ice cream,bear , cat\nStarts: Blue") == blue
    # Without a ``starts`` line, the team with more agents starts.
    assert Board.from_text("words: a, b, c\nkey: BBR").starting_team is Team.BLUE


@pytest.mark.parametrize(("text", "message"), [
    ("words: a, b\n", "give a 'words: ...' line and a 'key: ...' line"),
    ("words: a, b\nkey: RB\nkey: RB\n", "line 3 is not one of"),
    ("words: a, b\nkey RB\n", "line 2 is not one of"),
    ("words: a, b\nkey: RBN\n", "the key has 3 letters but the board has 2 cards"),
    ("words: a, b\nkey: RB\nstarts: green\n", "starts 'green'; give red or blue"),
    ("words: a,,c\nkey: RBN\n", "the words: card 2 is empty"),
    ("words: a, b, a\nkey: RBN\n", "the words: 'a' appears twice"),
])
def test_a_bad_board_text_is_refused_with_one_message(text: str, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        Board.from_text(text, source="board.txt")


def test_a_card_with_a_comma_has_no_text_form() -> None:
    with pytest.raises(DeckError, match="no text form"):
        Board(("a, b", "c"), parse_key("RB"), Team.RED).to_text()
