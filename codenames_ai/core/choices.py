"""The choices a person makes before a game, declared once for every front end: the command
line, the terminal game and the web read these (and ``rules``' enums), never a list of their
own. Each front end offers the part of a list it can play (the web has no three-player solo
game; the terminal's watching is ``codenames watch``)."""

from __future__ import annotations

from enum import Enum, StrEnum

from .rules import EDITIONS, ClueRulesName, GuessLimit, Variant


class PlayRole(Enum):
    """The part a person takes in a game."""

    GUESS = "guess"  # the AI spymaster clues for the person
    SPYMASTER = "spymaster"  # the person clues for AI guessers
    COOP = "coop"  # the 2-player co-operative variant
    THREE_PLAYER = "three-player"  # the person guesses for both teams
    WATCH = "watch"  # AI agents only

    @property
    def variant(self) -> Variant:
        """The player-count variant a game in this role is played with."""
        return {PlayRole.COOP: Variant.COOP,
                PlayRole.THREE_PLAYER: Variant.THREE_PLAYER}.get(self, Variant.STANDARD)


class Level(StrEnum):
    """How well the team playing against a person plays (``agents.levels`` says with which
    AIs): only the *other* team changes."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


DEFAULT_LEVEL = Level.NORMAL

# The roles with an opposing AI team, whose agents the level chooses. Co-op has no other
# team (a virtual one covers cards), three-player has no AI team and watching has no person.
LEVEL_ROLES = (PlayRole.GUESS, PlayRole.SPYMASTER)

# The same lists as names, for forms and JSON.
EDITION_NAMES = tuple(EDITIONS)  # the boxed editions; a custom layout is built, not chosen
VARIANT_NAMES = tuple(v.value for v in Variant)
GUESS_LIMIT_NAMES = tuple(g.value for g in GuessLimit)
CLUE_RULE_NAMES = tuple(c.value for c in ClueRulesName)
