"""The match runner: plays one game between agents and returns its record. No I/O.

Time budgets (``RuleSet.clue_time_limit`` / ``guess_time_limit``) are enforced here: a
move that is not back within its budget is forfeited (``GameState.forfeit``). A move that
never returns is left running on a daemon thread; the game goes on without it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .actions import Action, Clue, Cover, Guess, Pass
from .board import Board, deal, derive_seed
from .cards import Team
from .clues import ClueValidator
from .errors import AgentError, ConfigError, GameInterrupted, IllegalActionError, MoveTimedOut
from .protocols import Guesser, Spymaster, agent_id
from .record import GameRecord
from .rules import RuleSet, Variant
from .state import EndReason, GameState
from .views import Phase

T = TypeVar("T")
V = TypeVar("V")

DEFAULT_MAX_TURNS = 200


@dataclass(frozen=True)
class Seats:
    """Who sits where. Build with ``standard``, ``three_player`` or ``coop``."""

    red_spymaster: Spymaster
    red_guesser: Guesser
    blue_spymaster: Spymaster
    blue_guesser: Guesser

    @classmethod
    def standard(cls, *, red_spymaster: Spymaster, red_guesser: Guesser,
                 blue_spymaster: Spymaster, blue_guesser: Guesser) -> Seats:
        return cls(red_spymaster, red_guesser, blue_spymaster, blue_guesser)

    @classmethod
    def three_player(cls, *, red_spymaster: Spymaster, blue_spymaster: Spymaster,
                     guesser: Guesser) -> Seats:
        """Two spymasters and one operative who guesses for both teams."""
        return cls(red_spymaster, guesser, blue_spymaster, guesser)

    @classmethod
    def coop(cls, *, spymaster: Spymaster, guesser: Guesser) -> Seats:
        """The two players of the co-operative variant; they play whichever team starts."""
        return cls(spymaster, guesser, spymaster, guesser)

    def spymaster(self, team: Team) -> Spymaster:
        return self.red_spymaster if team is Team.RED else self.blue_spymaster

    def guesser(self, team: Team) -> Guesser:
        return self.red_guesser if team is Team.RED else self.blue_guesser

    def labelled(self) -> tuple[tuple[str, Any], ...]:
        return (("red spymaster", self.red_spymaster), ("red guesser", self.red_guesser),
                ("blue spymaster", self.blue_spymaster), ("blue guesser", self.blue_guesser))

    def check(self, variant: Variant) -> None:
        """Raise ``ConfigError`` if these seats do not fit ``variant``."""
        if variant is Variant.THREE_PLAYER and self.red_guesser is not self.blue_guesser:
            raise ConfigError("the three-player variant needs one guesser for both teams; "
                              "use Seats.three_player(...)")
        if variant is Variant.COOP and (self.red_spymaster is not self.blue_spymaster
                                        or self.red_guesser is not self.blue_guesser):
            raise ConfigError("the co-operative variant seats one spymaster and one guesser; "
                              "use Seats.coop(...)")


class IdleSeat:
    """An empty seat (the other team in a single-team race): the engine forfeits its clue
    and guess moves at once and makes its covers, so the team in play races alone."""

    agent_id = "idle"

    # The runner never asks an idle seat to move.
    def give_clue(self, view: object) -> Clue:
        raise RuntimeError("an idle seat does not give clues")

    def choose_cover(self, view: object) -> Cover:
        raise RuntimeError("an idle seat does not choose covers")

    def guess(self, view: object) -> Guess | Pass:
        raise RuntimeError("an idle seat does not guess")


IDLE = IdleSeat()


def play_game(rules: RuleSet, seats: Seats, *, seed: int,
              deck: Sequence[str] | None = None, board: Board | None = None,
              validator: ClueValidator | None = None,
              max_turns: int = DEFAULT_MAX_TURNS,
              clock: Callable[[], float] = time.monotonic,
              contain_faults: bool = False) -> GameRecord:
    """Play one game and return its record.

    Give either ``deck`` (cards are dealt from it with ``seed``) or a ready ``board``. Each
    distinct agent's ``start_game(seed)`` hook, if it has one, gets a seed derived from
    ``seed`` and its seat. A game still running after ``max_turns`` turns is abandoned.

    Raises ``AgentError`` when an agent crashes or answers with an illegal move, naming the
    seat; ``ConfigError`` / ``DeckError`` for a game that cannot be set up. With
    ``contain_faults`` (tournaments) such a move is forfeited instead, as if it had run out of
    time, and recorded with its reason (a ``Forfeited`` event); the game goes on. Seats
    holding ``IDLE`` have every move forfeited at once (a single-team race).
    """
    if (deck is None) == (board is None):
        raise ConfigError("give either a deck to deal from or a board, not both or neither")
    if max_turns < 1:  # the game would be abandoned before its first clue
        raise ConfigError(f"max_turns must be at least 1, got {max_turns}")
    seats.check(rules.variant)
    if board is None:
        assert deck is not None
        board = deal(rules, deck, seed)
    state = GameState(rules, board, validator=validator)
    _start_agents(seats, seed)
    while not state.is_over:
        if state.turn > max_turns:
            state.abandon()
            break
        try:
            _play_move(state, seats, clock)
        except MoveTimedOut:
            state.forfeit()
        except AgentError as exc:
            if not contain_faults:
                raise
            state.forfeit(str(exc)[:300])
        except GameInterrupted:
            state.abandon(EndReason.STOPPED)
    return GameRecord.from_state(state, seed=seed,
                                 agents=tuple((s, agent_id(a)) for s, a in seats.labelled()))


def _start_agents(seats: Seats, seed: int) -> None:
    started: set[int] = set()
    for seat, agent in seats.labelled():
        if id(agent) in started:
            continue
        started.add(id(agent))
        hook = getattr(agent, "start_game", None)
        if callable(hook):
            try:
                hook(derive_seed(seed, seat))
            except Exception as exc:
                raise AgentError(seat, f"start_game crashed: {type(exc).__name__}: {exc}") from exc


def _play_move(state: GameState, seats: Seats, clock: Callable[[], float]) -> None:
    team = state.current_team
    rules = state.rules
    if (seats.guesser(team) if state.phase is Phase.GUESS else seats.spymaster(team)) is IDLE:
        state.forfeit()
        return
    answer: object
    if state.phase is Phase.GUESS:
        seat = f"{team.value} guesser"
        answer = _timed(seats.guesser(team).guess, state.guesser_view(team),
                        rules.guess_time_limit, seat, clock)
        expected: tuple[type[Action], ...] = (Guess, Pass)
    elif state.phase is Phase.COVER:
        seat = f"{team.value} spymaster"
        answer = _timed(seats.spymaster(team).choose_cover, state.spymaster_view(team),
                        rules.clue_time_limit, seat, clock)
        expected = (Cover,)
    else:
        seat = f"{team.value} spymaster"
        answer = _timed(seats.spymaster(team).give_clue, state.spymaster_view(team),
                        rules.clue_time_limit, seat, clock)
        expected = (Clue,)
    if answer is _TIMED_OUT:
        state.forfeit()
        return
    if not isinstance(answer, Clue | Guess | Pass | Cover) or not isinstance(answer, expected):
        names = " or ".join(t.__name__ for t in expected)
        raise AgentError(seat, f"returned {answer!r}; a {state.phase.value} move must be {names}")
    try:
        state.apply(answer)
    except IllegalActionError as exc:
        raise AgentError(seat, f"illegal move {answer!r}: {exc}") from exc


class _TimedOut:
    """Marks a move that overran its budget."""


_TIMED_OUT = _TimedOut()


def _timed(move: Callable[[V], T], view: V, budget: float | None, seat: str,
           clock: Callable[[], float]) -> T | _TimedOut:
    """Call ``move(view)``; return ``_TIMED_OUT`` if it overran ``budget`` seconds."""
    if budget is None:
        try:
            return move(view)
        except (GameInterrupted, MoveTimedOut):
            raise
        except Exception as exc:
            raise AgentError(seat, f"crashed: {type(exc).__name__}: {exc}") from exc
    results: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(move(view))
        except BaseException as exc:  # handed to the runner's thread below
            errors.append(exc)

    started = clock()
    worker = threading.Thread(target=run, name=f"codenames {seat}", daemon=True)
    worker.start()
    worker.join(budget)
    if worker.is_alive() or clock() - started > budget:
        return _TIMED_OUT
    if errors:
        error = errors[0]
        if isinstance(error, GameInterrupted | MoveTimedOut):
            raise error
        raise AgentError(seat, f"crashed: {type(error).__name__}: {error}") from error
    return results[0]
