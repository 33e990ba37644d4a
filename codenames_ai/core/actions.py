"""The moves a seat can make, as frozen value objects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeAlias

from .errors import ConfigError, IllegalActionError, quoted


class Unlimited(Enum):
    """The expert clue number that allows unlimited guesses and gives no count."""

    UNLIMITED = "unlimited"

    def __str__(self) -> str:
        return self.value


UNLIMITED = Unlimited.UNLIMITED
MAX_NUMBER_LENGTH = 24  # characters of a typed clue number; longer ones are refused unread

ClueNumber: TypeAlias = int | Unlimited


@dataclass(frozen=True)
class Clue:
    """A spymaster's clue: one word and a number (``0`` and ``UNLIMITED`` are expert clues)."""

    word: str
    number: ClueNumber

    @property
    def is_unlimited(self) -> bool:
        return self.number is UNLIMITED

    def __str__(self) -> str:
        return f"{self.word}: {self.number}"

    def to_dict(self) -> dict[str, Any]:
        """The clue as JSON holds it (``action_from_dict`` reads it back)."""
        return {"move": "clue", "word": self.word, "number": clue_number_to_json(self.number)}


@dataclass(frozen=True)
class Guess:
    """An operative touches the card at ``index`` (row-major position on the grid)."""

    index: int

    def to_dict(self) -> dict[str, Any]:
        return {"move": "guess", "index": self.index}


@dataclass(frozen=True)
class Pass:
    """An operative stops guessing (allowed after at least one guess this turn)."""

    def to_dict(self) -> dict[str, Any]:
        return {"move": "pass"}


@dataclass(frozen=True)
class Cover:
    """A spymaster covers one agent card without a guess.

    Used for the invalid-clue penalty (the opposing spymaster covers one of its own agents)
    and for the virtual team's turn in the 2-player co-operative variant.
    """

    index: int

    def to_dict(self) -> dict[str, Any]:
        return {"move": "cover", "index": self.index}


GuesserAction: TypeAlias = Guess | Pass
Action: TypeAlias = Clue | Guess | Pass | Cover


def clue_number_to_json(number: ClueNumber) -> int | str:
    """A clue number as JSON holds it: a number, or the string ``"unlimited"``."""
    return number.value if isinstance(number, Unlimited) else number


def parse_clue_number(text: str) -> ClueNumber:
    """Read a clue number as typed by a person or stored in a record: ``"2"``, ``"0"``,
    ``"unlimited"`` (also ``"inf"`` and ``"∞"``).

    Raises ``ValueError`` with a message that says what is accepted.
    """
    cleaned = text.strip().lower()
    if cleaned in {"unlimited", "inf", "infinity", "∞"}:
        return UNLIMITED
    if len(cleaned) > MAX_NUMBER_LENGTH:  # no board has that many cards
        raise ValueError(f"clue number {cleaned[:12]!r}... is {len(cleaned)} characters long; "
                         "use 0, 1, 2, ... (at most the cards left) or 'unlimited'")
    try:
        number = int(cleaned)
    except ValueError:
        raise ValueError(
            f"clue number {text!r} is not a whole number; use 0, 1, 2, ... or 'unlimited'"
        ) from None
    return number


# The ``"move"`` of each action's dictionary, in the order errors list them.
MOVE_KINDS = ("clue", "guess", "pass", "cover")


def action_from_dict(data: Mapping[str, Any], *, others: tuple[str, ...] = ()) -> Action:
    """The action ``to_dict`` wrote, from a JSON object with a ``"move"`` field (a clue's
    word is stripped; its number may be typed, as ``parse_clue_number`` reads it).

    Raises ``IllegalActionError`` saying what is missing. ``others``: the moves the caller
    handles itself (never passed here), which the error for an unknown move lists too.
    Whether the action is legal now is the state's to say, not this codec's.
    """
    kind = data.get("move")
    if kind == "clue":
        word, number = data.get("word"), data.get("number")
        if not isinstance(word, str) or not word.strip():
            raise IllegalActionError("a clue needs a word")
        if not isinstance(number, int | str) or isinstance(number, bool):
            raise IllegalActionError("a clue needs a number (0-9 or 'unlimited')")
        try:
            parsed = parse_clue_number(str(number))
        except (ValueError, ConfigError) as exc:
            raise IllegalActionError(str(exc)) from None
        return Clue(word.strip(), parsed)
    if kind in ("guess", "cover"):
        index = data.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise IllegalActionError(f"a {kind} needs the card's index (a whole number)")
        return Guess(index) if kind == "guess" else Cover(index)
    if kind == "pass":
        return Pass()
    moves = ", ".join((*MOVE_KINDS, *others))
    if not isinstance(kind, str):  # missing, or a number or list: nothing to quote
        raise IllegalActionError(f"a move needs \"move\" as text; moves are {moves}")
    raise IllegalActionError(f"unknown move {quoted(kind)}; moves are {moves}")


def clue_number_from_json(value: object) -> ClueNumber:
    """Inverse of ``clue_number_to_json`` (exact: no typed forms); ``ValueError`` otherwise."""
    if value == UNLIMITED.value:
        return UNLIMITED
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"clue number {value!r} is neither a whole number nor 'unlimited'")
