"""A visible card's word with an invisible character inside is still that card's word (issue
29, second round, finding 12): under the core's 'basic' clue rules 'kni<U+FE00>fe' (a
variation selector), a combining grapheme joiner, a Hangul filler or the braille blank
passed the board-word rule while showing as the card KNIFE. ``fold_word`` now drops every
Unicode Default_Ignorable_Code_Point and the braille blank; ordinary words are judged as
before."""

from __future__ import annotations

import pytest

from codenames_ai.core import Team
from codenames_ai.core.actions import Clue
from codenames_ai.core.clues import ClueContext, ClueValidator, check_clue, fold_word, invisible
from codenames_ai.core.rules import WORDS
from codenames_ai.legality.validator import validator_for

HIDDEN = ["kni\u200dfe", "kni\u200bfe", "kni\ufe00fe", "knif\ufe0fe", "kni\u034ffe",
          "kni\u3164fe", "\u1160knife", "knife\u2800", "kn\U000e0100ife", "kni\u115ffe",
          "kni\uffa0fe", "kni\u180bfe", "kni\u2064fe"]


def verdict(word: str, clue_rules: str) -> str | None:
    context = ClueContext(rules=WORDS.with_options(clue_rules=clue_rules), team=Team.RED,
                          visible_words=("knife", "apple"), covered_words=(), cards_left=9)
    validator: ClueValidator | None = None if clue_rules == "basic" else validator_for(
        clue_rules)
    found = check_clue(Clue(word, 1), context, validator)
    return None if found is None else found.rule


@pytest.mark.parametrize("clue_rules", ["basic", "classic"])
@pytest.mark.parametrize("word", HIDDEN)
def test_a_card_word_with_an_invisible_character_is_refused(word: str, clue_rules: str
                                                            ) -> None:
    assert fold_word(word) == "knife"
    assert verdict(word, clue_rules) in {"board-word", "characters"}


@pytest.mark.parametrize("clue_rules", ["basic", "classic"])
@pytest.mark.parametrize("word", ["fork", "Forks", "café", "kitchen"])
def test_an_ordinary_clue_is_still_legal(word: str, clue_rules: str) -> None:
    assert verdict(word, clue_rules) is None


def test_other_words_with_such_characters_are_not_made_card_words() -> None:
    # basic judges only the board: a word that is no card stays legal, invisible or not
    assert verdict("fo\ufe0frk", "basic") is None
    assert fold_word("\u1112\u1161\u11ab") == fold_word("한")  # real Hangul jamo are kept


def test_the_table_is_unicodes_default_ignorable_property() -> None:
    """The table in core.clues against the `regex` module's property (a dev tool here, not a
    dependency of the package), so a transcription slip shows."""
    regex = pytest.importorskip("regex")
    ignorable = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    for point in range(0x110000):
        ch = chr(point)
        expected = ignorable.match(ch) is not None or point == 0x2800
        assert invisible(ch) == expected, f"U+{point:04X}"
