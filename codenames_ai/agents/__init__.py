"""Agents: the registry of versioned agent ids (``register``, ``make_agent``), the random and
scripted baselines, and the word-vector agents a researcher builds on (the expected-value
spymaster and its ``EVConfig``, the embedding guesser, the three-mind panel)."""

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

__all__ = ["REGISTRY", "AgentSpec", "EVConfig", "EVSpymaster", "EmbeddingGuesser",
           "GapSpymaster", "NearestGuesser", "Option", "PanelConfig", "PanelGuesser",
           "PanelSpymaster", "RandomGuesser", "RandomSpymaster", "ScriptExhausted",
           "ScriptedGuesser", "ScriptedSpymaster", "ThresholdSpymaster", "import_plugin",
           "load_entry_point", "make_agent", "register", "registered"]
