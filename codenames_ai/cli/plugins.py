"""``--plugin MODULE``: agents registered by a user's own module, for every command that
takes an agent id."""

from __future__ import annotations

from typing import Annotated

import typer

from ..agents.registry import import_plugin

Plugins = Annotated[list[str] | None, typer.Option(
    "--plugin", help="A module that registers agents (from the current folder, or "
                     "installed); repeat for several.")]


def load_plugins(modules: list[str] | None) -> None:
    """Import each module, so that the agents it registers are known by id (a module not
    found is refused in one line)."""
    for module in modules or ():
        import_plugin(module)
