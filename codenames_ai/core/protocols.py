"""What an agent must implement to sit at the table.

Agents receive views, never the state. ``start_game`` is an optional lifecycle hook the
runner calls with a seed derived from the game seed, so random agents are reproducible.
``prepare_board`` and ``model_names`` are optional hooks for whoever runs many games (the
harness, a server): call them through the functions of the same name here, which give an
agent without the hook the default (no work; no models), so no caller looks inside an agent.
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


@runtime_checkable
class PreparesBoard(Protocol):
    """An agent with work to do on a board before its first move, shared with other agents
    on the same board (legality of the cards, similarities), or loaded once per process
    (its models' tables): ``words`` empty warms only the latter."""

    def prepare_board(self, clue_rules: str, words: tuple[str, ...]) -> None:
        ...


@runtime_checkable
class NamesModels(Protocol):
    """An agent that plays with word models, which it names (``load_model`` names)."""

    def model_names(self) -> tuple[str, ...]:
        ...


def prepare_board(agent: object, clue_rules: str, words: tuple[str, ...]) -> None:
    """Have ``agent`` do its ``prepare_board`` work, if it has a ``prepare_board`` hook."""
    if isinstance(agent, PreparesBoard):
        agent.prepare_board(clue_rules, words)


def model_names(agent: object) -> tuple[str, ...]:
    """The word models ``agent`` plays with: its ``model_names()``, or none."""
    if isinstance(agent, NamesModels):
        return tuple(agent.model_names())
    return ()


def agent_id(agent: object) -> str:
    """The id a record stores for ``agent``: its ``agent_id`` attribute if it has one,
    otherwise ``module:Class``."""
    declared = getattr(agent, "agent_id", None)
    if isinstance(declared, str) and declared:
        return declared
    cls = type(agent)
    return f"{cls.__module__}:{cls.__qualname__}"
