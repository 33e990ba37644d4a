"""Legality filtering: the time to find the legal clues among 50,000 candidates on a board.

Run by hand: ``python -m benchmarks.legality [--vocabulary 50000] [--boards 20]``. Prints the
one-off analysis of the vocabulary, then the median time per board of the vectorized
``CandidateFilter.legal_mask`` and, as the baseline in the same process, of checking each
candidate with ``LegalityValidator.check_against`` one by one (on a few boards only).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import wordfreq

from codenames_ai import __version__
from codenames_ai.core import WORDS, deal
from codenames_ai.decks import default_deck
from codenames_ai.legality import CandidateFilter, validator_for
from codenames_ai.legality.language import lexicon


def filter_figures(vocabulary: int, boards: int, baseline_boards: int, *,
                   show: bool = True) -> dict[str, float]:
    """Seconds to load the language data and analyse the vocabulary, and per-board filter
    times (vectorized and the word-by-word baseline) under the classic and strict rules."""
    figures: dict[str, float] = {}
    start = time.perf_counter()
    lexicon()
    figures["language data load s"] = time.perf_counter() - start
    if show:
        print(f"load language data            {figures['language data load s']:8.2f} s "
              "(once a process)")
    words = [w for w in wordfreq.top_n_list("en", vocabulary * 2) if w.isalpha()]
    words = words[:vocabulary]
    dealt = [deal(WORDS, default_deck(), seed).words for seed in range(boards)]
    for rules in ("classic", "strict"):
        start = time.perf_counter()
        candidate_filter = CandidateFilter(words, rules)
        built = time.perf_counter() - start
        times = []
        for board in dealt:
            start = time.perf_counter()
            mask = candidate_filter.legal_mask(board)
            times.append(time.perf_counter() - start)
        vectorized = statistics.median(times)
        validator = validator_for(rules)
        naive = []
        for board in dealt[:baseline_boards]:
            start = time.perf_counter()
            for word in candidate_filter.words:
                validator.check_against(word, board)
            naive.append(time.perf_counter() - start)
        baseline = statistics.median(naive)
        figures[f"{rules} analyse {len(words)} words s"] = built
        figures[f"{rules} filter ms/board"] = vectorized * 1e3
        figures[f"{rules} word-by-word ms/board"] = baseline * 1e3
        if show:
            note = "once a vocabulary" if rules == "classic" else "word analyses cached above"
            print(f"{rules:<8} analyse {len(words):,} words   {built:8.2f} s ({note})")
            print(f"{rules:<8} filter one board       {vectorized * 1e3:8.2f} ms median of "
                  f"{len(dealt)} boards, {int(mask.sum()):,} legal on the last")
            print(f"{rules:<8} word-by-word baseline  {baseline * 1e3:8.0f} ms median of "
                  f"{len(naive)} boards  (vectorized is x{baseline / vectorized:,.0f} faster)")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocabulary", type=int, default=50_000)
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--baseline-boards", type=int, default=2)
    args = parser.parse_args()
    print(f"codenames-ai {__version__}, Python {platform.python_version()}, {platform.machine()}")
    filter_figures(args.vocabulary, args.boards, args.baseline_boards)


if __name__ == "__main__":
    main()
