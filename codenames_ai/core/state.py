"""The game state: apply actions, derive views, decide the outcome. No I/O, no agents."""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from .actions import UNLIMITED, Action, Clue, Cover, Guess, Pass
from .board import Board
from .cards import Identity, Role, Team
from .clues import (
    ClueContext,
    ClueValidator,
    ClueViolation,
    check_clue_basics,
    check_clue_rules_known,
    resolve_validator,
)
from .errors import ConfigError, IllegalActionError, IllegalClueError
from .events import (
    Abandoned,
    ClueGiven,
    Covered,
    CoverReason,
    Event,
    Forfeited,
    GuessMade,
    InvalidClue,
    Passed,
    TimedOut,
)
from .rules import GuessLimit, InvalidCluePolicy, RuleSet, Variant, coop_rating
from .views import GuesserView, Phase, PublicView, SpymasterView


class EndReason(Enum):
    AGENTS_COVERED = "agents-covered"  # the winner's agents are all covered
    ASSASSIN = "assassin"  # the loser touched the assassin
    TURN_LIMIT = "turn-limit"  # the runner stopped the game; nobody wins
    STOPPED = "stopped"  # a player quit; nobody wins


@dataclass(frozen=True)
class Outcome:
    """How a game ended. In the co-operative variant a real-team win carries its score
    (virtual agents still uncovered) and the rating for that score."""

    winner: Team | None
    reason: EndReason
    turns: int
    coop_score: int | None = None
    coop_rating: str | None = None


@dataclass(frozen=True)
class CoverTask:
    """``chooser``'s spymaster must cover one of ``team``'s unrevealed agents."""

    team: Team
    chooser: Team
    reason: CoverReason


@dataclass
class _Turn:
    team: Team
    clue: Clue | None = None
    guesses: int = 0
    correct: int = 0
    limit: int | None = None  # None: unlimited


class GameState:
    """A game in progress. Change it only through ``apply``, ``forfeit`` and ``abandon``.

    Leftover cards (for the strict "+1" rule, and shown to guessers under either rule):
    each team keeps a count. After a turn with a valid numbered clue ``N >= 1`` in which the
    team covered ``c`` of its own agents, the count changes by ``N - c`` (it falls when the
    extra guess found an own agent). After a ``0`` clue it falls by ``c``. An ``unlimited``
    clue gives no count and leaves it as it is. The count never goes below zero and never
    exceeds the team's own agents still face up (agents the other team uncovered stop being
    leftovers). Invalid clues and timeouts leave it as it is.
    """

    def __init__(self, rules: RuleSet, board: Board, *,
                 validator: ClueValidator | None = None) -> None:
        board.check_fits(rules.layout)
        if validator is None:
            # Resolved on the first clue check that needs it (``validator``): loading the
            # clue rules costs the legality package and numpy, which many games never need.
            check_clue_rules_known(rules.clue_rules)
        elif validator.name != rules.clue_rules:
            raise ConfigError(
                f"validator {validator.name!r} does not match the rule set's clue rules "
                f"{rules.clue_rules!r}"
            )
        self.rules = rules
        self.board = board
        self._validator = validator
        self._revealed: list[bool] = [False] * len(board.words)
        self._events: list[Event] = []
        self._phase = Phase.CLUE
        self._turn_number = 1
        self._turn = _Turn(team=board.starting_team)
        self._covers: deque[CoverTask] = deque()
        self._next_team: Team = board.starting_team
        self._leftover = {Team.RED: 0, Team.BLUE: 0}
        self._outcome: Outcome | None = None

    def clone(self) -> GameState:
        """An independent copy for lookahead and search: moves applied to the copy leave
        this game as it is, and the other way round. The board, rules and validator are
        shared (they never change); events, covers and outcomes are frozen values."""
        twin = copy.copy(self)
        twin._revealed = list(self._revealed)
        twin._events = list(self._events)
        twin._turn = replace(self._turn)
        twin._covers = deque(self._covers)
        twin._leftover = dict(self._leftover)
        return twin

    # ----------------------------------------------------------------- reading the state

    @property
    def validator(self) -> ClueValidator:
        """The clue rules' validator, given or resolved by name on first use."""
        if self._validator is None:
            self._validator = resolve_validator(self.rules.clue_rules)
        return self._validator

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_team(self) -> Team:
        """The team that moves now (in the cover phase: the team whose spymaster chooses)."""
        if self._phase is Phase.COVER:
            return self._covers[0].chooser
        return self._turn.team

    @property
    def current_role(self) -> Role | None:
        """The role that moves now, ``None`` once the game is over."""
        if self._phase is Phase.OVER:
            return None
        return Role.GUESSER if self._phase is Phase.GUESS else Role.SPYMASTER

    @property
    def turn(self) -> int:
        return self._turn_number

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def event_count(self) -> int:
        """``len(events)`` without copying them."""
        return len(self._events)

    def events_since(self, start: int) -> tuple[Event, ...]:
        """The events from the ``start``-th on (counted from 0): what the last moves made,
        without copying the whole history (a loop over moves stays linear)."""
        return tuple(self._events[start:])

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def cover_task(self) -> CoverTask | None:
        return self._covers[0] if self._phase is Phase.COVER else None

    @property
    def real_team(self) -> Team | None:
        """In the co-operative variant, the players' team (it starts); otherwise ``None``."""
        return self.board.starting_team if self.rules.variant is Variant.COOP else None

    def is_revealed(self, index: int) -> bool:
        return self._revealed[index]

    def cards_left(self, team: Team) -> int:
        """Agents of ``team`` not yet covered."""
        agent = team.agent
        return sum(1 for card, shown in zip(self.board.key, self._revealed, strict=True)
                   if card is agent and not shown)

    def leftover(self, team: Team) -> int:
        """Leftover cards from ``team``'s earlier clues (see the class docstring)."""
        return min(self._leftover[team], self.cards_left(team))

    @property
    def guesses_left(self) -> int | None:
        """Guesses the current team may still make this turn; ``None`` means unlimited."""
        if self._phase is not Phase.GUESS or self._turn.limit is None:
            return None
        return self._turn.limit - self._turn.guesses

    def cover_candidates(self) -> tuple[int, ...]:
        task = self.cover_task
        if task is None:
            return ()
        agent = task.team.agent
        return tuple(i for i, card in enumerate(self.board.key)
                     if card is agent and not self._revealed[i])

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal guess, pass or cover now. Clues cannot be listed: check one with
        ``check_clue`` (in the clue phase this returns an empty tuple)."""
        if self._phase is Phase.GUESS:
            guesses: list[Action] = [Guess(i) for i, shown in enumerate(self._revealed)
                                     if not shown]
            if self._turn.guesses >= 1:
                guesses.append(Pass())
            return tuple(guesses)
        if self._phase is Phase.COVER:
            return tuple(Cover(i) for i in self.cover_candidates())
        return ()

    def clue_context(self, team: Team | None = None) -> ClueContext:
        team = self._turn.team if team is None else team
        visible = tuple(w for w, shown in zip(self.board.words, self._revealed, strict=True)
                        if not shown)
        covered = tuple(w for w, shown in zip(self.board.words, self._revealed, strict=True)
                        if shown)
        return ClueContext(rules=self.rules, team=team, visible_words=visible,
                           covered_words=covered, cards_left=self.cards_left(team))

    def check_clue(self, clue: Clue) -> ClueViolation | None:
        """The first rule ``clue`` breaks for the team to give a clue now, or ``None``."""
        context = self.clue_context()
        violation = check_clue_basics(clue, context)
        if violation is None:  # only now are the clue rules needed
            return self.validator.check_word(clue.word.strip(), context)
        return violation

    # ----------------------------------------------------------------- views

    def _table(self, team: Team) -> dict[str, Any]:
        """Where the game stands, for a view's ``from_board`` from ``team``'s seat."""
        return dict(current_team=self.current_team, phase=self._phase,
                    turn=self._turn_number, leftover=self.leftover(team),
                    history=tuple(self._events))

    def public_view(self, team: Team) -> PublicView:
        return PublicView.from_board(self.board, self._revealed, self.rules, team,
                                     **self._table(team))

    def spymaster_view(self, team: Team) -> SpymasterView:
        """The view of ``team``'s spymaster: the public table and the key."""
        task = self.cover_task
        mine = task is not None and task.chooser is team
        return SpymasterView.from_board(
            self.board, self._revealed, self.rules, team, **self._table(team),
            cover_team=task.team if mine and task else None,
            cover_candidates=self.cover_candidates() if mine else ())

    def guesser_view(self, team: Team) -> GuesserView:
        """The view of ``team``'s operative; only during that team's guesses."""
        if self._phase is not Phase.GUESS or self._turn.team is not team:
            raise IllegalActionError(f"it is not {team.value}'s turn to guess")
        assert self._turn.clue is not None
        return GuesserView.of_table(self.public_view(team), self._turn.clue,
                                    guesses_made=self._turn.guesses,
                                    guesses_left=self.guesses_left)

    # ----------------------------------------------------------------- changing the state

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat whose move it is.

        Raises ``IllegalActionError`` (state unchanged) for an action the phase does not
        allow, and ``IllegalClueError`` for an invalid clue when the rule set refuses them;
        under the penalty policy an invalid clue is played and penalised instead.
        """
        if self._phase is Phase.OVER:
            raise IllegalActionError("the game is over; no more moves")
        if isinstance(action, Clue):
            self._give_clue(action)
        elif isinstance(action, Guess):
            self._guess(action.index)
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, Cover):
            self._cover(action.index, timed_out=False)
        else:
            raise IllegalActionError(f"{action!r} is not a Clue, Guess, Pass or Cover")

    def forfeit(self, reason: str | None = None) -> None:
        """The seat to move overran its time budget (docs/rules.md, Time budgets), or, with a
        ``reason``, its agent failed (crashed, answered garbage) and a fault-containing runner
        forfeits the move the same way.

        A clue forfeit passes the turn; a guess forfeit ends the turn. A cover cannot be
        skipped, so the engine covers the chooser's lowest-numbered candidate for it.
        """
        if self._phase is Phase.OVER:
            raise IllegalActionError("the game is over; no more moves")
        role = Role.GUESSER if self._phase is Phase.GUESS else Role.SPYMASTER
        team = self.current_team
        self._events.append(TimedOut(self._turn_number, team, role) if reason is None
                            else Forfeited(self._turn_number, team, role, reason))
        if self._phase is Phase.COVER:
            self._cover(self.cover_candidates()[0], timed_out=True)
        else:
            self._end_turn()

    def abandon(self, reason: EndReason = EndReason.TURN_LIMIT) -> None:
        """Stop the game with no winner (a runner's turn limit, or a player who quit)."""
        if self._phase is Phase.OVER:
            raise IllegalActionError("the game is over; no more moves")
        if reason not in (EndReason.TURN_LIMIT, EndReason.STOPPED):
            raise IllegalActionError(f"a game cannot be abandoned for {reason.value!r}")
        self._events.append(Abandoned(self._turn_number, reason.value))
        self._finish(None, reason)

    def _require(self, phase: Phase, what: str) -> None:
        if self._phase is not phase:
            raise IllegalActionError(
                f"{what} is not allowed now: the game waits for a {self._phase.value} move "
                f"from {self.current_team.value}"
            )

    def _give_clue(self, clue: Clue) -> None:
        self._require(Phase.CLUE, "a clue")
        team = self._turn.team
        violation = self.check_clue(clue)
        if violation is not None:
            if self.rules.invalid_clue_policy is InvalidCluePolicy.REJECT:
                raise IllegalClueError(violation.rule, violation.message)
            self._events.append(InvalidClue(self._turn_number, team, clue, violation.rule,
                                            violation.message))
            # Penalty: the opposing spymaster covers one of its own agents (in co-op the
            # players' spymaster covers it for the virtual team).
            opponent = team.other
            chooser = self.real_team or opponent
            self._covers.append(CoverTask(opponent, chooser, CoverReason.PENALTY))
            self._end_turn()
            return
        self._events.append(ClueGiven(self._turn_number, team, clue))
        self._turn.clue = clue
        self._turn.limit = self._limit_for(clue, team)
        self._phase = Phase.GUESS

    def _limit_for(self, clue: Clue, team: Team) -> int | None:
        if clue.number is UNLIMITED or clue.number == 0:
            return None
        assert isinstance(clue.number, int)
        if self.rules.guess_limit is GuessLimit.CLASSIC:
            return clue.number + 1
        return clue.number + (1 if self.leftover(team) > 0 else 0)

    def _guess(self, index: int) -> None:
        self._require(Phase.GUESS, "a guess")
        self._check_index(index)
        if self._revealed[index]:
            raise IllegalActionError(
                f"card {index} ({self.board.words[index]!r}) is already revealed"
            )
        turn = self._turn
        identity = self.board.key[index]
        self._revealed[index] = True
        turn.guesses += 1
        self._events.append(GuessMade(self._turn_number, turn.team, index,
                                      self.board.words[index], identity))
        if identity is Identity.ASSASSIN:
            self._finish(turn.team.other, EndReason.ASSASSIN)
        elif identity.team is turn.team:
            turn.correct += 1
            if self.cards_left(turn.team) == 0:
                self._finish(turn.team, EndReason.AGENTS_COVERED)
            elif turn.limit is not None and turn.guesses >= turn.limit:
                self._end_turn()
        elif identity.team is turn.team.other and self.cards_left(turn.team.other) == 0:
            self._finish(turn.team.other, EndReason.AGENTS_COVERED)
        else:  # a bystander or an opponent's agent: the turn ends at once
            self._end_turn()

    def _pass(self) -> None:
        self._require(Phase.GUESS, "passing")
        if self._turn.guesses < 1:
            raise IllegalActionError("the team must make at least one guess before passing")
        self._events.append(Passed(self._turn_number, self._turn.team))
        self._end_turn()

    def _cover(self, index: int, *, timed_out: bool) -> None:
        self._require(Phase.COVER, "covering a card")
        self._check_index(index)
        task = self._covers[0]
        if index not in self.cover_candidates():
            raise IllegalActionError(
                f"card {index} ({self.board.words[index]!r}) is not an unrevealed "
                f"{task.team.value} agent; choose one of {list(self.cover_candidates())}"
            )
        self._covers.popleft()
        self._revealed[index] = True
        self._events.append(Covered(self._turn_number, task.team, task.chooser, index,
                                    self.board.words[index],
                                    CoverReason.TIMEOUT if timed_out else task.reason))
        if self.cards_left(task.team) == 0:
            self._finish(task.team, EndReason.AGENTS_COVERED)
        elif not self._covers:
            self._start_turn(self._next_team)

    def _check_index(self, index: int) -> None:
        if not isinstance(index, int) or isinstance(index, bool) or not (
            0 <= index < len(self.board.words)
        ):
            raise IllegalActionError(
                f"card index {index!r} is not on the board (0..{len(self.board.words) - 1})"
            )

    def _end_turn(self) -> None:
        self._update_leftover()
        team = self._turn.team
        following = team.other
        if self.real_team is not None and following is not self.real_team:
            # Co-op: the virtual team's whole turn is the players' spymaster covering one of
            # its agents; then the real team plays again.
            self._turn_number += 1
            self._turn = _Turn(team=following)
            self._covers.append(CoverTask(following, self.real_team, CoverReason.VIRTUAL_TURN))
            following = self.real_team
        self._next_team = following
        if self._covers:
            self._phase = Phase.COVER
        else:
            self._start_turn(following)

    def _start_turn(self, team: Team) -> None:
        self._turn_number += 1
        self._turn = _Turn(team=team)
        self._phase = Phase.CLUE

    def _update_leftover(self) -> None:
        turn = self._turn
        clue = turn.clue
        if clue is None or clue.number is UNLIMITED:
            pass
        elif clue.number == 0:
            self._leftover[turn.team] -= turn.correct
        else:
            assert isinstance(clue.number, int)
            self._leftover[turn.team] += clue.number - turn.correct
        for team in Team:
            self._leftover[team] = max(0, min(self._leftover[team], self.cards_left(team)))

    def _finish(self, winner: Team | None, reason: EndReason) -> None:
        score = rating = None
        real = self.real_team
        if real is not None and winner is real:
            score = self.cards_left(real.other)
            rating = coop_rating(score)
        self._outcome = Outcome(winner, reason, self._turn_number, score, rating)
        self._phase = Phase.OVER
        self._covers.clear()
