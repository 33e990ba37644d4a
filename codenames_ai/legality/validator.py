"""The clue validator the rules core calls: one word against the visible board."""

from __future__ import annotations

import functools

from ..core.clues import ClueContext, ClueViolation
from ..pictures import Captions, shipped_captions
from .analysis import WordAnalysis, analyze, analyze_card, compound_reading
from .deckrows import known_legal
from .rules import INTRINSIC_RULES, RELATIONAL_RULES, ClueRules, clue_rules


def keys(analysis: WordAnalysis, kind: str) -> frozenset[str]:
    """The keys of one kind (``"family"``, ``"phones"``, ...; ``"self"`` is the word)."""
    if kind == "self":
        return frozenset({analysis.word})
    value: frozenset[str] = getattr(analysis, kind)
    return value


def _message(rule: str, clue: str, card: str, shared: frozenset[str]) -> str:
    board = card.upper()
    example = sorted(shared)[0]
    if rule == "compound":
        return f"'{clue}' is a compound built on {board} on the board" + _parts(clue, shared)
    if rule == "compound-part":
        return f"'{clue}' is part of the compound {board} on the board" + _parts(card, shared)
    return {
        "form": f"'{clue}' is a form of {board} on the board (both are forms of '{example}')",
        "homophone": f"'{clue}' sounds like {board} on the board (homophone)",
        "rhyme": f"'{clue}' rhymes with {board} on the board",
        "sound-alike": f"'{clue}' sounds like {board} on the board but for one sound",
        "same-root": f"'{clue}' has the same root as {board} on the board ('{example}')",
        "part-of-board-word": f"'{clue}' is part of {board} on the board",
        "picture-tag": f"'{clue}' names what the picture {card} shows (its caption says "
                       f"'{example}')",
    }[rule]


def _parts(compound: str, shared: frozenset[str]) -> str:
    """' (rain + forest)': how ``compound`` splits, when it is one closed word."""
    reading = compound_reading(compound, shared) if compound.isalpha() else None
    return f" ({reading[0]} + {reading[1]})" if reading else ""


class LegalityValidator:
    """Checks a clue word with the switches of a ``ClueRules`` preset or house rules.
    ``pictures`` are the captions of the picture deck in play (default: the shipped emoji
    deck, ``pictures.shipped_captions``)."""

    def __init__(self, rules: ClueRules, pictures: Captions | None = None) -> None:
        self.rules = rules
        self.name = rules.name
        self.pictures = shipped_captions() if pictures is None else pictures
        self._intrinsic = [r for r in INTRINSIC_RULES if r in rules.checks]
        self._relational = [(r, RELATIONAL_RULES[r][0], RELATIONAL_RULES[r][1])
                            for r in RELATIONAL_RULES if r in rules.checks]

    def check_word(self, word: str, context: ClueContext) -> ClueViolation | None:
        """The first rule ``word`` breaks on this board, or ``None``."""
        return self.check_against(word, context.visible_words)

    def check_against(self, word: str, visible_words: tuple[str, ...] | list[str]
                      ) -> ClueViolation | None:
        if known_legal(self.name, word, [(card, self.pictures.get(card, ()))
                                         for card in visible_words]):
            return None  # an AI's candidate on a deck board, answered by the deck's rows
        clue = analyze(word)
        for rule, reason in clue.intrinsic:
            if rule in self._intrinsic:
                return ClueViolation(rule, reason)
        cards = [(card, self._card(card)) for card in visible_words]
        for rule, clue_kind, card_kind in self._relational:
            clue_keys = keys(clue, clue_kind)
            if not clue_keys:
                continue
            for card, analysis in cards:
                shared = clue_keys & keys(analysis, card_kind)
                if shared:
                    return ClueViolation(rule, _message(rule, word.strip(), card, shared))
        return None

    def violations(self, word: str, visible_words: tuple[str, ...] | list[str]
                   ) -> list[ClueViolation]:
        """Every rule ``word`` breaks (for explanations; ``check_word`` stops at the first)."""
        found = [ClueViolation(r, m) for r, m in analyze(word).intrinsic if r in self._intrinsic]
        clue = analyze(word)
        for rule, clue_kind, card_kind in self._relational:
            for card in visible_words:
                shared = keys(clue, clue_kind) & keys(self._card(card), card_kind)
                if shared:
                    found.append(ClueViolation(rule, _message(rule, word.strip(), card, shared)))
        return found

    def _card(self, card: str) -> WordAnalysis:
        return analyze_card(card, self.pictures.get(card, ()))


def validator_for(name: str, pictures: Captions | None = None) -> LegalityValidator:
    """The validator for a preset or house-rules name and the captions of the picture deck in
    play (the entry point the rules core resolves ``RuleSet.clue_rules`` through, with the
    default pictures; that one is shared)."""
    if pictures is not None:
        return LegalityValidator(clue_rules(name), pictures)
    return _shared_validator(name)


@functools.lru_cache(maxsize=64)
def _shared_validator(name: str) -> LegalityValidator:
    return LegalityValidator(clue_rules(name))
