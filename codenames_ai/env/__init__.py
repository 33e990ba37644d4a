"""Environments for learning agents (the optional extra ``codenames-ai[env]``)."""

from ..extras import ENV

_MISSING = ENV.problem("codenames_ai.env")
if _MISSING is not None:  # one line saying how to install it, not a bare module name
    raise ModuleNotFoundError(_MISSING)

from .aec import AGENTS, CodenamesEnv, env  # noqa: E402

__all__ = ["AGENTS", "CodenamesEnv", "env"]
