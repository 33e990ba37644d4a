"""The minds of the panel and the panel itself: word models trained on different data and
objectives (co-occurrence, a sentence encoder, a dictionary), their familiar candidate clue
words, and every candidate's similarity to every card in each mind's standard units.

A card of a shipped deck has its similarities in the deck's table (``tables``), computed once
and kept on disk; any other card is computed when a board shows it and kept in a bounded
cache shared by every game and room of the process. A mind's model is loaded only when a
card or a clue word outside the tables needs it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

from ...core.clues import normalize_word
from ...core.errors import ModelError
from ...pictures import NO_PICTURES, Captions
from ...vectors import WordVectors
from ...vectors.model import DEFAULT_PICTURE_MEANING
from ..lru import BoundedCache, OwnLock
from ..options import Help
from ..space import Calibration, CardKey, LegalClues
from .tables import DeckTable, fill_abstentions

FloatArray = npt.NDArray[np.float32]

DEFAULT_MINDS = ("glove-6b-50d", "minilm-l6-words", "wordnet-3.0")
# The default spymaster's panel (panel-spymaster-v3): the three and people's associations.
PEOPLE_MINDS = (*DEFAULT_MINDS, "eat-associations")
# How a player would name what each mind knows, for explanations.
MIND_LABELS = {
    "glove-6b-50d": "word use",
    "minilm-l6-words": "meaning",
    "wordnet-3.0": "the dictionary",
    "eat-associations": "people's associations",
}
# Cards outside the tables whose similarities are kept (each costs minds x candidates x 4
# bytes, about 110 kB for the default panel): a few dozen boards of a user's own deck.
CARD_CACHE = 1024


class Mind(OwnLock):
    """One model of the panel: its vectors and how similar unrelated words look in it.
    ``model`` may be a loader, called the first time the vectors are needed."""

    def __init__(self, name: str, model: WordVectors | Callable[[], WordVectors],
                 calibration: Calibration) -> None:
        self.name = name
        self.calibration = calibration
        self._model = model if isinstance(model, WordVectors) else None
        self._load = None if isinstance(model, WordVectors) else model
        self._lock = threading.Lock()

    @property
    def model(self) -> WordVectors:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    assert self._load is not None
                    self._model = self._load()
        return self._model

    @property
    def label(self) -> str:
        return MIND_LABELS.get(self.name, self.name)

    def card_z(self, cards: Sequence[str], vectors: FloatArray,
               meaning: str = DEFAULT_PICTURE_MEANING, pictures: Captions = NO_PICTURES
               ) -> FloatArray:
        """Similarity of each card to each row of ``vectors`` in this mind's standard units,
        shape (cards, V); a card this mind cannot read is a row of NaN (it abstains).
        ``pictures``: the captions of the picture deck in play."""
        model = self.model
        readable = [i for i, card in enumerate(cards) if model.reads(card, pictures=pictures)]
        if not readable:
            return np.full((len(cards), len(vectors)), np.nan, dtype=np.float32)
        z = model.card_scores([cards[i] for i in readable], vectors, meaning, pictures=pictures)
        z -= np.float32(self.calibration.mean)  # in place: a board's rows are large
        z /= np.float32(self.calibration.std)
        if len(readable) == len(cards):
            return z
        out = np.full((len(cards), len(vectors)), np.nan, dtype=np.float32)
        out[readable] = z
        return out

    def word_vector(self, word: str) -> FloatArray | None:
        model = self.model
        if word not in model and not model.has_subwords:
            return None
        return model.word_vector(word)


class Panel:
    """Minds that judge together. Candidates are familiar clue words every mind knows; each
    mind's rows of them are kept as unit matrices (``matrices``, read-only, memory-mapped
    when the panel comes from the cache). ``tables``: the shipped decks' tables."""

    def __init__(self, minds: Sequence[Mind], candidates: Sequence[str],
                 cache_folder: Path | None = None, *,
                 matrices: Sequence[FloatArray] | None = None,
                 tables: Sequence[DeckTable] = (),
                 legality: LegalClues | None = None,
                 rarity: npt.NDArray[np.float64] | None = None,
                 derived: npt.NDArray[np.bool_] | None = None,
                 said: npt.NDArray[np.float64] | None = None,
                 nounless: npt.NDArray[np.bool_] | None = None) -> None:
        if not minds:
            raise ValueError("a panel needs at least one mind")
        self.minds = tuple(minds)
        self.words = tuple(candidates)
        if not self.words:
            raise ModelError("the panel's minds share no familiar clue word")
        if matrices is None:
            matrices = [_unit_rows(mind.model, self.words) for mind in self.minds]
        self.matrices = [np.asarray(matrix) for matrix in matrices]  # memory maps as arrays
        self.tables = tuple(tables)
        self.legality = legality or LegalClues(self.words, cache_folder)
        self._normal = {normalize_word(w): i for i, w in enumerate(self.words)}
        self._exact = {w: i for i, w in enumerate(self.words)}
        self._rarity = rarity
        self._derived = derived
        self._said = said
        self._nounless = nounless
        self._cards: BoundedCache[tuple[CardKey, str], FloatArray] = BoundedCache(CARD_CACHE)
        # Rows other models derive from a card's similarities (people's fit of every
        # candidate to the card: ``reading.PeopleReading``), kept and forgotten with them.
        self.derived_rows: BoundedCache[tuple[object, ...], npt.NDArray[Any]] = BoundedCache(
            CARD_CACHE)
        # Rows derived from the candidates alone (a failed clue's neighbours, which
        # candidates people's study knows), the same for every board.
        self.word_rows: BoundedCache[tuple[object, ...], npt.NDArray[Any]] = BoundedCache(
            CARD_CACHE)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.minds)

    def index(self, word: str) -> int | None:
        return self._normal.get(normalize_word(word))

    @property
    def rarity(self) -> npt.NDArray[np.float64]:
        """Zipf units below 5 (about 10 per million words) of each candidate."""
        if self._rarity is None:
            self._rarity = rarity_of(self.words)
        return self._rarity

    @property
    def derived(self) -> npt.NDArray[np.bool_]:
        """Whether each candidate is a derived or inflected form people would say in its
        base form (icy for ice, mathematical, ministerial, stabbing); nouns such as
        ``computer`` are words of their own."""
        if self._derived is None:
            self._derived = derived_forms(self.words)
        return self._derived

    @property
    def said(self) -> npt.NDArray[np.float64]:
        """How many times people gave each candidate as a word association (the shipped
        EAT's counts; 0 for a word it never heard): how readily people say it."""
        if self._said is None:
            self._said = said_of(self.words)
        return self._said

    @property
    def nounless(self) -> npt.NDArray[np.bool_]:
        """Candidates with no reading as a noun (pathetic, hilarious, comprise): people
        clue with nouns, and readers find such words vague far more often."""
        if self._nounless is None:
            self._nounless = nounless_of(self.words)
        return self._nounless

    def legal_mask(self, clue_rules: str, visible_words: tuple[str, ...],
                   pictures: Captions | None = None) -> npt.NDArray[np.bool_]:
        return self.legality.legal_mask(clue_rules, visible_words, pictures)

    def board_z(self, cards: tuple[str, ...], meaning: str = DEFAULT_PICTURE_MEANING,
                pictures: Captions = NO_PICTURES) -> FloatArray:
        """Every candidate's similarity to every card in every mind, in standard units:
        shape (minds, cards, V), NaN where a mind cannot read a card."""
        keys = [(card, pictures.get(card, ())) for card in cards]
        z, readable = self._rows(keys, meaning, pictures)
        self._check_readable(cards, readable)
        z.flags.writeable = False
        return z

    def check_readable(self, cards: tuple[str, ...], meaning: str = DEFAULT_PICTURE_MEANING,
                       pictures: Captions = NO_PICTURES) -> None:
        """``ModelError`` naming a card no mind reads (``board_z``'s check, whose rows are
        kept then for ``board_block``)."""
        keys = [(card, pictures.get(card, ())) for card in cards]
        table = self._table_for(keys, meaning)
        if table is not None:
            self._check_readable(cards, table.readable(keys))
            return
        rows = [self._cards.get((key, meaning)) for key in keys]
        if any(row is None for row in rows):  # computed (and kept) first
            self._check_readable(cards, self._rows(keys, meaning, pictures)[1])
            return
        # a mind reads a card's whole row or none of it: the first column tells
        self._check_readable(cards, np.array([not np.isnan(row[:, 0]).all()
                                              for row in rows if row is not None]))

    def board_bounds(self, cards: tuple[str, ...], meaning: str = DEFAULT_PICTURE_MEANING,
                     pictures: Captions = NO_PICTURES) -> tuple[FloatArray, FloatArray]:
        """For every card and candidate, the similarity as the least convinced and as the
        most worried mind sees it (a mind that cannot read the card takes the mean of those
        that can): two arrays of shape (cards, V). A deck's table keeps them."""
        keys = [(card, pictures.get(card, ())) for card in cards]
        table = self._table_for(keys, meaning)
        if table is not None:
            self._check_readable(cards, table.readable(keys))
            return table.bounds(keys)
        z = fill_abstentions(self.board_z(cards, meaning, pictures))
        return z.min(axis=0), z.max(axis=0)

    def board_block(self, cards: tuple[str, ...], candidates: npt.NDArray[np.intp],
                    meaning: str = DEFAULT_PICTURE_MEANING, pictures: Captions = NO_PICTURES
                    ) -> FloatArray:
        """``board_z`` of some candidates only: shape (minds, cards, candidates)."""
        keys = [(card, pictures.get(card, ())) for card in cards]
        table = self._table_for(keys, meaning)
        if table is not None:
            return table.block(keys, candidates)
        rows = [self._cards.get((key, meaning)) for key in keys]
        if any(row is None for row in rows):  # not kept (yet, or any more): compute them
            return self.board_z(cards, meaning, pictures)[:, :, candidates]
        return np.stack([row[:, candidates] for row in rows if row is not None], axis=1)

    def _check_readable(self, cards: Sequence[str], readable: npt.NDArray[np.bool_]) -> None:
        if not readable.all():
            missing = ", ".join(repr(cards[int(i)]) for i in np.flatnonzero(~readable))
            raise ModelError(f"no mind of the panel ({', '.join(self.names)}) can read "
                             f"the card {missing}; replace it in your deck with a common "
                             "English word")

    def clue_z(self, word: str, cards: Sequence[str], meaning: str = DEFAULT_PICTURE_MEANING,
               pictures: Captions = NO_PICTURES) -> FloatArray:
        """One word's similarity to ``cards`` in every mind, shape (minds, cards); a mind
        that lacks the word or a card abstains (NaN). A candidate is read from the cards'
        rows; any other word from the minds' vectors."""
        column = self._exact.get(word)
        if column is not None:
            keys = [(card, pictures.get(card, ())) for card in cards]
            table = self._table_for(keys, meaning)
            if table is not None:
                return table.column(keys, column)
        out = np.full((len(self.minds), len(cards)), np.nan, dtype=np.float32)
        for m, mind in enumerate(self.minds):
            vector = mind.word_vector(word)
            if vector is not None:
                out[m] = mind.card_z(cards, vector[None, :], meaning, pictures)[:, 0]
        return out

    def words_z(self, words: Sequence[str], cards: Sequence[str],
                pictures: Captions = NO_PICTURES) -> FloatArray:
        """``clue_z`` of several words at once, shape (minds, words, cards): one product per
        mind instead of one per word and card."""
        out = np.full((len(self.minds), len(words), len(cards)), np.nan, dtype=np.float32)
        for m, mind in enumerate(self.minds):
            model = mind.model
            known = [i for i, w in enumerate(words) if w in model or model.has_subwords]
            readable = [j for j, c in enumerate(cards) if model.reads(c, pictures=pictures)]
            if not known or not readable:
                continue
            vectors = np.stack([model.word_vector(words[i]) for i in known])
            cosines = model.card_matrix([cards[j] for j in readable],
                                        pictures=pictures) @ vectors.T
            z = (cosines - mind.calibration.mean) / mind.calibration.std
            out[m][np.ix_(known, readable)] = z.T
        return out

    def forget_cards(self) -> None:
        """Drop the similarities kept for cards outside the decks (a benchmark times a board
        whose cards the panel has not seen)."""
        self._cards = BoundedCache(self._cards.maxsize)
        self.derived_rows = BoundedCache(self.derived_rows.maxsize)

    def _table_for(self, keys: Sequence[CardKey], meaning: str) -> DeckTable | None:
        return next((t for t in self.tables if t.serves(meaning) and t.covers(keys)), None)

    def _rows(self, keys: Sequence[CardKey], meaning: str, pictures: Captions
              ) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
        """(minds, cards, V) similarities and whether some mind reads each card: from a
        deck's table, else card by card from the bounded cache."""
        table = self._table_for(keys, meaning)
        if table is not None:
            return table.rows(keys), table.readable(keys)
        cached = [self._cards.get((key, meaning)) for key in keys]
        missing = [i for i, row in enumerate(cached) if row is None]
        z: FloatArray | None = None
        if missing:  # one product per mind for the board's new cards
            cards = [keys[i][0] for i in missing]
            fresh = np.stack([mind.card_z(cards, matrix, meaning, pictures)
                              for mind, matrix in zip(self.minds, self.matrices, strict=True)])
            for j, i in enumerate(missing):
                row = np.ascontiguousarray(fresh[:, j, :])  # (minds, V), on its own
                row.flags.writeable = False
                cached[i] = self._cards.put((keys[i], meaning), row)
            if len(missing) == len(keys):  # a board of new cards: its rows as computed
                z = fresh
        if z is None:
            rows = [row for row in cached if row is not None]
            z = np.stack(rows, axis=1) if rows else \
                np.zeros((len(self.minds), 0, len(self.words)), dtype=np.float32)
        # A mind reads a card's whole row or none of it: the first column tells.
        return z, np.asarray(~np.isnan(z[:, :, 0]).all(axis=0), dtype=bool)


def _unit_rows(model: WordVectors, words: Sequence[str]) -> FloatArray:
    rows = np.array([model.index(w) for w in words], dtype=np.intp)
    matrix = np.ascontiguousarray(model.unit_matrix[rows], dtype=np.float32)
    matrix.flags.writeable = False
    return matrix


PEOPLE_SAID_MIND = "eat-associations"


def said_of(words: Sequence[str]) -> npt.NDArray[np.float64]:
    """``Panel.said`` of ``words``."""
    from ...vectors.shipped import shipped_said

    said = shipped_said(PEOPLE_SAID_MIND)
    return np.array([said.get(w, 0.0) for w in words], dtype=np.float64)


def derived_forms(words: Sequence[str]) -> npt.NDArray[np.bool_]:
    """``Panel.derived`` of ``words``: an inflected form (not its own lemma), or a word that
    is not a noun and derives from another of ``words`` by a suffix or prefix."""
    from ...legality.analysis import derivation_bases
    from ...legality.language import lexicon

    lex = lexicon()
    among = frozenset(words)

    def derived(word: str) -> bool:
        if not any(word in lemmas for lemmas in lex.lemmas(word).values()):
            return True
        return "NOUN" not in lex.parts_of_speech(word) and bool(
            derivation_bases(word, lex) & among)

    return np.array([derived(w) for w in words], dtype=bool)


def nounless_of(words: Sequence[str]) -> npt.NDArray[np.bool_]:
    """``Panel.nounless`` of ``words``."""
    from ...legality.language import lexicon

    lex = lexicon()
    return np.array(["NOUN" not in lex.parts_of_speech(w) for w in words], dtype=bool)


def rarity_of(words: Sequence[str]) -> npt.NDArray[np.float64]:
    """Zipf units below 5 (about 10 per million words) of each word (wordfreq's English
    figures, read from the lexicon's table: the same numbers as ``wordfreq.zipf_frequency``
    for a single word, without tokenizing each)."""
    from ...legality.language import lexicon

    lex = lexicon()
    return np.array([max(0.0, 5.0 - lex.zipf(w)) for w in words], dtype=np.float64)


# Options the panel agents share.
ReadyPanel = Annotated[Panel | None, Help("a ready panel (Python only)")]
OneMind = Annotated[str | None, Help("one model instead of the panel's minds")]
AgreeingMinds = Annotated[Sequence[str], Help("the models that must agree")]
GuessingMinds = Annotated[Sequence[str], Help("the models guessing together")]
