"""Playing agents for measurement: the single-team race (as in the AIIDE competition: one team
alone clears its cards while the other never moves) and two-team games, with per-game figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.board import deal
from ..core.cards import Team
from ..core.events import ClueGiven, GuessMade
from ..core.protocols import Guesser, Spymaster
from ..core.rules import RuleSet
from ..core.runner import Seats, play_game
from ..core.state import EndReason, GameState
from ..core.views import Phase


@dataclass(frozen=True)
class GameFigures:
    """What one game says about a spymaster and its guesser."""

    won: bool
    turns: int  # the team's own clue turns
    assassin: bool
    clue_numbers: tuple[int, ...]
    targets_found: tuple[int, ...]  # own cards found in each clue's turn, capped at its number


def single_team(rules: RuleSet, deck: Sequence[str], seed: int, spymaster: Spymaster,
                guesser: Guesser, *, max_turns: int = 25) -> GameFigures:
    """The starting team plays alone (the other team's turns pass at once). Won when its
    cards are all found; lost on the assassin, on the other team's last card, or at
    ``max_turns``."""
    state = GameState(rules, deal(rules, deck, seed))
    team = state.board.starting_team
    for agent, label in ((spymaster, "spymaster"), (guesser, "guesser")):
        hook = getattr(agent, "start_game", None)
        if callable(hook):
            hook(seed * 2 + (label == "guesser"))
    turns = 0
    while not state.is_over:
        if state.current_team is not team:
            if state.phase is Phase.COVER:
                state.apply(spymaster.choose_cover(state.spymaster_view(state.current_team)))
            else:
                state.forfeit()  # the idle team passes
            continue
        if state.phase is Phase.CLUE:
            turns += 1
            if turns > max_turns:
                state.abandon()
                break
            state.apply(spymaster.give_clue(state.spymaster_view(team)))
        elif state.phase is Phase.GUESS:
            state.apply(guesser.guess(state.guesser_view(team)))
        else:
            state.apply(spymaster.choose_cover(state.spymaster_view(team)))
    return _figures(state, team, turns)


def two_team(rules: RuleSet, deck: Sequence[str], seed: int, seats: Seats,
             team: Team) -> GameFigures:
    """A full game; the figures are ``team``'s."""
    record = play_game(rules, seats, seed=seed, deck=deck)
    numbers, found = _clue_figures(record.events, team)
    assassin = record.outcome.reason is EndReason.ASSASSIN and record.outcome.winner is not team
    return GameFigures(record.outcome.winner is team, len(numbers), assassin, numbers, found)


def _figures(state: GameState, team: Team, turns: int) -> GameFigures:
    outcome = state.outcome
    assert outcome is not None
    numbers, found = _clue_figures(state.events, team)
    assassin = outcome.reason is EndReason.ASSASSIN and outcome.winner is not team
    return GameFigures(outcome.winner is team, turns, assassin, numbers, found)


def _clue_figures(events: Sequence[object], team: Team) -> tuple[tuple[int, ...],
                                                                 tuple[int, ...]]:
    """Each valid clue's number and the own cards found in its turn (capped at the number)."""
    numbers: list[int] = []
    found: list[int] = []
    for event in events:
        if isinstance(event, ClueGiven) and event.team is team:
            numbers.append(event.clue.number if isinstance(event.clue.number, int) else 0)
            found.append(0)
        elif (isinstance(event, GuessMade) and event.team is team and numbers
              and event.identity is team.agent and found[-1] < numbers[-1]):
            found[-1] += 1
    return tuple(numbers), tuple(found)
