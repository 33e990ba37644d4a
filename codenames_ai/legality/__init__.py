"""Clue legality: the classic, strict, flexible and pictures rule sets (docs/rules.md),
each rule its own switch, checked the same way for a person's clue and an AI's candidates.

The rules core finds these validators by name through the ``codenames_ai.clue_rules`` entry
point, so ``RuleSet.clue_rules = "strict"`` is all a game needs.
"""

from .analysis import WordAnalysis, analyze, analyze_card
from .filter import CandidateFilter
from .rules import ALL_RULES, INTRINSIC_RULES, PRESETS, RELATIONAL_RULES, ClueRules, clue_rules
from .validator import LegalityValidator, validator_for

__all__ = ["ALL_RULES", "INTRINSIC_RULES", "PRESETS", "RELATIONAL_RULES", "CandidateFilter",
           "ClueRules", "LegalityValidator", "WordAnalysis", "analyze", "analyze_card",
           "clue_rules", "validator_for"]
