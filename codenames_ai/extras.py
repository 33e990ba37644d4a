"""What an optional part of the toolkit needs beyond the default install, and the one line
that says how to get it. The agent registry, the command line, the web app and the learning
environment all ask here, so a missing piece is named the same way everywhere."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field

from .core.errors import ConfigError


class MissingRequirement(ConfigError):
    """Something optional is not installed (or not built); the message says how to get it."""


@dataclass(frozen=True)
class Requirement:
    """A piece outside the default install: ``what`` names it for a person, ``hint`` is the
    command that provides it, ``available`` tells whether it is here now."""

    what: str
    hint: str
    available: Callable[[], bool] = field(compare=False)

    def problem(self, needed_by: str) -> str | None:
        """``None`` when available, else one line: who needs what, and how to get it."""
        if self.available():
            return None
        return f"{needed_by} needs {self.what}: {self.hint}"

    def require(self, needed_by: str) -> None:
        problem = self.problem(needed_by)
        if problem is not None:
            raise MissingRequirement(problem)


def modules_installed(*modules: str) -> Callable[[], bool]:
    """A check that every module in ``modules`` can be imported (without importing it)."""
    def check() -> bool:
        return all(_findable(name) for name in modules)
    return check


def _findable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that fails, or an import blocked with None
        return False


def extra(name: str, *modules: str) -> Requirement:
    """The optional dependency group ``name`` of pyproject.toml, present when ``modules``
    import."""
    return Requirement(f"the optional '{name}' extra",
                       f"pip install 'codenames-ai[{name}]' (from a checkout: "
                       f"pip install -e '.[{name}]')", modules_installed(*modules))


ENV = extra("env", "gymnasium", "pettingzoo")
RAY = extra("ray", "ray")


def first_problem(requirements: tuple[Requirement, ...], needed_by: str) -> str | None:
    """The first missing requirement's message, or ``None`` when all are here."""
    for requirement in requirements:
        problem = requirement.problem(needed_by)
        if problem is not None:
            return problem
    return None
