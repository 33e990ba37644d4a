"""Playing agents for measurement: the single-team race (as in the AIIDE competition: one team
alone clears its cards while the other never moves) and two-team games, with per-game figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..core.board import deal
from ..core.cards import Team
from ..core.events import ClueGiven, GuessMade
from ..core.protocols import Guesser, Spymaster
from ..core.record import GameRecord
from ..core.rules import RuleSet, Variant
from ..core.runner import IDLE, IdleSeat, Seats, play_game
from ..core.state import EndReason

T = TypeVar("T")


@dataclass(frozen=True)
class GameFigures:
    """What one game says about a spymaster and its guesser."""

    won: bool
    turns: int  # the team's own clue turns
    assassin: bool
    clue_numbers: tuple[int, ...]
    targets_found: tuple[int, ...]  # own cards found in each clue's turn, capped at its number
    own_found: tuple[int, ...] = ()  # own cards found in each clue's turn, all of them

    def turns_between(self, first: int, second: int) -> int | None:
        """Clue turns from the turn that found the team's ``first``-th own card to the one
        that found its ``second``-th (0: the same turn); None when it never found both."""
        found = 0
        turns: dict[int, int] = {}
        for turn, count in enumerate(self.own_found):
            for _ in range(count):
                found += 1
                turns.setdefault(found, turn)
        if first not in turns or second not in turns:
            return None
        return turns[second] - turns[first]


def single_team(rules: RuleSet, deck: Sequence[str], seed: int, spymaster: Spymaster,
                guesser: Guesser, *, max_turns: int = 25) -> GameFigures:
    """The starting team plays alone (the other team's seats are ``IDLE``: its turns pass at
    once). Won when its cards are all found; lost on the assassin, on the other team's last
    card, or at ``max_turns`` of its own turns."""
    board = deal(rules, deck, seed)
    team = board.starting_team

    def seat(agent: T) -> Callable[[Team], T | IdleSeat]:
        return lambda side: agent if side is team else IDLE

    seats = Seats.for_variant(Variant.STANDARD, spymaster=seat(spymaster), guesser=seat(guesser))
    # The idle team's turns count too: its k-th own turn is the game's turn 2k - 1.
    record = play_game(rules, seats, seed=seed, board=board, max_turns=2 * max_turns)
    return _figures(record, team, turns=(record.outcome.turns + 1) // 2)


def two_team(rules: RuleSet, deck: Sequence[str], seed: int, seats: Seats,
             team: Team) -> GameFigures:
    """A full game; the figures are ``team``'s."""
    record = play_game(rules, seats, seed=seed, deck=deck)
    return _figures(record, team)


def _figures(record: GameRecord, team: Team, turns: int | None = None) -> GameFigures:
    """``team``'s figures; ``turns`` defaults to its valid clues."""
    numbers, found, own = _clue_figures(record.events, team)
    assassin = record.outcome.reason is EndReason.ASSASSIN and record.outcome.winner is not team
    return GameFigures(record.outcome.winner is team, len(numbers) if turns is None else turns,
                       assassin, numbers, found, own)


def _clue_figures(events: Sequence[object], team: Team
                  ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Each valid clue's number, the own cards found in its turn capped at the number, and
    all own cards found in its turn."""
    numbers: list[int] = []
    found: list[int] = []
    own: list[int] = []
    for event in events:
        if isinstance(event, ClueGiven) and event.team is team:
            numbers.append(event.clue.number if isinstance(event.clue.number, int) else 0)
            found.append(0)
            own.append(0)
        elif (isinstance(event, GuessMade) and event.team is team and numbers
              and event.identity is team.agent):
            own[-1] += 1
            if found[-1] < numbers[-1]:
                found[-1] += 1
    return tuple(numbers), tuple(found), tuple(own)
