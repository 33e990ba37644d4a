"""A registry of agents under versioned ids, plus ``module:Class`` plugins.

Bump an id's version whenever an agent's behaviour changes, so old results stay comparable.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ..core.cards import Role
from ..core.errors import ConfigError


@dataclass(frozen=True)
class AgentSpec:
    agent_id: str
    role: Role
    entry_point: str  # "module:Class"
    summary: str


REGISTRY: dict[str, AgentSpec] = {
    spec.agent_id: spec
    for spec in (
        AgentSpec("random-spymaster-v1", Role.SPYMASTER,
                  "codenames_ai.agents.baselines:RandomSpymaster",
                  "random legal clue word from a word list, number 1-2"),
        AgentSpec("random-guesser-v1", Role.GUESSER,
                  "codenames_ai.agents.baselines:RandomGuesser",
                  "touches random face-up cards"),
    )
}


def load_entry_point(entry_point: str) -> Any:
    """Import ``"package.module:Attribute"`` with a clear error for anything missing."""
    module_name, sep, attribute = entry_point.partition(":")
    if not sep or not module_name or not attribute:
        raise ConfigError(f"{entry_point!r} is not of the form 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"cannot import {module_name!r} for {entry_point!r}: {exc}") from None
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise ConfigError(f"module {module_name!r} has no {attribute!r}") from None


def make_agent(name: str, **options: Any) -> Any:
    """Build the agent registered as ``name`` (or a ``module:Class`` plugin) with
    ``options`` passed to its constructor."""
    spec = REGISTRY.get(name)
    if spec is None and ":" not in name:
        known = ", ".join(sorted(REGISTRY))
        raise ConfigError(f"unknown agent {name!r}; known agents: {known}, or 'module:Class'")
    factory = load_entry_point(spec.entry_point if spec else name)
    try:
        return factory(**options)
    except TypeError as exc:
        raise ConfigError(f"cannot build agent {name!r} with options {sorted(options)}: "
                          f"{exc}") from None
