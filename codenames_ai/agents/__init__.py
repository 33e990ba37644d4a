"""Agents: baselines and scripted agents now; embedding spymasters and guessers later."""

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
