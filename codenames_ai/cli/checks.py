"""Bounds of the command line's numeric options, each refused in one line naming the option.

typer parses the text (``--max-turns x`` is its usage error); these say which values make
sense, since a number can parse and still be nonsense (``--time-limit -5`` forfeits every
move, ``--max-turns 0`` stops before the first clue).
"""

from __future__ import annotations

import math

from ..core import SEED_BITS
from ..core.errors import ConfigError

DAY = 86_400.0  # seconds: the longest move time limit that is not a typo


def check_whole(option: str, value: int | None, low: int, high: int) -> None:
    """``value`` (if given) must be a whole number from ``low`` to ``high``."""
    if value is not None and not low <= value <= high:
        raise ConfigError(f"{option} must be a whole number from {low} to {high}, got "
                          f"{_short(value)}")


def check_seconds(option: str, value: float | None, high: float = DAY) -> None:
    """``value`` (if given) must be a finite number of seconds above 0, at most ``high``."""
    if value is not None and not (math.isfinite(value) and 0 < value <= high):
        raise ConfigError(f"{option} must be a number of seconds above 0 and at most "
                          f"{high:g}, got {value:g}")


def check_seed(option: str, value: int | None) -> None:
    """A seed of at most 128 bits, so that its game record can be read back."""
    if value is not None and abs(value) >= 2 ** SEED_BITS:
        most = 2 ** SEED_BITS - 1
        raise ConfigError(f"{option} must be a whole number of at most {SEED_BITS} bits "
                          f"(-{most} to {most}), got {_short(value)}")


def _short(value: int) -> str:
    """A number as typed, shortened: a 4,000-digit value would fill the screen (typer has
    already refused anything over Python's 4,300-digit limit)."""
    text = str(value)
    return text if len(text) <= 24 else f"a {len(text.lstrip('-'))}-digit number"
