"""``codenames agents``: the registered agents, their options and what each needs."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..agents.registry import (
    DEFAULT_GUESSER,
    DEFAULT_SPYMASTER,
    PERSON_PARTNER_GUESSER,
    registered,
)
from ..core.cards import Role
from .plugins import Plugins, load_plugins

# Which agent is the default where: the guesser depends on who gives its team's clues
# (``partner_guesser``).
DEFAULTS = {DEFAULT_SPYMASTER: "default",
            DEFAULT_GUESSER: "default beside the AI spymaster",
            PERSON_PARTNER_GUESSER: "default beside a person's clues"}
if DEFAULT_GUESSER == PERSON_PARTNER_GUESSER:  # one guesser reads both partners
    DEFAULTS[DEFAULT_GUESSER] = "default beside the AI spymaster and a person's clues"


def agents(
    role: Annotated[str | None, typer.Option(help="Only spymasters or only guessers.")]
    = None,
    plugin: Plugins = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the agent ids the commands accept (--spymaster, --red-guesser, tournament
    specs), with their options and, for those this install cannot build, how to get what
    they need. Any 'module:Class' is accepted too."""
    from ..core.errors import ConfigError

    roles = {"spymaster": Role.SPYMASTER, "guesser": Role.GUESSER}
    if role is not None and role not in roles:
        raise ConfigError(f"--role must be spymaster or guesser, not {role!r}")
    load_plugins(plugin)
    specs = registered(roles[role] if role else None)
    if as_json:
        typer.echo(json.dumps([
            {"id": s.agent_id, "role": s.role.value, "summary": s.summary,
             "default": s.agent_id in DEFAULTS, "default_where": DEFAULTS.get(s.agent_id),
             "factory": s.entry_point,
             "options": [{"name": o.name, "kind": o.kind, "choices": list(o.choices),
                          "help": o.help} for o in s.options],
             "missing": s.problem()} for s in specs], indent=2))
        return
    for spec in specs:
        mark = f" ({DEFAULTS[spec.agent_id]})" if spec.agent_id in DEFAULTS else ""
        typer.echo(f"{spec.agent_id}  [{spec.role.value}]{mark}")
        if spec.summary:
            typer.echo(f"    {spec.summary}")
        settable = [o.describe() for o in spec.options if o.kind != "object"]
        if settable:
            typer.echo(f"    options: {'; '.join(settable)}")
        problem = spec.problem()
        if problem is not None:
            typer.echo(f"    not available here: {problem}")
