"""The clue check built into the core, and the protocol for pluggable validators.

The core always checks the number and the basics (one word, not a visible board word); a
validator adds the linguistic rules of a rule-set preset (forms, compounds, homophones...).
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from importlib import metadata
from typing import Protocol, runtime_checkable

from .actions import UNLIMITED, Clue
from .cards import Team
from .errors import ConfigError, quoted
from .rules import RuleSet


@dataclass(frozen=True)
class ClueViolation:
    """A broken clue rule: ``rule`` is a stable id, ``message`` says why in words."""

    rule: str
    message: str


@dataclass(frozen=True)
class ClueContext:
    """What a clue is checked against: the rule set and the board as the table sees it."""

    rules: RuleSet
    team: Team
    visible_words: tuple[str, ...]
    covered_words: tuple[str, ...]
    cards_left: int


@runtime_checkable
class ClueValidator(Protocol):
    """Checks the word of a clue beyond the core's basics. ``name`` matches
    ``RuleSet.clue_rules`` so records say which rules judged a game."""

    name: str

    def check_word(self, word: str, context: ClueContext) -> ClueViolation | None:
        """Return the first rule ``word`` breaks, or ``None`` if it is allowed."""
        ...


# Format characters that are part of how words and emoji are written, not a way to steer a
# screen: the zero-width non-joiner and joiner (Persian and Indic spellings; emoji sequences
# such as a family) and, in emoji only, the tag characters of subdivision flags.
_WORD_JOINERS = frozenset("\u200c\u200d")
_EMOJI_TAGS = range(0xE0020, 0xE0080)


def control_characters(text: str, *, emoji: bool = False) -> str:
    """The characters of ``text`` that are no part of a word but steer how text shows: control
    characters (ESC, BEL, newline, C1 controls), format characters (bidirectional overrides, a
    soft hyphen, a byte-order mark) and lone surrogates; not the joiners of ``_WORD_JOINERS``,
    nor with ``emoji`` the tag characters of a flag. Empty when there are none."""
    return "".join(ch for ch in text
                   if unicodedata.category(ch) in {"Cc", "Cf", "Cs"}
                   and ch not in _WORD_JOINERS and not (emoji and ord(ch) in _EMOJI_TAGS))


def code_points(text: str) -> str:
    """``U+001B, U+0007`` for naming characters a person cannot see in a message."""
    return ", ".join(f"U+{ord(ch):04X}" for ch in dict.fromkeys(text))


# The longest word in English dictionaries has 45 letters: no clue is longer, and the clue
# rules' analysis of a word grows with its length (a 5 MB clue in a record took 8 s).
MAX_WORD_LENGTH = 45


def normalize_word(word: str) -> str:
    """The form in which words are compared: Unicode NFKC, case-folded, trimmed."""
    return unicodedata.normalize("NFKC", word).strip().casefold()


# Unicode's Default_Ignorable_Code_Point: characters that show as nothing (DerivedCore
# Properties.txt of Unicode 15.1.0, the same through 16.0; assigned and reserved ones alike),
# and U+2800 BRAILLE PATTERN BLANK, a symbol that shows as a blank. A clue holding one shows
# as the word without it, so the board-word rule compares the word without them.
_INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
    (0x2800, 0x2800),  # not Default_Ignorable, but as blank as a Hangul filler
)


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows as nothing or as a blank (``_INVISIBLE``)."""
    point = ord(ch)
    return any(low <= point <= high for low, high in _INVISIBLE)


def fold_word(word: str) -> str:
    """The form in which a clue is compared with a board card: ``normalize_word`` without
    accents (Unicode NFKD, combining marks dropped), so 'café' is the card CAFE, and without
    the characters that show as nothing (``invisible``: a joiner, a variation selector, a
    Hangul filler), so a card's word with one inside is still that card's word."""
    if word.isascii():  # no accents, nothing invisible: the same answer, much sooner
        return word.strip().lower()
    decomposed = unicodedata.normalize("NFKD", word.strip())
    return "".join(ch for ch in decomposed
                   if not unicodedata.combining(ch) and not invisible(ch)).casefold()


class BasicClueValidator:
    """The core's own rules only (one word, not a visible board word, number in range)."""

    name = "basic"

    def check_word(self, word: str, context: ClueContext) -> ClueViolation | None:
        return None


def check_clue(clue: Clue, context: ClueContext,
               validator: ClueValidator | None = None) -> ClueViolation | None:
    """Return the first rule ``clue`` breaks, or ``None`` if it is a legal clue."""
    violation = check_clue_basics(clue, context)
    if violation is None and validator is not None:
        return validator.check_word(clue.word.strip(), context)
    return violation


def check_clue_basics(clue: Clue, context: ClueContext) -> ClueViolation | None:
    """The first of the core's own rules ``clue`` breaks (the number, one word, no hidden
    characters, not a visible board word), or ``None``: a validator's rules come after."""
    violation = _check_number(clue, context)
    if violation is not None:
        return violation
    word = clue.word
    if not isinstance(word, str) or not word.strip():
        return ClueViolation("one-word", "a clue must be one word; this one is empty")
    if any(ch.isspace() for ch in word.strip()):
        return ClueViolation(
            "one-word", f"a clue must be exactly one word; {quoted(word.strip(), 60)} has spaces"
        )
    if len(word.strip()) > MAX_WORD_LENGTH:
        return ClueViolation("too-long", f"a clue of {len(word.strip()):,} characters is not "
                                         f"one English word (the limit is {MAX_WORD_LENGTH})")
    # Bytes that were not UTF-8, as Python carries them from a command line or a terminal.
    broken = ", ".join(f"0x{ord(ch) - 0xDC00:02X}" for ch in sorted(set(word))
                       if 0xDC80 <= ord(ch) <= 0xDCFF)
    if broken:
        return ClueViolation(
            "characters", "a clue is a word made of letters; this one holds bytes that are not "
                          f"text in UTF-8 ({broken}): type it again as UTF-8 text")
    hidden = control_characters(word)
    if hidden:
        return ClueViolation(
            "characters", f"a clue is a word made of letters; this one holds control or "
                          f"format characters ({code_points(hidden)}) that show as nothing "
                          "or steer the screen")
    folded = fold_word(word)
    for visible in context.visible_words:
        if fold_word(visible) == folded:
            return ClueViolation(
                "board-word",
                f"{word.strip()!r} is a word on the board that is still visible; "
                "it becomes legal once that card is covered",
            )
    return None


def _check_number(clue: Clue, context: ClueContext) -> ClueViolation | None:
    number = clue.number
    rules = context.rules
    if number is UNLIMITED:
        if not rules.allow_unlimited_clue:
            return ClueViolation("unlimited-clue-off",
                                 "this rule set does not allow 'unlimited' clues")
        return None
    if not isinstance(number, int) or isinstance(number, bool):
        return ClueViolation("number-range",
                             f"clue number {number!r} is not a whole number or 'unlimited'")
    if number == 0 and not rules.allow_zero_clue:
        return ClueViolation("zero-clue-off", "this rule set does not allow 0 clues")
    if not 0 <= number <= context.cards_left:
        return ClueViolation(
            "number-range",
            f"clue number {number} is out of range: the team has {context.cards_left} "
            f"cards left, so the number must be 0..{context.cards_left} or 'unlimited'",
        )
    return None


VALIDATOR_ENTRY_POINTS = "codenames_ai.clue_rules"


@functools.cache
def _installed_families() -> frozenset[str]:
    """The names of the installed clue-rule entry points (read from metadata, none loaded)."""
    return frozenset(ep.name for ep in metadata.entry_points(group=VALIDATOR_ENTRY_POINTS))


def check_clue_rules_known(name: str) -> None:
    """Raise ``ConfigError`` unless ``name`` names built-in or installed clue rules, without
    loading them (a game can then be built before its rules are needed)."""
    if name == BasicClueValidator.name:
        return
    if name.split(":", 1)[0].strip().lower() not in _installed_families():
        known = sorted({BasicClueValidator.name} | _installed_families())
        raise ConfigError(f"no clue rules named {name!r}; installed: {', '.join(known)} "
                          "(is codenames-ai installed, e.g. pip install -e .?)")


@functools.lru_cache(maxsize=64)
def resolve_validator(name: str) -> ClueValidator:
    """The validator for ``RuleSet.clue_rules``: ``"basic"`` is built in; any other name is
    looked up by the part before ``:`` among the ``codenames_ai.clue_rules`` entry points
    (this package registers ``classic``, ``strict``, ``flexible``, ``pictures`` and ``house``;
    a plugin package can add its own), and the entry point is called with the full name."""
    check_clue_rules_known(name)
    if name == BasicClueValidator.name:
        return BasicClueValidator()
    family = name.split(":", 1)[0].strip().lower()
    entry_point = next(ep for ep in metadata.entry_points(group=VALIDATOR_ENTRY_POINTS)
                       if ep.name == family)
    validator: ClueValidator = entry_point.load()(name)
    return validator
