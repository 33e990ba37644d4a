"""One clue word against a board, with every rule it breaks (for people and explanations)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.clues import ClueViolation, normalize_word
from .analysis import MAX_LENGTH
from .validator import validator_for


def check_clue_word(clue: str, visible_words: Sequence[str], rules: str = "classic"
                    ) -> list[ClueViolation]:
    """Every rule ``clue`` breaks with ``visible_words`` face up: the core's basics (one word,
    not a visible board word) first, then the rule set's own rules in their report order."""
    word = clue.strip()
    if not word:
        return [ClueViolation("one-word", "the clue is empty; a clue is one word")]
    if any(ch.isspace() for ch in word):
        return [ClueViolation("one-word", f"a clue must be exactly one word; {word[:60]!r} "
                                          "has spaces")]
    if len(word) > MAX_LENGTH:
        return [ClueViolation("too-long", f"a clue of {len(word)} characters is not one "
                                          f"English word (the limit is {MAX_LENGTH})")]
    found = []
    for card in visible_words:
        if normalize_word(card) == normalize_word(word):
            found.append(ClueViolation("board-word", f"'{word}' is {card.upper()}, a word on "
                                       "the board that is still visible"))
            break
    return found + validator_for(rules).violations(word, list(visible_words))
