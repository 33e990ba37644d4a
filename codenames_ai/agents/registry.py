"""A registry of agents under versioned ids, plus ``module:Class`` plugins.

Bump an id's version whenever an agent's behaviour changes, so old results stay comparable.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ..core.cards import Role
from ..core.errors import ConfigError
from .spymasters import EVConfig


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: a versioned id, its role, the class and the default options."""

    agent_id: str
    role: Role
    entry_point: str  # "module:Class"
    summary: str
    defaults: tuple[tuple[str, Any], ...] = ()


def _embedding(model: str, short: str) -> tuple[AgentSpec, ...]:
    model_option = (("model", model),)
    return (
        AgentSpec(f"{short}-ev-spymaster-v1", Role.SPYMASTER,
                  "codenames_ai.agents.spymasters:EVSpymaster",
                  f"expected-value spymaster on {model}", model_option),
        AgentSpec(f"{short}-threshold-spymaster-v1", Role.SPYMASTER,
                  "codenames_ai.agents.spymasters:ThresholdSpymaster",
                  f"AIIDE 2019 threshold baseline (0.5) on {model}", model_option),
        AgentSpec(f"{short}-gap-spymaster-v1", Role.SPYMASTER,
                  "codenames_ai.agents.spymasters:GapSpymaster",
                  f"gap baseline (n-th target minus best non-target, x n^0.6) on {model}",
                  model_option),
        AgentSpec(f"{short}-guesser-v1", Role.GUESSER,
                  "codenames_ai.agents.guessers:EmbeddingGuesser",
                  f"guesser with memory and a calibrated stop rule on {model}", model_option),
        AgentSpec(f"{short}-nearest-guesser-v1", Role.GUESSER,
                  "codenames_ai.agents.guessers:NearestGuesser",
                  f"nearest-card baseline guesser on {model}, never stops early", model_option),
    )


REGISTRY: dict[str, AgentSpec] = {
    spec.agent_id: spec
    for spec in (
        AgentSpec("random-spymaster-v1", Role.SPYMASTER,
                  "codenames_ai.agents.baselines:RandomSpymaster",
                  "random legal clue word from a word list, number 1-2"),
        AgentSpec("random-guesser-v1", Role.GUESSER,
                  "codenames_ai.agents.baselines:RandomGuesser",
                  "touches random face-up cards"),
        *_embedding("glove-6b-50d", "glove"),
        *_embedding("minilm", "minilm"),
        # The shipped minds, one model each (for leave-one-mind-out measurement).
        *_embedding("minilm-l6-words", "minilm-words"),
        *_embedding("wordnet-3.0", "wordnet"),
        AgentSpec("panel-spymaster-v2", Role.SPYMASTER,
                  "codenames_ai.agents.panel:PanelSpymaster",
                  "panel spymaster: GloVe, MiniLM and WordNet must agree; familiar words; "
                  "reads its guesser and never repeats a clue"),
        AgentSpec("panel-guesser-v2", Role.GUESSER,
                  "codenames_ai.agents.panel:PanelGuesser",
                  "panel guesser: GloVe, MiniLM and WordNet together, calibrated stop, "
                  "memory of earlier clues"),
        AgentSpec("ensemble-ev-spymaster-v1", Role.SPYMASTER,
                  "codenames_ai.agents.spymasters:EVSpymaster",
                  "expected-value spymaster on GloVe and MiniLM together (needs the minilm "
                  "model: codenames models build minilm)",
                  (("model", ("glove-6b-50d", "minilm")),
                   # Two models disagree more than one model with itself: more noise, a
                   # looser stop (measured: python -m benchmarks.agents).
                   ("config", EVConfig(noise=0.6, stop_quantile=0.90)))),
    )
}
DEFAULT_SPYMASTER = "panel-spymaster-v2"
DEFAULT_GUESSER = "panel-guesser-v2"


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


_ROLE_METHOD = {Role.SPYMASTER: "give_clue", Role.GUESSER: "guess"}


def _role_mismatch(name: str, role: Role, seat: str) -> ConfigError:
    known = ", ".join(sorted(s.agent_id for s in REGISTRY.values() if s.role is role))
    return ConfigError(f"{seat or 'this seat'} needs a {role.value}, and {name!r} is not one; "
                       f"{role.value}s: {known}")


def make_agent(name: str, *, role: Role | None = None, seat: str = "", **options: Any) -> Any:
    """Build the agent registered as ``name`` (or a ``module:Class`` plugin) with
    ``options`` passed to its constructor. With ``role``, refuse an agent of another role
    (a guesser in a spymaster seat would forfeit every clue); ``seat`` names the seat in
    that message."""
    spec = REGISTRY.get(name)
    if spec is None and ":" not in name:
        known = ", ".join(sorted(REGISTRY))
        raise ConfigError(f"unknown agent {name!r}; known agents: {known}, or 'module:Class'")
    if role is not None and spec is not None and spec.role is not role:
        raise _role_mismatch(name, role, seat)
    factory = load_entry_point(spec.entry_point if spec else name)
    if spec is not None:
        options = {**dict(spec.defaults), **options}
    try:
        agent = factory(**options)
    except TypeError as exc:
        raise ConfigError(f"cannot build agent {name!r} with options {sorted(options)}: "
                          f"{exc}") from None
    if role is not None and not callable(getattr(agent, _ROLE_METHOD[role], None)):
        raise _role_mismatch(name, role, seat)
    if spec is not None:
        agent.agent_id = spec.agent_id  # the versioned id, as records and results show it
    return agent
