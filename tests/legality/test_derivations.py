"""Derived forms of a visible word are illegal for agents too: the candidate filter agents
draw clues from blocks what the validator refuses (the AI once clued "whaling: 4" with WHALE
on the board)."""

from __future__ import annotations

from codenames_ai.decks import wordlists_dir
from codenames_ai.legality.filter import CandidateFilter
from codenames_ai.legality.validator import validator_for

WORDS = ("whaling", "whaler", "pianist", "chairmanship", "chairman", "butter", "hammer",
         "ocean", "music")
BOARD = ["WHALE", "PIANO", "CHAIR", "BUTT", "HAM"]


def test_the_filter_blocks_derived_forms_and_keeps_lookalikes() -> None:
    candidates = CandidateFilter(WORDS, "classic")
    legal = {w for w, ok in zip(candidates.words, candidates.legal_mask(BOARD), strict=True)
             if ok}
    assert legal == {"butter", "hammer", "ocean", "music"}
    validator = validator_for("classic")
    assert legal == {w for w in WORDS if not validator.violations(w, BOARD)}


def test_the_shipped_derivation_table_is_well_formed() -> None:
    lines = [line for line in (wordlists_dir() / "derivations.tsv").read_text(
        encoding="utf-8").splitlines() if not line.startswith("#")]
    pairs = [line.split("\t") for line in lines]
    assert len(pairs) > 10_000
    assert all(len(p) == 2 and p[0].isalpha() and p[1].isalpha() and len(p[0]) > len(p[1])
               for p in pairs)
    assert ["pianist", "piano"] in pairs and ["butter", "butt"] not in pairs
