"""A match: the one place agents are asked for moves. No I/O.

``Match.step`` asks the seat to move for its move within its time budget
(``RuleSet.clue_time_limit`` / ``guess_time_limit``), checks the answer's type and applies
it; ``Match.play`` steps to the end. A move that is not back within its budget is forfeited
(``GameState.forfeit``); a move that never returns is left running on a daemon thread and
the game goes on without it. The wait is timed by the match's ``MoveClock`` (``clock.py``):
the real one in play, a virtual one in tests.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from .actions import Action, Clue, Cover, Guess, Pass
from .board import Board, deal, derive_seed
from .cards import Role, Team
from .clock import MONOTONIC, MoveClock
from .clues import ClueValidator
from .errors import (
    AgentError,
    ConfigError,
    GameInterrupted,
    IllegalActionError,
    MoveTimedOut,
)
from .protocols import agent_id
from .record import GameRecord
from .rules import RuleSet
from .seats import Seats
from .state import EndReason, GameState
from .views import Phase

T = TypeVar("T")
V = TypeVar("V")

DEFAULT_MAX_TURNS = 200


class IdleSeat:
    """An empty seat (the other team in a single-team race): the engine forfeits its clue
    and guess moves at once and makes its covers, so the team in play races alone."""

    agent_id = "idle"

    # The match never asks an idle seat to move.
    def give_clue(self, view: object) -> Clue:
        raise RuntimeError("an idle seat does not give clues")

    def choose_cover(self, view: object) -> Cover:
        raise RuntimeError("an idle seat does not choose covers")

    def guess(self, view: object) -> Guess | Pass:
        raise RuntimeError("an idle seat does not guess")


IDLE = IdleSeat()


class OutsideSeat:
    """A seat whose moves are applied to the state from outside the match (a person on a
    web page, a reader's commands): the match is never asked to move it."""

    def __init__(self, agent_id: str, source: str) -> None:
        self.agent_id = agent_id
        self.source = source  # where its moves come from, for the error if it is asked

    def give_clue(self, view: object) -> Clue:
        raise IllegalActionError(f"the {self.agent_id}'s clue comes from {self.source}")

    def choose_cover(self, view: object) -> Cover:
        raise IllegalActionError(f"the {self.agent_id}'s cover comes from {self.source}")

    def guess(self, view: object) -> Guess | Pass:
        raise IllegalActionError(f"the {self.agent_id}'s guess comes from {self.source}")


class MoveResult(Enum):
    """What became of one step of a match."""

    PLAYED = "played"  # the seat's answer was applied
    TIMED_OUT = "timed-out"  # over its budget, or an idle seat: forfeited without a reason
    FORFEITED = "forfeited"  # a contained fault (crash, wrong type, illegal): forfeited
    STOPPED = "stopped"  # the agent stopped the game (GameInterrupted): nobody wins
    ABANDONED = "abandoned"  # the turn limit came first: nobody wins, nobody was asked


@dataclass(frozen=True)
class Move:
    """One step of a match: which seat was to move, its agent, and what became of it."""

    team: Team
    role: Role
    agent: Any
    result: MoveResult
    action: Action | None = None  # the move applied (PLAYED only)
    reason: str | None = None  # why a FORFEITED move was forfeited

    @property
    def seat(self) -> str:
        return f"{self.team.value} {self.role.value}"


class Match:
    """One game between ``seats`` on ``state``, played a move at a time or to the end.

    Each distinct agent's ``start_game(seed)`` hook, if it has one, gets a seed derived from
    ``seed`` and its seat when the match is made. With ``reseed_every_move`` the hook is
    called before every move instead, with a seed derived from ``seed``, the seat and the
    move number, so a match rebuilt from a prefix of its moves (``first_move`` = how many)
    plays on exactly as the original did.

    A crash, an answer of the wrong type or an illegal move raises ``AgentError`` naming
    the seat; with ``contain_faults`` it is forfeited instead, with its reason (a
    ``Forfeited`` event), and the game goes on. A game still running after ``max_turns``
    turns is abandoned (``None``: never). ``clock`` times the moves' budgets: ``MONOTONIC``
    in play, a ``VirtualClock`` that a test advances.
    """

    def __init__(self, state: GameState, seats: Seats, *, seed: int,
                 max_turns: int | None = DEFAULT_MAX_TURNS,
                 clock: MoveClock = MONOTONIC,
                 contain_faults: bool = False, reseed_every_move: bool = False,
                 first_move: int = 0) -> None:
        _check(state.rules, seats, max_turns)
        self.state = state
        self.seats = seats
        self.seed = seed
        self.max_turns = max_turns
        self.clock = clock
        self.contain_faults = contain_faults
        self.reseed_every_move = reseed_every_move
        self.moves_made = first_move  # numbers the per-move seeds
        if not reseed_every_move:
            _start_agents(seats, seed)

    @classmethod
    def new(cls, rules: RuleSet, seats: Seats, *, seed: int,
            deck: Sequence[str] | None = None, board: Board | None = None,
            validator: ClueValidator | None = None,
            max_turns: int | None = DEFAULT_MAX_TURNS,
            clock: MoveClock = MONOTONIC,
            contain_faults: bool = False, reseed_every_move: bool = False) -> Match:
        """A match on a fresh game: give either ``deck`` (dealt with ``seed``) or ``board``."""
        if (deck is None) == (board is None):
            raise ConfigError("give either a deck to deal from or a board, not both or neither")
        _check(rules, seats, max_turns)  # before dealing: a bad setup is named first
        if board is None:
            assert deck is not None
            board = deal(rules, deck, seed)
        return cls(GameState(rules, board, validator=validator), seats, seed=seed,
                   max_turns=max_turns, clock=clock, contain_faults=contain_faults,
                   reseed_every_move=reseed_every_move)

    def step(self) -> Move:
        """Play the next move (``IllegalActionError`` if the game is over)."""
        state = self.state
        if state.is_over:
            raise IllegalActionError("the game is over; no more moves")
        team, role = state.current_team, state.current_role
        assert role is not None
        agent = self.seats.guesser(team) if role is Role.GUESSER else self.seats.spymaster(team)
        if self.max_turns is not None and state.turn > self.max_turns:
            state.abandon()
            return Move(team, role, agent, MoveResult.ABANDONED)
        if agent is IDLE:
            return self._forfeited(Move(team, role, agent, MoveResult.TIMED_OUT))
        seat = f"{team.value} {role.value}"
        try:
            if self.reseed_every_move:
                _start(agent, derive_seed(self.seed, f"{seat} {self.moves_made}"), seat)
            action = self._ask(agent, team, seat)
        except MoveTimedOut:  # an agent with its own clock (a person) answered too late
            action = None
        except AgentError as exc:
            if not self.contain_faults:
                raise
            return self._forfeited(Move(team, role, agent, MoveResult.FORFEITED,
                                        reason=str(exc)[:300]))
        except GameInterrupted:
            state.abandon(EndReason.STOPPED)
            return Move(team, role, agent, MoveResult.STOPPED)
        if action is None:
            return self._forfeited(Move(team, role, agent, MoveResult.TIMED_OUT))
        self.moves_made += 1
        return Move(team, role, agent, MoveResult.PLAYED, action=action)

    def play(self) -> GameRecord:
        """Step to the end; the game's record."""
        while not self.state.is_over:
            self.step()
        return self.record()

    def record(self) -> GameRecord:
        """The finished game's record."""
        return GameRecord.from_state(
            self.state, seed=self.seed,
            agents=tuple((s, agent_id(a)) for s, a in self.seats.labelled()))

    def _forfeited(self, move: Move) -> Move:
        self.state.forfeit(move.reason)
        self.moves_made += 1
        return move

    def _ask(self, agent: Any, team: Team, seat: str) -> Action | None:
        """The seat's answer, applied; ``None`` if it overran its budget."""
        state, rules = self.state, self.state.rules
        answer: object
        if state.phase is Phase.GUESS:
            answer = _timed(agent.guess, state.guesser_view(team), rules.guess_time_limit,
                            seat, self.clock)
            expected: tuple[type[Action], ...] = (Guess, Pass)
        else:
            move = agent.choose_cover if state.phase is Phase.COVER else agent.give_clue
            answer = _timed(move, state.spymaster_view(team), rules.clue_time_limit, seat,
                            self.clock)
            expected = (Cover,) if state.phase is Phase.COVER else (Clue,)
        if answer is _TIMED_OUT:
            return None
        if not isinstance(answer, Clue | Guess | Pass | Cover) or not isinstance(answer, expected):
            names = " or ".join(t.__name__ for t in expected)
            raise AgentError(seat, f"returned {answer!r}; a {state.phase.value} move must be "
                                   f"{names}")
        try:
            state.apply(answer)
        except IllegalActionError as exc:
            raise AgentError(seat, f"illegal move {answer!r}: {exc}") from exc
        return answer


def _check(rules: RuleSet, seats: Seats, max_turns: int | None) -> None:
    if max_turns is not None and max_turns < 1:  # abandoned before its first clue
        raise ConfigError(f"max_turns must be at least 1, got {max_turns}")
    seats.check(rules.variant)


def _start_agents(seats: Seats, seed: int) -> None:
    started: set[int] = set()
    for seat, agent in seats.labelled():
        if id(agent) not in started:  # a seat shared by both teams starts once
            started.add(id(agent))
            _start(agent, derive_seed(seed, seat), seat)


def _start(agent: object, seed: int, seat: str) -> None:
    hook = getattr(agent, "start_game", None)
    if callable(hook):
        try:
            hook(seed)
        except Exception as exc:
            raise AgentError(seat, f"start_game crashed: {type(exc).__name__}: {exc}") from exc


class _TimedOut:
    """Marks a move that overran its budget."""


_TIMED_OUT = _TimedOut()


def _timed(move: Callable[[V], T], view: V, budget: float | None, seat: str,
           clock: MoveClock) -> T | _TimedOut:
    """Call ``move(view)``; return ``_TIMED_OUT`` if it overran ``budget`` seconds of
    ``clock``."""
    if budget is None:
        try:
            return move(view)
        except (GameInterrupted, MoveTimedOut):
            raise
        except Exception as exc:
            raise AgentError(seat, f"crashed: {type(exc).__name__}: {exc}") from exc
    results: list[T] = []
    errors: list[BaseException] = []
    decided = threading.Event()  # set by the move's return, or by the clock at the deadline

    def run() -> None:
        try:
            results.append(move(view))
        except BaseException as exc:  # handed to the match's thread below
            errors.append(exc)
        finally:
            decided.set()

    started = clock.now()
    worker = threading.Thread(target=run, name=f"codenames {seat}", daemon=True)
    worker.start()
    clock.wait(decided, started + budget)
    # A move that returned but took more than its budget is late too (a clock only ends a
    # wait past the deadline, so what is judged here never depends on which came first).
    if not (results or errors) or clock.now() - started > budget:
        return _TIMED_OUT
    if errors:
        error = errors[0]
        if isinstance(error, GameInterrupted | MoveTimedOut):
            raise error
        raise AgentError(seat, f"crashed: {type(error).__name__}: {error}") from error
    return results[0]
