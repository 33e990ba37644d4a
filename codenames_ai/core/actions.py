"""The moves a seat can make, as frozen value objects."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias


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


@dataclass(frozen=True)
class Guess:
    """An operative touches the card at ``index`` (row-major position on the grid)."""

    index: int


@dataclass(frozen=True)
class Pass:
    """An operative stops guessing (allowed after at least one guess this turn)."""


@dataclass(frozen=True)
class Cover:
    """A spymaster covers one agent card without a guess.

    Used for the invalid-clue penalty (the opposing spymaster covers one of its own agents)
    and for the virtual team's turn in the 2-player co-operative variant.
    """

    index: int


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
