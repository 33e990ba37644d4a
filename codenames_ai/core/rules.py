"""Rule sets: the frozen configuration of a game, apart from its state.

An edition (Words, Pictures, custom) is a layout plus switches. Every variant of
docs/rules.md is a field here, never a fork of the engine.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any

from .errors import ConfigError, choose


class GuessLimit(Enum):
    """How many guesses a numbered clue allows.

    ``CLASSIC``: the clue's number plus one.
    ``STRICT``: the clue's number, plus one only while the team has leftover cards from its
    own earlier clues (see ``GameState.leftover`` for exactly how they are counted).
    Clues ``0`` and ``unlimited`` allow unlimited guesses under both.
    """

    CLASSIC = "classic"
    STRICT = "strict"


class Variant(Enum):
    """Player-count variants (docs/rules.md, Player-count variants)."""

    STANDARD = "standard"
    COOP = "coop"  # two players against a virtual team
    THREE_PLAYER = "three-player"  # one operative guesses for both teams


class EditionName(Enum):
    """The editions by name: the two boxed ones (``EDITIONS``) and a custom layout."""

    WORDS = "words"
    PICTURES = "pictures"
    CUSTOM = "custom"


class ClueRulesName(Enum):
    """The named clue-rule presets (``codenames_ai.legality.rules.PRESETS`` says what each
    checks); house rules are named ``house:a+b`` beside these."""

    CLASSIC = "classic"
    STRICT = "strict"
    FLEXIBLE = "flexible"
    PICTURES = "pictures"


class InvalidCluePolicy(Enum):
    """What the engine does with an invalid clue.

    ``PENALTY``: the table rule: the turn ends and the opposing spymaster covers one of its
    own agents. ``REJECT``: the clue is refused with the broken rule and the spymaster tries
    again (a person typing a clue at a checked prompt).
    """

    PENALTY = "penalty"
    REJECT = "reject"


# The most cards a board holds (a 25x25 grid, more than the shipped deck's 577 words): every
# agent scores each clue against every card, so a larger board only costs memory and minutes.
MAX_CARDS = 625


@dataclass(frozen=True)
class Layout:
    """The grid and how many cards of each identity the key holds.

    ``first_team_agents`` counts the starting team's agents *without* the double agent;
    with ``double_agent`` the starting team has one card more to find.
    """

    rows: int
    cols: int
    first_team_agents: int
    second_team_agents: int
    double_agent: bool
    bystanders: int
    assassins: int

    def __post_init__(self) -> None:
        for name in ("rows", "cols", "first_team_agents", "second_team_agents", "bystanders",
                     "assassins"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"layout {name} must be a whole number, got {value!r}")
            if value < 0:
                raise ConfigError(f"layout {name} must not be negative, got {value}")
        if self.rows < 1 or self.cols < 1:
            raise ConfigError(
                f"a grid needs at least one row and one column, got {self.rows}x{self.cols}"
            )
        if self.cells > MAX_CARDS:
            raise ConfigError(f"a {self.rows}x{self.cols} grid has {self.cells:,} cards; a "
                              f"board holds at most {MAX_CARDS} (25x25)")
        if self.starting_team_cards < 1 or self.second_team_agents < 1:
            raise ConfigError(
                "each team needs at least one agent card "
                f"(starting team: {self.starting_team_cards}, other team: "
                f"{self.second_team_agents})"
            )
        total = (self.starting_team_cards + self.second_team_agents + self.bystanders
                 + self.assassins)
        if total != self.cells:
            fix = (f"set bystanders to {self.bystanders + self.cells - total}"
                   if self.bystanders + self.cells - total >= 0
                   else "use fewer agents or a larger grid")
            raise ConfigError(
                f"a {self.rows}x{self.cols} grid has {self.cells} cards but the key has {total} "
                f"({self.starting_team_cards} starting-team + {self.second_team_agents} "
                f"other-team + {self.bystanders} bystanders + {self.assassins} assassins); {fix}"
            )

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def starting_team_cards(self) -> int:
        """Agents the starting team must find, the double agent included."""
        return self.first_team_agents + (1 if self.double_agent else 0)


WORDS_LAYOUT = Layout(rows=5, cols=5, first_team_agents=8, second_team_agents=8,
                      double_agent=True, bystanders=7, assassins=1)
PICTURES_LAYOUT = Layout(rows=4, cols=5, first_team_agents=7, second_team_agents=7,
                         double_agent=True, bystanders=4, assassins=1)


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides what is legal in a game. Frozen; a game's state points to one.

    ``clue_rules`` names the clue rules (``"classic"``, ``"strict"``, ``"flexible"``,
    ``"pictures"``, ``"house:..."`` from the legality layer, or ``"basic"``: the core's own checks
    only). Time limits are seconds per move, ``None`` for no limit.
    """

    edition: str
    layout: Layout
    guess_limit: GuessLimit = GuessLimit.CLASSIC
    variant: Variant = Variant.STANDARD
    allow_zero_clue: bool = True
    allow_unlimited_clue: bool = True
    invalid_clue_policy: InvalidCluePolicy = InvalidCluePolicy.PENALTY
    clue_rules: str = "classic"
    clue_time_limit: float | None = None
    guess_time_limit: float | None = None

    def __post_init__(self) -> None:
        editions = [name.value for name in EditionName]
        if self.edition not in editions:
            raise ConfigError(f"unknown edition {self.edition!r}; choose one of: "
                              f"{', '.join(editions)}")
        for name in ("clue_time_limit", "guess_time_limit"):
            limit = getattr(self, name)
            if limit is not None and not (isinstance(limit, int | float) and limit > 0
                                          and math.isfinite(limit)):
                raise ConfigError(f"{name} must be a positive, finite number of seconds, "
                                  f"got {limit!r}")

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed, e.g. ``WORDS.with_options(variant=Variant.COOP)``."""
        try:
            return replace(self, **changes)
        except TypeError as exc:
            raise ConfigError(f"unknown rule option: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (enums as their values)."""
        data = asdict(self)
        data["guess_limit"] = self.guess_limit.value
        data["variant"] = self.variant.value
        data["invalid_clue_policy"] = self.invalid_clue_policy.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of ``to_dict``; raises ``ConfigError`` on anything it does not know."""
        try:
            fields = dict(data)
            fields["layout"] = Layout(**fields["layout"])
            fields["guess_limit"] = GuessLimit(fields["guess_limit"])
            fields["variant"] = Variant(fields["variant"])
            fields["invalid_clue_policy"] = InvalidCluePolicy(fields["invalid_clue_policy"])
            return cls(**fields)
        except ConfigError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"malformed rule set {data!r}: {exc}") from None


WORDS = RuleSet(edition="words", layout=WORDS_LAYOUT)
PICTURES = RuleSet(edition="pictures", layout=PICTURES_LAYOUT, clue_rules="pictures")

EDITIONS: dict[str, RuleSet] = {EditionName.WORDS.value: WORDS,
                                EditionName.PICTURES.value: PICTURES}


def edition(name: str) -> RuleSet:
    """The rule set of a boxed edition by name (``"words"`` or ``"pictures"``)."""
    try:
        return EDITIONS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(EDITIONS))
        raise ConfigError(
            f"unknown edition {name!r}; choose one of: {known} (or build a custom Layout)"
        ) from None


def custom(layout: Layout, **options: Any) -> RuleSet:
    """A rule set for a custom layout (any rectangle and any counts that fit)."""
    return RuleSet(edition="custom", layout=layout).with_options(**options)


def variant(name: str) -> Variant:
    """A player-count variant by name, with a clear error for unknown names."""
    return choose(Variant, name, "variant")


def guess_limit(name: str) -> GuessLimit:
    """A guess-limit rule by name, with a clear error for unknown names."""
    return choose(GuessLimit, name, "guess limit")


# Ratings for a co-operative win, by score (virtual agents still uncovered). Our own words.
COOP_RATINGS: dict[int, str] = {
    0: "Scraped through",
    1: "Made it",
    2: "Decent",
    3: "Solid",
    4: "Strong",
    5: "Excellent",
    6: "Outstanding",
    7: "Masterful",
    8: "Legendary",
}


def coop_rating(score: int) -> str:
    """The rating name for a co-operative score (8 and above is the best)."""
    return COOP_RATINGS[max(0, min(score, 8))]
