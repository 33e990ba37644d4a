"""Teams, roles and card identities: the vocabulary every other module speaks."""

from __future__ import annotations

from enum import Enum, IntEnum


class Team(Enum):
    """One of the two teams. ``Team.RED.other`` is ``Team.BLUE``."""

    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Team:
        return Team.BLUE if self is Team.RED else Team.RED

    @property
    def agent(self) -> Identity:
        """The card identity of this team's agents."""
        return Identity.RED if self is Team.RED else Identity.BLUE


class Role(Enum):
    """A seat at the table: spymasters see the key, guessers (operatives) do not."""

    SPYMASTER = "spymaster"
    GUESSER = "guesser"


class Identity(Enum):
    """What the key says a card is. ``letter`` / ``from_letter`` spell it as a key is typed
    (R red, B blue, N bystander, A assassin), ``number`` as a number (1 to 4), ``standing`` as
    a team sees it: the one codec for a card's identity."""

    RED = "red"
    BLUE = "blue"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"

    @property
    def team(self) -> Team | None:
        """The team whose agent this is, or ``None`` for bystanders and assassins."""
        if self is Identity.RED:
            return Team.RED
        if self is Identity.BLUE:
            return Team.BLUE
        return None

    @property
    def letter(self) -> str:
        """``R``, ``B``, ``N`` (bystander, a neutral card) or ``A`` (assassin)."""
        return _LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Identity:
        """The identity a key letter stands for, in either case; ``ValueError`` otherwise."""
        for identity, known in _LETTERS.items():
            if letter.upper() == known:
                return identity
        raise ValueError(f"{letter!r} is not a key letter; use R (red), B (blue), "
                         "N (bystander), A (assassin)")

    @property
    def number(self) -> int:
        """1 red, 2 blue, 3 bystander, 4 assassin (0 is left for a card not shown)."""
        return _NUMBERS[self]

    def standing(self, team: Team) -> Standing:
        """What this card is to ``team``: its own agent, the other team's, a bystander or the
        assassin."""
        if self is team.agent:
            return Standing.OWN
        if self is Identity.ASSASSIN:
            return Standing.ASSASSIN
        if self is Identity.BYSTANDER:
            return Standing.BYSTANDER
        return Standing.OPPONENT


class Standing(IntEnum):
    """A card's identity as one team sees it; the numbers are the agents' array codes."""

    OWN = 0
    OPPONENT = 1
    BYSTANDER = 2
    ASSASSIN = 3


_LETTERS = {Identity.RED: "R", Identity.BLUE: "B", Identity.BYSTANDER: "N",
            Identity.ASSASSIN: "A"}
_NUMBERS = {Identity.RED: 1, Identity.BLUE: 2, Identity.BYSTANDER: 3, Identity.ASSASSIN: 4}
