"""codenames-ai: AI spymasters and guessers for Codenames, on a complete rules core."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    __version__: str

__all__ = ["__version__"]


@functools.cache
def _installed_version() -> str:
    # Looked up on first use (PEP 562 ``__getattr__`` below): importlib.metadata is slow to
    # import, and most uses of the package never ask for the version.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("codenames-ai")
    except PackageNotFoundError:  # running from a checkout that is not installed
        return "0.0.0+unknown"


def __getattr__(name: str) -> object:
    if name == "__version__":
        return _installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
