"""What each seat may see. A guesser's view has no key field at all, by construction.

Every view is built here: ``PublicView.table`` from what lies on the table, the ``from_board``
constructors from a board, its key and which cards are covered (``GameState``'s views are
built with them), and ``held_key`` is the one place that reads a key out of a view."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from .actions import Clue
from .board import Board
from .cards import Identity, Team
from .clues import ClueContext
from .events import ClueGiven, Event
from .rules import RuleSet


class Phase(Enum):
    """Whose move it is: a clue, guesses, a spymaster covering an agent, or nobody's."""

    CLUE = "clue"
    GUESS = "guess"
    COVER = "cover"
    OVER = "over"


@dataclass(frozen=True)
class PublicView:
    """What everybody at the table sees. ``team`` is the seat's own team."""

    rules: RuleSet
    team: Team
    words: tuple[str, ...]
    revealed: tuple[Identity | None, ...]
    starting_team: Team
    current_team: Team
    phase: Phase
    turn: int
    red_left: int
    blue_left: int
    leftover: int
    history: tuple[Event, ...]

    @classmethod
    def table(cls, rules: RuleSet, words: Sequence[str], revealed: Sequence[Identity | None],
              team: Team, *, starting_team: Team | None = None,
              current_team: Team | None = None, phase: Phase = Phase.CLUE, turn: int = 1,
              red_left: int = 0, blue_left: int = 0, leftover: int = 0,
              history: Sequence[Event] = ()) -> PublicView:
        """What everybody sees at the table: the ``words``, what each covered card was
        (``revealed``, ``None`` while face up) and the counts, from ``team``'s seat. By
        default ``team`` started, moves now, in the clue phase of turn 1."""
        return PublicView(
            rules=rules, team=team, words=tuple(words), revealed=tuple(revealed),
            starting_team=starting_team or team, current_team=current_team or team,
            phase=phase, turn=turn, red_left=red_left, blue_left=blue_left,
            leftover=leftover, history=tuple(history))

    @classmethod
    def from_board(cls, board: Board, covered: Sequence[bool], rules: RuleSet, team: Team, *,
                   current_team: Team | None = None, phase: Phase = Phase.CLUE,
                   turn: int = 1, leftover: int = 0,
                   history: Sequence[Event] = ()) -> PublicView:
        """The table of ``board`` with the cards where ``covered`` is true turned over: their
        identities shown, each team's agents still face up counted (the key stays behind)."""
        if len(covered) != len(board.words):
            raise ValueError(f"{len(covered)} covered flags for {len(board.words)} cards")
        revealed = tuple(card if shown else None
                         for card, shown in zip(board.key, covered, strict=True))
        face_up = [card for card, shown in zip(board.key, covered, strict=True) if not shown]
        return PublicView.table(
            rules, board.words, revealed, team, starting_team=board.starting_team,
            current_team=current_team, phase=phase, turn=turn,
            red_left=face_up.count(Identity.RED), blue_left=face_up.count(Identity.BLUE),
            leftover=leftover, history=history)

    def cards_left(self, team: Team) -> int:
        """Agents of ``team`` still to be covered."""
        return self.red_left if team is Team.RED else self.blue_left

    @property
    def unrevealed(self) -> tuple[int, ...]:
        """Indices of cards still face up."""
        return tuple(i for i, card in enumerate(self.revealed) if card is None)

    @property
    def visible_words(self) -> tuple[str, ...]:
        return tuple(self.words[i] for i in self.unrevealed)

    def clues(self, team: Team | None = None) -> tuple[ClueGiven, ...]:
        """Valid clues given so far, by ``team`` or by both."""
        return tuple(e for e in self.history
                     if isinstance(e, ClueGiven) and (team is None or e.team is team))

    def clue_context(self) -> ClueContext:
        """The context a clue from this seat is checked in."""
        covered = tuple(self.words[i] for i, card in enumerate(self.revealed) if card)
        return ClueContext(rules=self.rules, team=self.team, visible_words=self.visible_words,
                           covered_words=covered, cards_left=self.cards_left(self.team))


@dataclass(frozen=True)
class GuesserView(PublicView):
    """An operative's view during its team's guesses: the public table and the clue."""

    clue: Clue
    guesses_made: int
    guesses_left: int | None  # None: unlimited
    can_pass: bool

    @classmethod
    def of_table(cls, table: PublicView, clue: Clue, *, guesses_made: int = 0,
                 guesses_left: int | None = None) -> GuesserView:
        """``table``'s guesser playing ``clue`` (a guesser may stop once it has guessed)."""
        return GuesserView(**_table_fields(table), clue=clue, guesses_made=guesses_made,
                           guesses_left=guesses_left, can_pass=guesses_made >= 1)


@dataclass(frozen=True)
class SpymasterView(PublicView):
    """A spymaster's view: the public table plus the key.

    In the cover phase, ``cover_candidates`` lists the agents this spymaster may cover
    (``cover_team``'s unrevealed agents); otherwise it is empty.
    """

    key: tuple[Identity, ...]
    cover_team: Team | None
    cover_candidates: tuple[int, ...]

    @classmethod
    def from_board(cls, board: Board, covered: Sequence[bool], rules: RuleSet, team: Team, *,
                   current_team: Team | None = None, phase: Phase = Phase.CLUE,
                   turn: int = 1, leftover: int = 0, history: Sequence[Event] = (),
                   cover_team: Team | None = None,
                   cover_candidates: Sequence[int] = ()) -> SpymasterView:
        """``team``'s spymaster at ``board``: ``PublicView.from_board``'s table and the key;
        in the cover phase, ``cover_team``'s agents ``cover_candidates`` to cover."""
        public = PublicView.from_board(board, covered, rules, team, current_team=current_team,
                                       phase=phase, turn=turn, leftover=leftover,
                                       history=history)
        return SpymasterView(**_table_fields(public), key=board.key, cover_team=cover_team,
                             cover_candidates=tuple(cover_candidates))

    def unrevealed_of(self, identity: Identity) -> tuple[int, ...]:
        """Indices of face-up cards with this identity."""
        return tuple(i for i in self.unrevealed if self.key[i] is identity)


def held_key(view: PublicView) -> tuple[Identity, ...] | None:
    """The key, when ``view`` holds it (a spymaster's view); ``None`` for every other seat.
    The one place outside a spymaster's own code that reads a view's key."""
    return view.key if isinstance(view, SpymasterView) else None


_PUBLIC_FIELDS = tuple(field.name for field in fields(PublicView))  # read once: views are hot


def _table_fields(table: PublicView) -> dict[str, Any]:
    """The public fields of ``table``, to build a seat's view on it."""
    return {name: getattr(table, name) for name in _PUBLIC_FIELDS}
