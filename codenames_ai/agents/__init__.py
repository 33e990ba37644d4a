"""Agents: the registry of versioned agent ids (``register``, ``make_agent``), the random and
scripted baselines, and the word-vector agents a researcher builds on (the expected-value
spymaster and its ``EVConfig``, the embedding guesser, the three-mind panel).

The names below are imported on first use (PEP 562), so that importing one agent module, or
the command line, does not load every agent and its word-vector machinery."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .baselines import (
        RandomGuesser,
        RandomSpymaster,
        ScriptedGuesser,
        ScriptedSpymaster,
        ScriptExhausted,
    )
    from .guessers import EmbeddingGuesser, NearestGuesser
    from .panel import PanelConfig, PanelGuesser, PanelSpymaster
    from .registry import (
        REGISTRY,
        AgentSpec,
        Option,
        import_plugin,
        load_entry_point,
        make_agent,
        register,
        registered,
    )
    from .spymasters import EVConfig, EVSpymaster, GapSpymaster, ThresholdSpymaster

# Each public name and the submodule it comes from.
_SOURCES = {
    **dict.fromkeys(("RandomGuesser", "RandomSpymaster", "ScriptedGuesser",
                     "ScriptedSpymaster", "ScriptExhausted"), "baselines"),
    **dict.fromkeys(("EmbeddingGuesser", "NearestGuesser"), "guessers"),
    **dict.fromkeys(("PanelConfig", "PanelGuesser", "PanelSpymaster"), "panel"),
    **dict.fromkeys(("REGISTRY", "AgentSpec", "Option", "import_plugin", "load_entry_point",
                     "make_agent", "register", "registered"), "registry"),
    **dict.fromkeys(("EVConfig", "EVSpymaster", "GapSpymaster", "ThresholdSpymaster"),
                    "spymasters"),
}

__all__ = ["REGISTRY", "AgentSpec", "EVConfig", "EVSpymaster", "EmbeddingGuesser",
           "GapSpymaster", "NearestGuesser", "Option", "PanelConfig", "PanelGuesser",
           "PanelSpymaster", "RandomGuesser", "RandomSpymaster", "ScriptExhausted",
           "ScriptedGuesser", "ScriptedSpymaster", "ThresholdSpymaster", "import_plugin",
           "load_entry_point", "make_agent", "register", "registered"]


def __getattr__(name: str) -> object:
    """A public name, imported from its submodule on first use."""
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{source}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
