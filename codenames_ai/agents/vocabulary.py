"""Candidate clue words: frequent English words that a model knows and that make sense as
clues (no stopwords, fragments, names, acronyms, foreign or offensive words; only words that
lemminflect or a dictionary lists in lower case). Which words may be clues is a strategy
choice, so it lives with the agents, not with the word vectors."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from importlib import resources

from ..decks import wordlists_dir
from ..legality.analysis import family, intrinsic_problems
from ..legality.language import lexicon
from ..vectors.model import WordVectors

DEFAULT_VOCABULARY_SIZE = 30_000
# Rules about the word alone that make a poor candidate under any rule set.
_EXCLUDED = frozenset({"too-long", "one-word", "characters", "number", "letter", "position",
                       "not-a-word", "foreign", "abbreviation", "proper-name"})


def _word_set(filename: str) -> frozenset[str]:
    text = (wordlists_dir() / filename).read_text(encoding="utf-8")
    return frozenset(word for line in text.splitlines() if not line.lstrip().startswith("#")
                     for word in line.split())


def stopwords() -> frozenset[str]:
    return _word_set("stopwords.txt")


def offensive_words() -> frozenset[str]:
    """Words an AI never offers as clues: the maintained list of the ``wordfilter`` package
    (Darius Kazemi's, MIT, made for text generators: slurs, and identity and disability
    insults), ours, ``wordlists/offensive.txt`` (profanity, slurs, and the identity and
    disability terms that list lacks, such as autistic), and ``wordlists/sensitive.txt``
    (topics an AI must not volunteer: suicide, sexual terms, drugs, body-shaming...). Their
    forms are filtered too (``family``). A person's clue is judged by the clue rules only."""
    return _word_set("offensive.txt") | _word_set("sensitive.txt") | _wordfilter_words()


@functools.cache
def _wordfilter_words() -> frozenset[str]:
    data = json.loads((resources.files("wordfilter") / "badwords.json").read_text("utf-8"))
    return frozenset(str(word).lower() for word in data if str(word).isalpha())


def offensive_digest() -> str:
    """A short digest of ``offensive_words``, so that a vocabulary kept on disk is made
    again when the list changes."""
    return hashlib.sha256(" ".join(sorted(offensive_words())).encode()).hexdigest()[:8]


def clue_vocabulary(model: WordVectors, *, size: int = DEFAULT_VOCABULARY_SIZE,
                    offensive_filter: bool = True, min_length: int = 3,
                    source: Iterable[str] | None = None,
                    wanted: Callable[[str], bool] | None = None) -> tuple[str, ...]:
    """Up to ``size`` clue candidates, most frequent first (wordfreq's English ranking unless
    ``source`` gives the words to consider). ``wanted``: a further test a word must pass,
    asked before the word is analysed (the analysis is the slow part)."""
    if size < 1:
        raise ValueError(f"vocabulary size must be positive, got {size}")
    if source is None:
        import wordfreq

        source = wordfreq.top_n_list("en", max(size * 4, 50_000))
    blocked = stopwords()
    offensive = offensive_words() if offensive_filter else frozenset()
    lex = lexicon()
    chosen: list[str] = []
    seen: set[str] = set()
    for word in source:
        if len(chosen) >= size:
            break
        if (word in seen or len(word) < min_length or not word.isalpha() or not word.islower()
                or word in blocked or word not in model):
            continue
        seen.add(word)
        if wanted is not None and not wanted(word):
            continue
        if any(rule in _EXCLUDED for rule, _ in intrinsic_problems(word)):
            continue
        # A word some dictionary lists in lower case: keeps out the names and brands a web
        # corpus is full of (kylie, radiohead), which another mind may not know.
        if not (lex.in_lexicon(word) or lex.in_dictionary(word)):
            continue
        if offensive and (word in offensive or family(word, lex) & offensive):
            continue
        chosen.append(word)
    return tuple(chosen)


def vocabulary_file(size: int, offensive_filter: bool = True) -> str:
    """The name of the cached vocabulary file beside a model: it names the offensive-word
    list it was filtered with, so a list that changed never reuses an older file."""
    return f"vocabulary-{size}{f'-{offensive_digest()}' if offensive_filter else '-all'}.txt"


def cached_clue_vocabulary(model: WordVectors, store_dir: str | None = None, *,
                           size: int = DEFAULT_VOCABULARY_SIZE,
                           offensive_filter: bool = True) -> tuple[str, ...]:
    """``clue_vocabulary`` for a cached model, kept beside it as a text file listed in the
    model's manifest (building it takes seconds; reading it, milliseconds). A file that fails
    its check is built again, never used; so is one naming a word the model no longer has
    (the model was changed beside it, which a clue space cannot be built from)."""
    from ..vectors.manifest import CheckedFolder
    from ..vectors.store import ModelStore

    store = ModelStore(store_dir)
    if not store.has(model.name):
        return clue_vocabulary(model, size=size, offensive_filter=offensive_filter)
    folder = CheckedFolder(store.path(model.name))
    name = vocabulary_file(size, offensive_filter)
    data = folder.read(name)
    if data:
        kept = tuple(data.decode("utf-8", "replace").split())  # U+FFFD: no model's word
        if all(word in model for word in kept):
            return kept
    words = clue_vocabulary(model, size=size, offensive_filter=offensive_filter)
    with contextlib.suppress(OSError):  # a read-only cache costs the next run seconds
        folder.write(name, ("\n".join(words) + "\n").encode("utf-8"))
    return words
