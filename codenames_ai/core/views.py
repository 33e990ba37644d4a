"""What each seat may see. A guesser's view has no key field at all, by construction."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .actions import Clue
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


@dataclass(frozen=True)
class SpymasterView(PublicView):
    """A spymaster's view: the public table plus the key.

    In the cover phase, ``cover_candidates`` lists the agents this spymaster may cover
    (``cover_team``'s unrevealed agents); otherwise it is empty.
    """

    key: tuple[Identity, ...]
    cover_team: Team | None
    cover_candidates: tuple[int, ...]

    def unrevealed_of(self, identity: Identity) -> tuple[int, ...]:
        """Indices of face-up cards with this identity."""
        return tuple(i for i in self.unrevealed if self.key[i] is identity)
