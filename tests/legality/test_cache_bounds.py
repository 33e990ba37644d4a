"""The caches of the clue rules are bounded: a server checks whatever words its clients send,
and each distinct word must not stay in its memory for good (issue 29, second round,
finding 5)."""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Iterator
from typing import Any

from codenames_ai.legality import analysis
from codenames_ai.legality.check import check_clue_word
from codenames_ai.legality.language import lexicon
from codenames_ai.legality.lexicon import WORD_CACHE_SIZE

BOARD = ("APPLE", "RIVER", "MOON")


def _caches() -> dict[str, Callable[..., Any]]:
    lex = lexicon()
    return {"lexicon.lemmas": lex.lemmas, "lexicon.phones": lex.phones,
            "lexicon.stems": lex.stems, "analyze": analysis._cached_analyze,
            "intrinsic_problems": analysis._cached_intrinsic_problems,
            "family": analysis.family, "derivation_bases": analysis.derivation_bases}


def _made_up_words() -> Iterator[str]:
    """Distinct words of letters that no dictionary lists, as a client might send."""
    return ("qx" + "".join(p) for p in itertools.product(string.ascii_lowercase, repeat=4))


def test_every_cache_keeps_at_most_its_cap_of_words() -> None:
    for word in itertools.islice(_made_up_words(), WORD_CACHE_SIZE + 200):
        check_clue_word(word, BOARD, "classic")
    for name, cache in _caches().items():
        info = cache.cache_info()  # type: ignore[attr-defined]
        assert info.maxsize == WORD_CACHE_SIZE, name
        assert info.currsize <= WORD_CACHE_SIZE, name
    # They did fill up: the words went through every one of them.
    assert analysis._cached_analyze.cache_info().currsize == WORD_CACHE_SIZE


def test_a_word_longer_than_any_clue_is_judged_but_not_kept() -> None:
    huge = "a" * 16_000  # what a request body of the web app can hold
    sizes = {name: cache.cache_info().currsize  # type: ignore[attr-defined]
             for name, cache in _caches().items()}
    violations = check_clue_word(huge, BOARD, "classic")
    assert [v.rule for v in violations] == ["too-long"]
    assert {name: cache.cache_info().currsize  # type: ignore[attr-defined]
            for name, cache in _caches().items()} == sizes


def test_the_cache_holds_a_whole_clue_vocabulary() -> None:
    """The AI's candidate filter analyses a vocabulary of tens of thousands of words (the
    default is 30,000) and must find them all cached when a second rule set needs them."""
    from codenames_ai.agents.vocabulary import DEFAULT_VOCABULARY_SIZE

    assert WORD_CACHE_SIZE >= 2 * DEFAULT_VOCABULARY_SIZE
