"""JSON from outside the process (a request body, a line of a game record or of a results
file) parsed with limits, so that hostile text gets a clear refusal instead of a crash.

Python's ``json`` recurses once per level of nesting (a few thousand ``[`` overflow the
stack), turns a 5,000-digit number into a bare ``ValueError``, reads ``NaN`` and
``Infinity``, and lets ``"\\ud800"`` through as a lone surrogate that no file or terminal
can take. ``load_limited`` refuses each of these with ``JSONRefused``, whose message is a
phrase that follows the name of what was read: "line 3 " + "nests arrays or objects 2001
deep; at most 16 are allowed".
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 16  # our documents nest 3 deep at most
MAX_NUMBER = 48  # characters of a number; a 128-bit seed has 39 digits


class JSONRefused(ValueError):
    """Text that is not JSON within the limits; ``str()`` says why."""


def load_limited(text: str | bytes, *, max_depth: int = MAX_DEPTH,
                 max_number: int = MAX_NUMBER) -> Any:
    """``json.loads`` with the limits above (empty text is ``None``)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONRefused(f"is not UTF-8 text ({exc.reason} at byte {exc.start})"
                              ) from None
    depth = nesting(text)  # before parsing: the parser itself would overflow the stack
    if depth > max_depth:
        raise JSONRefused(f"nests arrays or objects {depth} deep; at most {max_depth} are "
                          "allowed")
    try:
        value = json.loads(text or "null", parse_int=_number(int, max_number),
                           parse_float=_number(float, max_number), parse_constant=_constant)
    except json.JSONDecodeError as exc:
        place = f"line {exc.lineno}: " if "\n" in text.strip() else ""  # a file, not a line
        raise JSONRefused(f"is not valid JSON ({place}{exc.msg})") from None
    _check_text(value)
    return value


def nesting(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in JSON text, outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _number(kind: type[int] | type[float], longest: int) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        if len(text) > longest:
            raise JSONRefused(f"holds a number {len(text)} characters long; at most "
                              f"{longest} are allowed")
        value = kind(text)
        if not math.isfinite(value):
            raise JSONRefused(f"holds the number {text}, too large to be finite")
        return value
    return parse


def _constant(text: str) -> Any:
    raise JSONRefused(f"is not valid JSON ({text} is not a JSON number)")


def is_text(value: str) -> bool:
    """Whether a string is Unicode text a file or terminal can take (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(value: Any) -> None:
    if isinstance(value, str):
        if not is_text(value):
            raise JSONRefused("holds a string that is not valid Unicode text (a lone "
                              "surrogate such as \\ud800)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)
