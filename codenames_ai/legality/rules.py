"""Clue rules: one id per rule, each its own switch, and the four presets of docs/rules.md."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import ConfigError
from ..core.rules import ClueRulesName

# Rules about the clue word alone, in the order they are reported.
INTRINSIC_RULES: dict[str, str] = {
    "too-long": "longer than any English word",
    "one-word": "hyphenated or joined words (the core refuses spaces)",
    "characters": "characters that are not letters (digits mixed in, punctuation, symbols)",
    "number": "a number, numeral word or roman numeral",
    "letter": "a single letter",
    "position": "a word about where cards lie (near, left, corner, row, ...)",
    "shade": "a picture's shade or colour tone (Pictures)",
    "not-a-word": "not an English word at all (invented, misspelt, gibberish)",
    "foreign": "a foreign word (also catches translations of board words)",
    "abbreviation": "an abbreviation or acronym",
    "proper-name": "a proper name",
}
# Rules that relate the clue to a visible board card: (clue keys, card keys, description).
RELATIONAL_RULES: dict[str, tuple[str, str, str]] = {
    "form": ("family", "family",
             "a form of a board word: plural, tense, participle, comparative, derivation"),
    "compound": ("compound", "family", "a closed compound built on a board word"),
    "compound-part": ("family", "compound", "a part of a compound board card"),
    "homophone": ("phones", "phones", "sounds exactly like a board word"),
    "rhyme": ("rhymes", "rhymes", "rhymes with a board word"),
    "sound-alike": ("near", "near", "sounds like a board word but for one sound"),
    "same-root": ("roots", "roots", "shares a stem with a board word"),
    "part-of-board-word": ("self", "substrings", "a piece of a board word (3+ letters)"),
    "picture-tag": ("family", "tags", "one of a visible picture's own caption tags, or a form "
                                      "of one (Pictures)"),
}
ALL_RULES = frozenset(INTRINSIC_RULES) | frozenset(RELATIONAL_RULES)

_ALWAYS = frozenset({"too-long", "one-word", "characters", "number", "letter", "position"})
_CLASSIC = _ALWAYS | {"not-a-word", "foreign", "abbreviation", "proper-name", "form",
                      "compound", "compound-part", "homophone"}
_STRICT = _CLASSIC | {"rhyme", "sound-alike", "same-root", "part-of-board-word"}
_FLEXIBLE = _CLASSIC - {"abbreviation", "proper-name", "homophone"}
# Pictures: sound-alikes allowed; foreign words, names and abbreviations only if the players
# switch them off (they are on by default).
_PICTURES = _ALWAYS | {"shade", "not-a-word", "foreign", "abbreviation", "proper-name",
                       "picture-tag"}

PRESETS: dict[str, frozenset[str]] = {
    ClueRulesName.CLASSIC.value: _CLASSIC, ClueRulesName.STRICT.value: _STRICT,
    ClueRulesName.FLEXIBLE.value: _FLEXIBLE, ClueRulesName.PICTURES.value: _PICTURES,
}


@dataclass(frozen=True)
class ClueRules:
    """A named set of rule switches. ``name`` round-trips through ``clue_rules(name)``, so a
    game record can name any house rules: ``"house:form+homophone+letter"``."""

    name: str
    checks: frozenset[str]

    def with_checks(self, *, add: tuple[str, ...] = (), remove: tuple[str, ...] = ()
                    ) -> ClueRules:
        """House rules: this preset with some rules switched on or off."""
        _check_known(add + remove)
        checks = (self.checks | frozenset(add)) - frozenset(remove)
        return ClueRules(house_name(checks), checks)


def house_name(checks: frozenset[str]) -> str:
    for name, preset in PRESETS.items():
        if preset == checks:
            return name
    return "house:" + "+".join(sorted(checks))


def clue_rules(name: str) -> ClueRules:
    """A preset (``classic``, ``strict``, ``flexible``, ``pictures``) or ``house:a+b+...``."""
    key = name.strip().lower()
    if key in PRESETS:
        return ClueRules(key, PRESETS[key])
    if key.startswith("house:"):
        checks = tuple(c for c in key[len("house:"):].split("+") if c)
        _check_known(checks)
        return ClueRules(house_name(frozenset(checks)), frozenset(checks))
    known = ", ".join(PRESETS)
    raise ConfigError(f"unknown clue rules {name!r}; choose one of: {known}, "
                      "or 'house:rule+rule+...'")


def _check_known(checks: tuple[str, ...]) -> None:
    unknown = sorted(set(checks) - ALL_RULES)
    if unknown:
        raise ConfigError(f"unknown clue rule(s) {', '.join(unknown)}; known rules: "
                          f"{', '.join(sorted(ALL_RULES))}")
