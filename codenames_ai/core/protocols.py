"""What an agent must implement to sit at the table.

Agents receive views, never the state. ``start_game`` is an optional lifecycle hook the
runner calls with a seed derived from the game seed, so random agents are reproducible.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .actions import Clue, Cover, GuesserAction
from .views import GuesserView, SpymasterView


@runtime_checkable
class Spymaster(Protocol):
    """Gives clues and chooses which agent to cover when the rules say it must."""

    def give_clue(self, view: SpymasterView) -> Clue:
        """The clue for ``view.team``'s operatives."""
        ...

    def choose_cover(self, view: SpymasterView) -> Cover:
        """One of ``view.cover_candidates`` (invalid-clue penalty, co-op virtual turn)."""
        ...


@runtime_checkable
class Guesser(Protocol):
    """Touches cards (``Guess``) or stops (``Pass``, after at least one guess)."""

    def guess(self, view: GuesserView) -> GuesserAction:
        ...


def agent_id(agent: object) -> str:
    """The id a record stores for ``agent``: its ``agent_id`` attribute if it has one,
    otherwise ``module:Class``."""
    declared = getattr(agent, "agent_id", None)
    if isinstance(declared, str) and declared:
        return declared
    cls = type(agent)
    return f"{cls.__module__}:{cls.__qualname__}"
