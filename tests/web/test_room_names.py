"""A person's name in a room may not pass for the AI's, however it is spelled (finding 29.7)."""

from __future__ import annotations

import pytest

from codenames_ai.core import ConfigError
from codenames_ai.web.rooms import person_name

LOOK_ALIKES = [
    "AI", "ai", "Ai", "A.I.", "(A.I.)", "A I",
    "\uff21\uff29",  # full-width
    "\U0001d400\U0001d408",  # mathematical bold
    "\u0391\u0399",  # Greek capital alpha, iota
    "\u0410\u0406",  # Cyrillic capital a, Byelorussian-Ukrainian i
    "\u1d00\u026a",  # Latin small capitals
    "\u0391\u03b9",  # Greek capital alpha, small iota
    "\u0430\u0456",  # Cyrillic small a, i
    "Al",  # a capital I and a small l are one glyph in the room's sans-serif type
    "A|",
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_of_ai_is_refused(name: str) -> None:
    with pytest.raises(ConfigError, match="'AI' names the computer's seats"):
        person_name(name)


@pytest.mark.parametrize("name", ["Ann", "Aino", "Kai", "A1", "Ali", "\u674e", "Zo\u00eb",
                                  "\u0391\u03bd\u03bd\u03b1", "Ai Lin"])
def test_other_names_still_pass(name: str) -> None:
    assert person_name(name) == name
