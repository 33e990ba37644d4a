"""Packages whose public names are imported on first use (PEP 562), so that importing one
part of a package does not load the rest."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_exports(package: str, sources: Mapping[str, str], names: Sequence[str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__``: ``sources`` maps each public name to the
    submodule it comes from; ``names`` is the package's ``__all__``."""
    module = importlib.import_module(package)

    def getattr_(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{source}"), name)
        setattr(module, name, value)  # later lookups skip this function
        return value

    def dir_() -> list[str]:
        return sorted({*vars(module), *names})

    return getattr_, dir_
