"""codenames-ai: AI spymasters and guessers for Codenames, on a complete rules core."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("codenames-ai")
except PackageNotFoundError:  # running from a checkout that is not installed
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
