"""Environments for learning agents (the optional extra ``codenames-ai[env]``)."""

from .aec import AGENTS, CodenamesEnv, env

__all__ = ["AGENTS", "CodenamesEnv", "env"]
