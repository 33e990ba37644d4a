"""Agents: the registry of versioned agent ids (``make_agent``), and the random and scripted
baselines exported here. The word-vector spymasters and guessers (expected-value, threshold,
gap, the three-mind panel) live in the submodules and are built by id through the registry."""

from .baselines import (
           RandomGuesser,
           RandomSpymaster,
           ScriptedGuesser,
           ScriptedSpymaster,
           ScriptExhausted,
)
from .registry import REGISTRY, AgentSpec, load_entry_point, make_agent

__all__ = ["REGISTRY", "AgentSpec", "RandomGuesser", "RandomSpymaster", "ScriptExhausted",
           "ScriptedGuesser", "ScriptedSpymaster", "load_entry_point", "make_agent"]
