"""JSON from outside the process: every text either parses within the limits or is refused
with ``JSONRefused`` (never a RecursionError, a bare ValueError or a lone surrogate)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codenames_ai.core.jsonlimits import JSONRefused, load_limited, nesting


@pytest.mark.parametrize(("text", "message"), [
    ("[" * 5000 + "]" * 5000, "nests arrays or objects 5000 deep; at most 16 are allowed"),
    ("9" * 5000, "holds a number 5000 characters long; at most 48 are allowed"),
    ("1e999", "holds the number 1e999, too large to be finite"),
    ("NaN", "is not valid JSON (NaN is not a JSON number)"),
    ('"\\ud800"', "lone surrogate"),
    ('{"\\udfff": 1}', "lone surrogate"),
    (b"\xff", "is not UTF-8 text"),
    ("{\n\n oops", "is not valid JSON (line 3: "),
])
def test_hostile_json_is_refused_with_a_reason(text: str | bytes, message: str) -> None:
    with pytest.raises(JSONRefused, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_limited(text)


def test_brackets_inside_strings_do_not_count() -> None:
    assert nesting('{"a": "[[[[{{{{"}') == 1
    assert load_limited('{"a": "[[[["}') == {"a": "[[[["}
    assert load_limited("") is None


@pytest.mark.parametrize(("text", "value"), [
    ('{"seed": ' + str(2**128 - 1) + "}", {"seed": 2**128 - 1}),  # a 39-digit secret seed
    ("[" * 16 + "]" * 16, [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]),  # the deepest allowed
    ("9" * 48, int("9" * 48)),  # the longest number allowed
    ("1e308", 1e308),
    ('"\\ud83d\\ude00"', "\U0001f600"),  # a surrogate pair is one character, not lone
    ('{"a": "[[[[" }', {"a": "[[[["}),
    ("", None),
])
def test_json_within_the_limits_is_read(text: str, value: object) -> None:
    assert load_limited(text) == value


REFUSED = object()


def by_the_rules(text: str | bytes) -> object:
    """What ``load_limited`` must return, from Python's own json with the limits written
    out: REFUSED for text that is not UTF-8 or not JSON, nests over 16 deep, holds a number
    over 48 characters or not finite, or a lone surrogate."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return REFUSED
    numbers: list[str] = []

    def number(kind: type[int] | type[float]) -> Callable[[str], object]:
        return lambda digits: numbers.append(digits) or kind(digits)

    try:
        value = json.loads(text or "null", parse_int=number(int), parse_float=number(float))
    except (ValueError, RecursionError):
        return REFUSED

    def deepest(item: object) -> int:
        inner = (item.values() if isinstance(item, dict) else item
                 if isinstance(item, list) else ())
        return (1 + max(map(deepest, inner), default=0)) if isinstance(item, list | dict) \
            else 0

    def plain(item: object) -> bool:
        if isinstance(item, float):
            return math.isfinite(item)
        if isinstance(item, str):
            return not any(0xD800 <= ord(c) <= 0xDFFF for c in item)
        if isinstance(item, dict):
            return all(plain(k) and plain(v) for k, v in item.items())
        if isinstance(item, list):
            return all(map(plain, item))
        return True

    if deepest(value) > 16 or any(len(n) > 48 for n in numbers) or not plain(value):
        return REFUSED
    return value


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet='[]{}"\\:,0123456789.eE-+ntrufalsNIiy\n ud8', max_size=80)
       | st.binary(max_size=40))
def test_any_text_is_read_or_refused_by_the_rules(text: str | bytes) -> None:
    wanted = by_the_rules(text)
    if wanted is REFUSED:
        with pytest.raises(JSONRefused):
            load_limited(text)
    else:
        assert load_limited(text) == wanted
