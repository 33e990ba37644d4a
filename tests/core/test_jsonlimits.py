"""JSON from outside the process: every text either parses within the limits or is refused
with ``JSONRefused`` (never a RecursionError, a bare ValueError or a lone surrogate)."""

from __future__ import annotations

import json

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


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet='[]{}"\\:,0123456789.eE-+ntrufalsNIiy\n ud8', max_size=80)
       | st.binary(max_size=40))
def test_any_text_parses_or_is_refused(text: str | bytes) -> None:
    try:
        value = load_limited(text)
    except JSONRefused:
        return
    json.dumps(value).encode("utf-8")  # what was accepted is plain, printable JSON
