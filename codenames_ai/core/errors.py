"""One exception hierarchy for the whole toolkit.

Every message names what went wrong (which rule, which card, which file) and what to do.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TypeVar

Choice = TypeVar("Choice", bound=Enum)


class CodenamesError(Exception):
    """Root of every error this toolkit raises on purpose."""


class ConfigError(CodenamesError, ValueError):
    """A rule set, layout, edition or variant that cannot be played."""


class DeckError(CodenamesError, ValueError):
    """A word or picture deck that cannot deal a board (too few cards, duplicates, ...)."""


class IllegalActionError(CodenamesError, ValueError):
    """An action that the current state does not allow (wrong phase, revealed card, ...)."""


class IllegalClueError(IllegalActionError):
    """A clue that breaks a clue rule, raised when the rule set refuses invalid clues.

    ``rule`` is the id of the broken rule (for example ``"board-word"``).
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class ModelError(CodenamesError, ValueError):
    """A word-vector model that cannot be read, converted, cached or found; or a word it has
    no vector for."""


class RecordError(CodenamesError, ValueError):
    """A game record that is malformed, truncated, tampered with or inconsistent."""


class GameInterrupted(CodenamesError):
    """Raised by an agent (a person at a prompt) to stop the game now; the runner ends it with
    no winner and still returns its record."""


class MoveTimedOut(CodenamesError):
    """Raised by an agent that keeps its own clock (a person at a prompt) when its answer came
    after the move's time limit: the runner forfeits the move (docs/rules.md, Time budgets)."""


class AgentError(CodenamesError):
    """An agent crashed or answered with something the rules do not allow.

    ``seat`` names the seat (for example ``"red spymaster"``) so a harness can report it.
    """

    def __init__(self, seat: str, message: str) -> None:
        super().__init__(f"{seat}: {message}")
        self.seat = seat


def choose(choices: type[Choice], name: str, what: str,
           error: type[CodenamesError] = ConfigError) -> Choice:
    """The member of ``choices`` whose value is ``name`` (any case, spaces around ignored),
    or ``error`` saying that ``what`` is unknown and naming every choice."""
    try:
        return choices(name.strip().lower())
    except ValueError:
        known = ", ".join(str(choice.value) for choice in choices)
        raise error(f"unknown {what} {name!r}; choose one of: {known}") from None


def quoted(text: str, limit: int = 40) -> str:
    """Text from a person, a file or the network as a message quotes it: its repr, cut short
    (it may be of any length)."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def quoted_some(texts: Iterable[str], most: int = 5) -> str:
    """Several texts from a person, a file or the network as a message names them: the first
    ``most``, each ``quoted``, and how many more (there may be thousands)."""
    texts = list(texts)
    named = ", ".join(quoted(text) for text in texts[:most])
    return named + (f" and {len(texts) - most:,} more" if len(texts) > most else "")
