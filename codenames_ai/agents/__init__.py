"""Agents: the registry of versioned agent ids (``register``, ``make_agent``), the random and
scripted baselines, and the word-vector agents a researcher builds on (the expected-value
spymaster and its ``EVConfig``, the embedding guesser, the three-mind panel).

The names below are imported on first use (PEP 562), so that importing one agent module, or
the command line, does not load every agent and its word-vector machinery."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .baselines import (
        RandomGuesser,
        RandomSpymaster,
        ScriptedGuesser,
        ScriptedSpymaster,
        ScriptExhausted,
    )
    from .guessers import EmbeddingGuesser, NearestGuesser
    from .options import Help, Option
    from .panel import PanelConfig, PanelGuesser, PanelSpymaster
    from .registry import (
        REGISTRY,
        AgentSpec,
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
    **dict.fromkeys(("Help", "Option"), "options"),
    **dict.fromkeys(("REGISTRY", "AgentSpec", "import_plugin", "load_entry_point",
                     "make_agent", "register", "registered"), "registry"),
    **dict.fromkeys(("EVConfig", "EVSpymaster", "GapSpymaster", "ThresholdSpymaster"),
                    "spymasters"),
}

__all__ = ["REGISTRY", "AgentSpec", "EVConfig", "EVSpymaster", "EmbeddingGuesser",
           "GapSpymaster", "Help", "NearestGuesser", "Option", "PanelConfig", "PanelGuesser",
           "PanelSpymaster", "RandomGuesser", "RandomSpymaster", "ScriptExhausted",
           "ScriptedGuesser", "ScriptedSpymaster", "ThresholdSpymaster", "import_plugin",
           "load_entry_point", "make_agent", "register", "registered"]


__getattr__, __dir__ = lazy_exports(__name__, _SOURCES, __all__)
