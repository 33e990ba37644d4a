"""The move codec beside the move types: every action survives ``to_dict`` and
``action_from_dict``, and a move it does not know is refused with the list of those it does."""

from __future__ import annotations

import json

import pytest

from codenames_ai.core import (
    MOVE_KINDS,
    UNLIMITED,
    Action,
    Clue,
    Cover,
    Guess,
    IllegalActionError,
    Pass,
    action_from_dict,
)

EVERY_ACTION: list[Action] = [Clue("ocean", 2), Clue("ocean", 0), Clue("ocean", UNLIMITED),
                              Guess(0), Guess(24), Pass(), Cover(7)]


@pytest.mark.parametrize("action", EVERY_ACTION, ids=str)
def test_every_action_round_trips_through_json(action: Action) -> None:
    data = json.loads(json.dumps(action.to_dict()))
    assert action_from_dict(data) == action


def test_every_action_type_has_its_move_kind() -> None:
    assert {action.to_dict()["move"] for action in EVERY_ACTION} == set(MOVE_KINDS)


def test_an_unknown_move_lists_every_move_and_the_callers_own() -> None:
    with pytest.raises(IllegalActionError, match=r"unknown move 'fly'; moves are "
                                                 r"clue, guess, pass, cover$"):
        action_from_dict({"move": "fly"})
    with pytest.raises(IllegalActionError, match=r"moves are clue, guess, pass, cover, step$"):
        action_from_dict({"move": None}, others=("step",))


@pytest.mark.parametrize(("data", "message"), [
    ({"move": "clue", "word": " ", "number": 1}, "a clue needs a word"),
    ({"move": "clue", "word": "ocean", "number": True}, "a clue needs a number"),
    ({"move": "clue", "word": "ocean", "number": "two"}, "not a whole number"),
    ({"move": "guess", "index": "3"}, "a guess needs the card's index"),
    ({"move": "cover", "index": False}, "a cover needs the card's index"),
])
def test_a_malformed_move_says_what_is_missing(data: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        action_from_dict(data)


def test_a_typed_clue_is_read_as_a_person_types_it() -> None:
    assert action_from_dict({"move": "clue", "word": " ocean ", "number": "inf"}) == Clue(
        "ocean", UNLIMITED)
