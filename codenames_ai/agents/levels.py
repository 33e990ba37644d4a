"""How hard the opposing AI team plays against a person: ``easy``, ``normal`` or ``hard``.

A level changes only the *other* team. Its clues stay sensible at every level; what changes is
how well its guesser understands them. At ``hard`` (today's strength) the AI spymaster and AI
guesser share their three minds, so nearly every clue lands. At ``normal`` and ``easy`` the
guesser thinks with one mind the spymaster does not consult, as a team of two different people
would: it misreads some clues, touches the wrong card, and needs more turns. The AIs on the
person's own team are the same at every level. The paces are measured by
``python -m benchmarks.levels`` (figures in the README).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..core.cards import Role, Team

# The levels are a choice of the core (``core.choices``); named here too, beside their teams.
from ..core.choices import DEFAULT_LEVEL as DEFAULT_LEVEL
from ..core.choices import Level as Level
from ..core.errors import choose
from ..core.rules import Variant
from .registry import LEVEL_GUESSER, LEVEL_SPYMASTER, takes_option

if TYPE_CHECKING:
    # The opposing team at each level; built on first use (PEP 562 ``__getattr__`` below),
    # since the levels name the panel's minds and importing the panel loads the word-vector
    # machinery, which the command line's start should not wait for.
    LEVELS: Mapping[Level, OpposingTeam]


@dataclass(frozen=True)
class OpposingTeam:
    """The agents (registry ids and options) of the team playing against the person.
    ``None`` ids mean "the same agents as the person's team" (``hard``)."""

    level: Level
    description: str
    spymaster_id: str | None = None
    spymaster_options: Mapping[str, Any] = field(default_factory=dict)
    guesser_id: str | None = None
    guesser_options: Mapping[str, Any] = field(default_factory=dict)

    def agent(self, role: Role, person_id: str, person_options: Mapping[str, Any]
              ) -> tuple[str, dict[str, Any]]:
        """The registry id and options of this team's ``role`` seat, given the id and options
        of the same seat on the person's team: ``hard`` plays with those; the other levels
        with their own agent, which keeps only the person's options that do not choose its
        mind (the cache folder, a picture deck's captions)."""
        own_id = self.spymaster_id if role is Role.SPYMASTER else self.guesser_id
        if own_id is None:
            return person_id, dict(person_options)
        own = self.spymaster_options if role is Role.SPYMASTER else self.guesser_options
        shared = {name: value for name, value in person_options.items()
                  if name not in _MIND_OPTIONS and takes_option(own_id, name)}
        return own_id, {**shared, **own}


_MIND_OPTIONS = frozenset({"model", "minds", "known_by", "risk"})


def _held_out(mind: str) -> dict[str, Any]:
    """A panel spymaster that judges without ``mind`` (its clue words are still ones every
    mind knows, so its guesser on ``mind`` can read them)."""
    from .panel import DEFAULT_MINDS

    return {"minds": tuple(m for m in DEFAULT_MINDS if m != mind), "known_by": DEFAULT_MINDS}


@functools.cache
def _levels() -> Mapping[Level, OpposingTeam]:
    """The opposing team at each level (``LEVELS``)."""
    return MappingProxyType({
        Level.EASY: OpposingTeam(
            Level.EASY,
            # the descriptions are what a player reads (the web's level hint): plain words,
            # no model names; the README keeps the detail
            "the other team's guesser often misunderstands its spymaster, who thinks of "
            "words differently, and never goes back to an earlier clue: it touches wrong "
            "cards and needs many turns",
            LEVEL_SPYMASTER, _held_out("wordnet-3.0"),
            LEVEL_GUESSER, {"minds": ("wordnet-3.0",), "leftover_z": float("inf")}),
        Level.NORMAL: OpposingTeam(
            Level.NORMAL,
            "the other team's guesser thinks of words differently from its spymaster, as "
            "two people would: it sometimes misreads a clue",
            LEVEL_SPYMASTER, _held_out("glove-6b-50d"),
            LEVEL_GUESSER, {"minds": ("glove-6b-50d",)}),
        Level.HARD: OpposingTeam(
            Level.HARD,
            "the other team plays with the same AIs as your team: its clues nearly "
            "always land"),
    })


def __getattr__(name: str) -> object:
    if name == "LEVELS":
        return _levels()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def opposing_team(level: Level | str) -> OpposingTeam:
    """The opposing team at ``level`` (a ``Level`` or its name)."""
    return _levels()[level if isinstance(level, Level) else choose(Level, level, "level")]


def opposes_people(team: Team, *, variant: Variant, people: Collection[Team | None]) -> bool:
    """Whether ``team`` is the AI team playing against people, whose agents the level
    chooses: in standard play, with people in the game (``people``: the teams they play
    for) and none on ``team``. Co-op, three-player and AI-only games have no such team."""
    return variant is Variant.STANDARD and bool(people) and team not in people


def ai_seat(level: Level | str, role: Role, team: Team, agent_id: str,
            options: Mapping[str, Any], *, variant: Variant, people: Collection[Team | None]
            ) -> tuple[str, dict[str, Any]]:
    """The registry id and options of the AI in ``team``'s ``role`` seat, given those the
    game chose for the seat (``agent_id``, ``options``): the level's agents on the team that
    plays against people (``opposes_people``); the chosen ones everywhere else (the people's
    own AI teammates are the same at every level). The one seating plan of a level's AIs:
    the terminal game, the web and the blind readers' games seat through it."""
    if opposes_people(team, variant=variant, people=people):
        return opposing_team(level).agent(role, agent_id, options)
    return agent_id, dict(options)
