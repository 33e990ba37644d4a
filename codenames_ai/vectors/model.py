"""A loaded word-vector model: lookups by word and by board card, unit vectors for cosines."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..core.errors import ModelError
from ..pictures import NO_PICTURES, Captions

if TYPE_CHECKING:
    from gensim.models import KeyedVectors

FloatArray = npt.NDArray[np.float32]
_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015_]+")

# How a picture card's tags make its meaning: "mean" of the tag vectors, "weighted" mean (the
# first, main tag counts most: weights 1, 1/2, 1/3, ...), or "max": a clue's similarity to the
# picture is its best tag's. "mean" measured best for a guesser that reads pictures another
# way: 65% wins on average against the other meanings and the MiniLM guesser, weighted 62%,
# max 58% (python -m benchmarks.pictures --boards 300; each is 100% against itself).
PICTURE_MEANINGS = ("mean", "weighted", "max")
DEFAULT_PICTURE_MEANING = "mean"


@dataclass(frozen=True)
class PlainVectors:
    """Words and their vectors as a built-in model's builder hands them to the cache: what
    the cache reads of gensim's ``KeyedVectors``, without importing gensim (about a second of
    a first run)."""

    index_to_key: list[str]
    vectors: FloatArray

    @property
    def vector_size(self) -> int:
        return int(self.vectors.shape[1])

    def __len__(self) -> int:
        return len(self.index_to_key)


class WordVectors:
    """Word vectors under a model name: ``words[i]`` has the vector ``vectors[i]`` (shape
    ``(len(words), dimensions)``, possibly memory-mapped). A fastText model also carries its
    gensim ``keyed`` vectors for unknown words. Vectors handed out are unit length."""

    def __init__(self, name: str, words: Sequence[str], vectors: npt.NDArray[np.floating[Any]],
                 *, keyed: KeyedVectors | None = None, unit: bool = False) -> None:
        if len(words) != len(vectors):
            raise ModelError(f"model {name!r}: {len(words)} words but {len(vectors)} vectors")
        self.name = name
        self.words = list(words)
        self.vectors = vectors
        self.keyed = keyed
        self.unit = unit  # the rows are unit_rows already (the cache writes them so)
        self.key_to_index = dict(zip(self.words, range(len(self.words)), strict=True))

    @classmethod
    def from_keyed(cls, name: str, keyed: KeyedVectors, *, unit: bool = False) -> WordVectors:
        subwords = keyed if hasattr(keyed, "buckets_word") else None
        return cls(name, keyed.index_to_key, keyed.vectors, keyed=subwords, unit=unit)

    @property
    def dimensions(self) -> int:
        return int(self.vectors.shape[1])

    @property
    def has_subwords(self) -> bool:
        """fastText models build vectors for unknown words from their pieces."""
        return self.keyed is not None

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.key_for(word) is not None

    @functools.cached_property
    def unit_matrix(self) -> FloatArray:
        """Every vector normalised to unit length, shape ``(len(self), dimensions)``,
        read-only: the vectors themselves when they are unit rows already (a memory-mapped
        cache file is read in place, never copied), else computed once."""
        if self.unit and self.vectors.dtype == np.float32:
            matrix: FloatArray = self.vectors.view()
            matrix.flags.writeable = False
            return matrix
        return unit_rows(self.vectors)

    def _row(self, index: int) -> FloatArray:
        row: FloatArray = self.unit_matrix[index]
        return row

    def key_for(self, word: str) -> str | None:
        """The model's key for ``word``: as given, else lower case (GloVe is lower case),
        else in plain letters (a phone's full-width ＣＵＴ, the ligature in ﬂame, which the
        clue rules accept as words)."""
        key_to_index = self.key_to_index
        for candidate in (word, word.lower(), word.strip().lower()):
            if candidate in key_to_index:
                return candidate
        plain = unicodedata.normalize("NFKC", word).strip().lower()
        return plain if plain in key_to_index else None

    def index(self, word: str) -> int | None:
        key = self.key_for(word)
        return None if key is None else self.key_to_index[key]

    def word_vector(self, word: str) -> FloatArray:
        """The unit vector of one word; a fastText model also answers unknown words."""
        index = self.index(word)
        if index is not None:
            return self._row(index)
        if self.keyed is not None and word.strip():
            return _unit(np.asarray(self.keyed.get_vector(word.strip().lower()),
                                    dtype=np.float32))
        raise self.missing(word)

    def card_vector(self, card: str, meaning: str = DEFAULT_PICTURE_MEANING, *,
                    pictures: Captions = NO_PICTURES) -> FloatArray:
        """The unit vector of a board card, which may be a phrase ("ice cream", "New York"):
        the phrase as a phrase model spells it (ice_cream), else the mean of its words' vectors,
        else the phrase written as one token (ice-cream, icecream). A card in ``pictures`` (the
        captions of the picture deck in play) is built from its tags (``meaning``; "max" has
        no single vector and uses "weighted"). ``ModelError`` names a card the model cannot
        represent and says what to do."""
        tags = self.tag_matrix(card, pictures=pictures)
        if tags is not None:
            if meaning == "mean":
                return _unit(tags.mean(axis=0))
            weights = 1.0 / np.arange(1, len(tags) + 1, dtype=np.float32)
            return _unit((weights[:, None] * tags).sum(axis=0))
        text = card.strip()
        parts = [p for p in _SEPARATORS.split(text) if p]
        if len(parts) <= 1:
            return self.word_vector(text)
        index = self.index("_".join(parts))
        if index is not None:
            return self._row(index)
        missing = [p for p in parts if p not in self and not self.has_subwords]
        if not missing:
            return _unit(np.mean([self.word_vector(p) for p in parts], axis=0))
        for joined in ("-".join(parts), "".join(parts)):
            index = self.index(joined)
            if index is not None:
                return self._row(index)
        raise self.missing(card, parts=missing)

    def reads(self, card: str, *, pictures: Captions = NO_PICTURES) -> bool:
        """Whether ``card_vector`` can represent ``card``: the same lookups, without building
        the vector or raising."""
        if self.has_subwords:
            return bool(card.strip()) or bool(pictures.get(card))
        tags = pictures.get(card)
        if tags:
            return any(t in self for t in tags)
        text = card.strip()
        parts = [p for p in _SEPARATORS.split(text) if p]
        if len(parts) <= 1:
            return text in self
        return ("_".join(parts) in self or all(p in self for p in parts)
                or "-".join(parts) in self or "".join(parts) in self)

    def tag_matrix(self, card: str, *, pictures: Captions = NO_PICTURES) -> FloatArray | None:
        """For a picture card (one of ``pictures``), the unit vectors of the tags this model
        knows, in tag order (None for a word card)."""
        tags = pictures.get(card)
        if not tags:
            return None
        known = [t for t in tags if t in self or self.has_subwords]
        if not known:
            raise ModelError(f"model {self.name!r} knows none of the tags of picture {card!r} "
                             f"({', '.join(tags)}); add common English tags to its caption")
        return np.stack([self.word_vector(t) for t in known]).astype(np.float32)

    def card_matrix(self, cards: Sequence[str], meaning: str = DEFAULT_PICTURE_MEANING, *,
                    pictures: Captions = NO_PICTURES) -> FloatArray:
        """Unit vectors of several cards, shape ``(len(cards), dimensions)``."""
        if not cards:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.stack([self.card_vector(card, meaning, pictures=pictures)
                         for card in cards]).astype(np.float32)

    def card_scores(self, cards: Sequence[str], vectors: FloatArray,
                    meaning: str = DEFAULT_PICTURE_MEANING, *,
                    pictures: Captions = NO_PICTURES) -> FloatArray:
        """Cosines of each card with unit ``vectors``: shape ``(cards, V)`` for ``(V, D)``
        vectors, ``(cards,)`` for one vector. With ``meaning="max"`` a picture (a card of
        ``pictures``) scores as its best tag."""
        if meaning not in PICTURE_MEANINGS:
            raise ModelError(f"unknown picture meaning {meaning!r}; choose one of "
                             f"{', '.join(PICTURE_MEANINGS)}")
        if meaning != "max" or not any(pictures.get(card) for card in cards):
            result: FloatArray = self.card_matrix(cards, meaning, pictures=pictures) @ vectors.T
            return result
        rows = []
        for card in cards:
            tags = self.tag_matrix(card, pictures=pictures)
            rows.append(self.card_vector(card) @ vectors.T if tags is None
                        else (tags @ vectors.T).max(axis=0))
        return np.stack(rows).astype(np.float32)

    def missing(self, word: str, *, parts: Sequence[str] = ()) -> ModelError:
        which = f" (no vector for {', '.join(repr(p) for p in parts)})" if parts else ""
        return ModelError(
            f"model {self.name!r} has no vector for {word!r}{which}; use another model "
            "(codenames models list), a fastText model (it builds vectors for unknown words), "
            "or replace the card in your deck"
        )


def unit_rows(vectors: npt.NDArray[np.floating[Any]]) -> FloatArray:
    """``vectors`` with every row scaled to unit length (an all-zero row stays zero), as
    float32, read-only."""
    # row-major first: a row's norm is then summed in the same order whatever the layout
    matrix = np.ascontiguousarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = (matrix / np.where(norms == 0, 1, norms)).astype(np.float32)
    unit.flags.writeable = False
    return unit


def _unit(vector: FloatArray) -> FloatArray:
    norm = float(np.linalg.norm(vector))
    result = (vector / norm if norm else vector).astype(np.float32)
    result.flags.writeable = False
    return result
