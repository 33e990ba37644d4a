"""Teams, roles and card identities: the vocabulary every other module speaks."""

from __future__ import annotations

from enum import Enum


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
    """What the key says a card is."""

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
