"""What embedding agents share: a model, its clue vocabulary as one unit matrix, the legality
filter per clue-rule set, and the model's calibration. Built once per process and model."""

from __future__ import annotations

import contextlib
import hashlib
import random
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core.clues import normalize_word
from ..core.errors import ModelError
from ..decks import default_deck
from ..files import private_folder
from ..legality import CandidateFilter
from ..legality.deckrows import DeckLegality, remember
from ..legality.filter import filter_signature
from ..once import built_once
from ..pictures import NO_PICTURES, Captions, shipped_captions
from ..vectors import ModelStore, WordVectors, load_model
from ..vectors.manifest import CheckedFolder
from ..vectors.model import DEFAULT_PICTURE_MEANING
from .lru import BoundedCache, OwnLock
from .vocabulary import cached_clue_vocabulary

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
DEFAULT_VOCABULARY = 25_000
# What a board's score matrix is kept under: the cards, the picture meaning and each card's
# caption tags (the same names in two decks are two boards).
BoardKey = tuple[tuple[str, ...], str, tuple[tuple[str, ...], ...]]
# A card and its caption tags (empty for a word card): how a deck's card is looked up.
CardKey = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Calibration:
    """How similar unrelated words look in this model: cosines of random (clue word, deck
    card) pairs. Models differ a lot (GloVe spreads wider than MiniLM), so thresholds and
    noise are set in units of this spread, never as raw cosines."""

    mean: float
    std: float
    quantiles: tuple[float, ...]  # the 50th, 75th, 90th, 95th, 99th percentiles

    def quantile(self, q: float) -> float:
        levels = (0.50, 0.75, 0.90, 0.95, 0.99)
        return float(np.interp(q, levels, self.quantiles))


class LegalClues(OwnLock):
    """Which of a fixed list of candidate clues are legal on a board, per clue-rule set.

    Each rule set's analysed vocabulary is kept in ``cache_folder`` between runs. So are the
    cards of ``decks`` (the shipped decks, as (card, caption tags) pairs): a board of deck
    cards is then a union of stored rows, and the language data (seconds to load) is read
    only for a card outside them."""

    def __init__(self, words: tuple[str, ...], cache_folder: Path | None = None,
                 decks: Sequence[Sequence[CardKey]] = ()) -> None:
        self.words = words
        self.cache_folder = cache_folder
        self.decks = tuple(tuple(deck) for deck in decks)
        self._normal = {normalize_word(w): i for i, w in enumerate(words)}
        self._filters: dict[str, CandidateFilter] = {}
        self._blocked: dict[str, DeckLegality] = {}
        self._swept = False  # whether the cache folder's old pickles were looked for
        self._lock = threading.Lock()

    def legal_mask(self, clue_rules: str, visible_words: tuple[str, ...],
                   pictures: Captions | None = None) -> BoolArray:
        """Which candidates are legal clues with these cards face up, under these rules, with
        the captions of the picture deck in play (``CandidateFilter.legal_mask``)."""
        if clue_rules == "basic":
            mask = np.ones(len(self.words), dtype=bool)
            for card in visible_words:
                index = self._normal.get(normalize_word(card))
                if index is not None:
                    mask[index] = False
            return mask
        captions = shipped_captions() if pictures is None else pictures
        keys = [(card, captions.get(card, ())) for card in visible_words]
        stored = self._deck_legality(clue_rules, keys)
        if stored is not None:
            return stored.legal_mask(keys)
        return self.filter(clue_rules).legal_mask(visible_words, captions)

    def filter(self, clue_rules: str) -> CandidateFilter:
        """The rule set's analysed vocabulary (made once per process and word list: the
        panels of the levels share their candidates)."""
        with self._lock:
            candidate_filter = self._filters.get(clue_rules)
            if candidate_filter is None:
                candidate_filter = _SHARED_FILTERS.get_or_build(
                    (clue_rules, self.words), lambda: self._load_filter(clue_rules))
                self._filters[clue_rules] = candidate_filter
            return candidate_filter

    def _deck_legality(self, clue_rules: str, keys: Sequence[CardKey]) -> DeckLegality | None:
        """The stored rows of the deck holding every one of ``keys``, if there is one."""
        stored = self._blocked.get(clue_rules)
        if stored is not None and stored.covers(keys):
            return stored
        deck = next((d for d in self.decks if set(keys) <= set(d)), None)
        if deck is None:
            return None
        stored = _SHARED_DECK_ROWS.get_or_build(
            (clue_rules, self.words, deck), lambda: self._load_deck_legality(clue_rules, deck))
        self._blocked[clue_rules] = stored
        remember(clue_rules, self.words, stored)  # the rules core's validator reads them too
        return stored

    def _load_deck_legality(self, clue_rules: str, deck: tuple[CardKey, ...]) -> DeckLegality:
        name = f"blocked-{_file_part(clue_rules)}-{len(self.words)}-{deck_digest(deck)}.npz"
        folder = self._folder()
        data = folder.read(name) if folder is not None else None
        signature = filter_signature(clue_rules, self.words)
        loaded = DeckLegality.loads(data, signature, deck) if data else None
        if loaded is not None:
            return loaded
        candidate_filter = self.filter(clue_rules)
        built = DeckLegality(deck, candidate_filter.intrinsic_mask(),
                             [candidate_filter.blocked_by(card, tags) for card, tags in deck])
        if folder is not None:
            with contextlib.suppress(OSError):  # a read-only cache costs the next run seconds
                folder.write(name, built.dumps(signature))
        return built

    def _folder(self) -> CheckedFolder | None:
        """The cache folder, made when first needed (None when there is none or it cannot
        be made: then nothing is kept between runs)."""
        if self.cache_folder is None:
            return None
        try:
            private_folder(self.cache_folder)
        except OSError:
            return None
        folder = CheckedFolder(self.cache_folder)
        if not self._swept:  # an older version's legality-*.pickle: never read, so gone
            folder.drop_pickles()
            self._swept = True
        return folder

    def _load_filter(self, clue_rules: str) -> CandidateFilter:
        """The legality filter of the vocabulary, from the cache folder when an earlier run
        saved it (analysing 25,000 words takes seconds)."""
        folder = self._folder()
        if folder is None:
            return CandidateFilter(self.words, clue_rules)
        # Plain arrays (.npz): an older version's legality-*.pickle beside it is never read.
        name = f"legality-{_file_part(clue_rules)}-{len(self.words)}.npz"
        data = folder.read(name)
        loaded = CandidateFilter.loads(data, self.words, clue_rules) if data else None
        if loaded is not None:
            return loaded
        built = CandidateFilter(self.words, clue_rules)
        with contextlib.suppress(OSError):  # a read-only cache costs the next run some seconds
            folder.write(name, built.dumps())
        return built


# Filters and deck rows already made in this process, by rules and word list (and deck).
_SHARED_FILTERS: BoundedCache[tuple[str, tuple[str, ...]], CandidateFilter] = BoundedCache(8)
_SHARED_DECK_ROWS: BoundedCache[tuple[str, tuple[str, ...], tuple[CardKey, ...]],
                                DeckLegality] = BoundedCache(8)


def deck_digest(deck: Sequence[CardKey], salt: str = "") -> str:
    """A short name for a deck's cards and tags (after ``salt``, what else a file made from
    them depends on), for the files kept about it."""
    text = "\n".join(card + "\t" + " ".join(tags) for card, tags in deck)
    return hashlib.sha256(((salt + "\n" if salt else "") + text).encode("utf-8")
                          ).hexdigest()[:12]


def _file_part(clue_rules: str) -> str:
    """A rule set's name as part of a file name (house rules hold ':' and '+')."""
    return clue_rules.replace(":", "_").replace("+", "-")


@dataclass
class ClueSpace:
    """A model, its candidate clue words and their unit vectors ``matrix`` (V, D)."""

    model: WordVectors
    words: tuple[str, ...]
    matrix: FloatArray
    calibration: Calibration
    cache_folder: Path | None = None  # where analysed vocabularies are kept between runs
    _legal: LegalClues = field(init=False)
    _normal: dict[str, int] = field(default_factory=dict)
    _boards: BoundedCache[BoardKey, FloatArray] = field(default_factory=lambda: BoundedCache(8))

    def __post_init__(self) -> None:
        self._normal = {normalize_word(w): i for i, w in enumerate(self.words)}
        self._legal = LegalClues(self.words, self.cache_folder)

    def legal_mask(self, clue_rules: str, visible_words: tuple[str, ...],
                   pictures: Captions | None = None) -> BoolArray:
        """Which candidates are legal clues with these cards face up, under these rules, with
        the captions of the picture deck in play (``CandidateFilter.legal_mask``)."""
        return self._legal.legal_mask(clue_rules, visible_words, pictures)

    def scores(self, candidates: npt.NDArray[np.intp] | None, cards: tuple[str, ...],
               meaning: str = DEFAULT_PICTURE_MEANING, pictures: Captions = NO_PICTURES
               ) -> FloatArray:
        """Cosine of each candidate clue (all words when ``None``) with each card, shape
        ``(len(candidates), len(cards))``; ``meaning`` says how a picture's tags count
        (``pictures``: the captions of the picture deck in play)."""
        matrix = self.matrix if candidates is None else self.matrix[candidates]
        # Computed card-major, so reductions over cards run along contiguous rows of the
        # transpose (much faster than over a short, strided last axis).
        result: FloatArray = self.model.card_scores(cards, matrix, meaning,
                                                    pictures=pictures).T
        return result

    def board_scores(self, cards: tuple[str, ...], meaning: str = DEFAULT_PICTURE_MEANING,
                     pictures: Captions = NO_PICTURES) -> FloatArray:
        """``scores(None, cards)`` card-major, shape (cards, V), kept for the last few boards:
        both spymasters of a game (and every turn of each) ask for the same board."""
        return _board_scores(self, cards, meaning, pictures)

    def index(self, word: str) -> int | None:
        return self._normal.get(normalize_word(word))

    def model_names(self) -> tuple[str, ...]:
        """The name of its model, as ``load_model`` knows it."""
        return (self.model.name,)


class EnsembleSpace:
    """Several models judging together: a clue's score for a card is the mean over the models
    of its similarity in standard units of that model ((cosine - mean) / spread). Candidates are
    the clue words every model knows. A relation several different models agree on is more
    likely to be one a person sees."""

    def __init__(self, spaces: list[ClueSpace]) -> None:
        if len(spaces) < 2:
            raise ValueError("an ensemble needs at least two models")
        self.spaces = spaces
        self.model = spaces[0].model  # for covers and card lookups
        words = [w for w in spaces[0].words if all(s.index(w) is not None for s in spaces[1:])]
        self.words = tuple(words)
        self._rows = [np.array([s.index(w) for w in words], dtype=np.intp) for s in spaces]
        self._legal = LegalClues(self.words)
        self.calibration = self._calibrate()
        self._boards: BoundedCache[BoardKey, FloatArray] = BoundedCache(8)

    @property
    def name(self) -> str:
        return "+".join(s.model.name for s in self.spaces)

    def model_names(self) -> tuple[str, ...]:
        """The names of its models, as ``load_model`` knows them."""
        return tuple(s.model.name for s in self.spaces)

    def legal_mask(self, clue_rules: str, visible_words: tuple[str, ...],
                   pictures: Captions | None = None) -> BoolArray:
        return self._legal.legal_mask(clue_rules, visible_words, pictures)

    def board_scores(self, cards: tuple[str, ...], meaning: str = DEFAULT_PICTURE_MEANING,
                     pictures: Captions = NO_PICTURES) -> FloatArray:
        return _board_scores(self, cards, meaning, pictures)

    def scores(self, candidates: npt.NDArray[np.intp] | None, cards: tuple[str, ...],
               meaning: str = DEFAULT_PICTURE_MEANING, pictures: Captions = NO_PICTURES
               ) -> FloatArray:
        count = len(self.words) if candidates is None else len(candidates)
        total = np.zeros((count, len(cards)), dtype=np.float32)
        for space, rows in zip(self.spaces, self._rows, strict=True):
            raw = space.scores(rows if candidates is None else rows[candidates], cards, meaning,
                               pictures)
            total += (raw - space.calibration.mean) / space.calibration.std
        result: FloatArray = (total / len(self.spaces)).astype(np.float32)
        return result

    def _calibrate(self) -> Calibration:
        rng = random.Random(0)
        deck = [c for c in default_deck("words") if all(c in s.model for s in self.spaces)]
        _require_words(" + ".join(s.model.name for s in self.spaces), self.words, deck)
        picks = np.array([rng.randrange(len(self.words)) for _ in range(600)], dtype=np.intp)
        cards = tuple(rng.choice(deck) for _ in range(40))
        values = self.scores(picks, cards).ravel()
        return Calibration(float(values.mean()), float(values.std()),
                           tuple(float(q) for q in np.quantile(values, (0.5, 0.75, 0.9, 0.95,
                                                                       0.99))))


def calibrate(model: WordVectors, words: tuple[str, ...], matrix: FloatArray) -> Calibration:
    """Cosines of 4,000 seeded random pairs of clue words and deck cards."""
    rng = random.Random(0)
    deck = [c for c in default_deck("words") if c in model]
    _require_words(model.name, words, deck)
    clue_rows = matrix[[rng.randrange(len(words)) for _ in range(4000)]]
    cards = model.card_matrix([rng.choice(deck) for _ in range(4000)])
    cosines = np.einsum("ij,ij->i", clue_rows, cards)
    return Calibration(float(cosines.mean()), float(cosines.std()),
                       tuple(float(q) for q in np.quantile(cosines, (0.5, 0.75, 0.9, 0.95,
                                                                      0.99))))


def _require_words(model: str, words: tuple[str, ...], deck: list[str]) -> None:
    """A model must know some clue words and some cards to play at all."""
    if not words or not deck:
        missing = "no usable English clue words" if not words else "no card of the Words deck"
        raise ModelError(f"model {model!r} knows {missing}, so an agent cannot play with it; "
                         "choose a model of English words (codenames models list)")


def _board_scores(space: ClueSpace | EnsembleSpace, cards: tuple[str, ...], meaning: str,
                  pictures: Captions) -> FloatArray:
    key = (cards, meaning, tuple(pictures.get(card, ()) for card in cards))

    def build() -> FloatArray:
        matrix = np.ascontiguousarray(space.scores(None, cards, meaning, pictures).T)
        matrix.flags.writeable = False
        return matrix

    return space._boards.get_or_build(key, build)


_SHARED: dict[tuple[str, int], ClueSpace] = {}


def share_space(name: str, space: ClueSpace, vocabulary_size: int = DEFAULT_VOCABULARY
                ) -> None:
    """Make ``clue_space(name, vocabulary_size=...)`` return ``space`` in this process (a
    distributed worker gets a read-only copy from its node instead of building its own)."""
    _SHARED[(name, vocabulary_size)] = space


def clue_space(model: str | WordVectors = "glove-6b-50d", *,
               vocabulary_size: int = DEFAULT_VOCABULARY,
               cache_dir: Path | str | None = None) -> ClueSpace:
    """The shared clue space of a model (by name or loaded), built once per process."""
    if isinstance(model, str) and (model, vocabulary_size) in _SHARED:
        return _SHARED[(model, vocabulary_size)]
    if isinstance(model, WordVectors):
        return _build(model, vocabulary_size, None if cache_dir is None else str(cache_dir))
    return _space_by_name(model, vocabulary_size, None if cache_dir is None else str(cache_dir))


# Clue spaces kept built (each holds its analysed vocabulary per rule set: hundreds of MB):
# a server's clients may ask for every model in turn, so only the last few stay; the default
# game's panel agents use none of them.
SPACES_KEPT = 2


# Every clue space built by name that something (an agent, the cache above) still holds, so a
# distributed driver can ship the ones its agents use (``built_spaces``).
_BUILT: weakref.WeakValueDictionary[tuple[str, int], ClueSpace] = weakref.WeakValueDictionary()


@built_once(maxsize=SPACES_KEPT)
def _space_by_name(name: str, vocabulary_size: int, cache_dir: str | None) -> ClueSpace:
    space = _build(load_model(name, cache_dir=cache_dir), vocabulary_size, cache_dir)
    _BUILT[(name, vocabulary_size)] = space
    return space


def built_spaces(models: Sequence[str]) -> list[tuple[str, int, ClueSpace]]:
    """(model, vocabulary size, clue space) of each clue space of these models that this
    process has built by name and still holds (agents' models with no clue space, such as a
    panel's minds, have none)."""
    wanted = set(models)
    return [(name, size, space) for (name, size), space in list(_BUILT.items())
            if name in wanted]


def _build(model: WordVectors, vocabulary_size: int, cache_dir: str | None) -> ClueSpace:
    words = cached_clue_vocabulary(model, cache_dir, size=vocabulary_size)
    rows = np.array([model.index(w) for w in words], dtype=np.intp)
    matrix = model.unit_matrix[rows] if words else np.zeros((0, model.dimensions),
                                                            dtype=np.float32)
    matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    matrix.flags.writeable = False
    store = ModelStore(cache_dir)
    folder = store.path(model.name) if store.has(model.name) else None
    return ClueSpace(model, words, matrix, calibrate(model, words, matrix), folder)
