"""What happened in a game, as frozen value objects.

Every event is public: anyone at the table sees clues, guesses and covered cards. A game
record is the rule set, the board and this list of events.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeAlias

from .actions import Clue, ClueNumber, clue_number_from_json, clue_number_to_json
from .cards import Identity, Role, Team
from .errors import RecordError


class CoverReason(Enum):
    """Why a spymaster covered an agent without a guess."""

    PENALTY = "penalty"  # the other team gave an invalid clue
    VIRTUAL_TURN = "virtual-turn"  # the virtual team's turn in the co-operative variant
    TIMEOUT = "timeout"  # the chooser ran out of time; the engine covered for it


@dataclass(frozen=True)
class ClueGiven:
    turn: int
    team: Team
    clue: Clue


@dataclass(frozen=True)
class InvalidClue:
    """A clue that broke ``rule``; under the penalty policy the turn ended at once."""

    turn: int
    team: Team
    clue: Clue
    rule: str
    reason: str


@dataclass(frozen=True)
class GuessMade:
    turn: int
    team: Team
    index: int
    word: str
    identity: Identity


@dataclass(frozen=True)
class Passed:
    turn: int
    team: Team


@dataclass(frozen=True)
class TimedOut:
    """A seat overran its time budget and forfeited the move."""

    turn: int
    team: Team
    role: Role


@dataclass(frozen=True)
class Forfeited:
    """A seat's agent crashed or answered with an illegal move and, under a runner that
    contains faults (a tournament), forfeited the move as if it had run out of time."""

    turn: int
    team: Team
    role: Role
    reason: str


@dataclass(frozen=True)
class Covered:
    """``chooser``'s spymaster covered agent card ``index`` of ``team``."""

    turn: int
    team: Team
    chooser: Team
    index: int
    word: str
    reason: CoverReason


@dataclass(frozen=True)
class Abandoned:
    """The game was stopped before its end (``reason``: ``"turn-limit"`` or ``"stopped"``, a
    player quit); nobody wins."""

    turn: int
    reason: str = "turn-limit"


Event: TypeAlias = (ClueGiven | InvalidClue | GuessMade | Passed | TimedOut | Forfeited | Covered
                    | Abandoned)


def _number_from_json(value: Any) -> ClueNumber:
    try:
        return clue_number_from_json(value)
    except ValueError as exc:
        raise RecordError(str(exc)) from None


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dictionary with an ``"event"`` kind field."""
    data: dict[str, Any] = {"event": _KIND_OF[type(event)], "turn": event.turn}
    if isinstance(event, ClueGiven | InvalidClue):
        data.update(team=event.team.value, word=event.clue.word,
                    number=clue_number_to_json(event.clue.number))
        if isinstance(event, InvalidClue):
            data.update(rule=event.rule, reason=event.reason)
    elif isinstance(event, GuessMade):
        data.update(team=event.team.value, index=event.index, word=event.word,
                    identity=event.identity.value)
    elif isinstance(event, Passed):
        data.update(team=event.team.value)
    elif isinstance(event, TimedOut):
        data.update(team=event.team.value, role=event.role.value)
    elif isinstance(event, Forfeited):
        data.update(team=event.team.value, role=event.role.value, reason=event.reason)
    elif isinstance(event, Covered):
        data.update(team=event.team.value, chooser=event.chooser.value, index=event.index,
                    word=event.word, reason=event.reason.value)
    elif isinstance(event, Abandoned):
        data.update(reason=event.reason)
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """Inverse of ``event_to_dict``; raises ``RecordError`` on anything malformed."""
    try:
        kind = data["event"]
        turn = data["turn"]
        if not isinstance(turn, int):
            raise TypeError(f"turn must be a whole number, got {turn!r}")
        if kind == "clue" or kind == "invalid-clue":
            clue = Clue(str(data["word"]), _number_from_json(data["number"]))
            if kind == "clue":
                return ClueGiven(turn, Team(data["team"]), clue)
            return InvalidClue(turn, Team(data["team"]), clue, str(data["rule"]),
                               str(data["reason"]))
        if kind == "guess":
            return GuessMade(turn, Team(data["team"]), int(data["index"]), str(data["word"]),
                             Identity(data["identity"]))
        if kind == "pass":
            return Passed(turn, Team(data["team"]))
        if kind == "timeout":
            return TimedOut(turn, Team(data["team"]), Role(data["role"]))
        if kind == "forfeit":
            return Forfeited(turn, Team(data["team"]), Role(data["role"]), str(data["reason"]))
        if kind == "cover":
            return Covered(turn, Team(data["team"]), Team(data["chooser"]), int(data["index"]),
                           str(data["word"]), CoverReason(data["reason"]))
        if kind == "abandoned":
            return Abandoned(turn, str(data.get("reason", "turn-limit")))
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed event {data!r}: {exc}") from None
    raise RecordError(f"unknown event kind {data.get('event')!r} in {data!r}")


_KIND_OF: dict[type, str] = {
    ClueGiven: "clue",
    InvalidClue: "invalid-clue",
    GuessMade: "guess",
    Passed: "pass",
    TimedOut: "timeout",
    Forfeited: "forfeit",
    Covered: "cover",
    Abandoned: "abandoned",
}
