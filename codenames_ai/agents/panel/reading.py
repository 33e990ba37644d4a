"""How a person reads a clue: one model, used by the guesser beside a person and by the
spymaster that clues for one.

A person links a card to a clue in two directions at once: the clue brings the card to mind
(forward: the card's similarity to the clue in each mind, in standard units), and the clue is
one of the first words the card itself brings to mind (backward: how few of the panel's
candidate words sit closer to the card than the clue does). People's own answers in the
Edinburgh Associative Thesaurus count both ways too. A card close to every word ("life",
"part") passes the forward test for many clues and fails the backward one.

The fit of a card to a clue is a weighted sum of those three readings; ``find_chance`` turns
it into the probability that the card is one the clue giver meant (a logistic fitted on
people's guesses, checked on the half it was not fitted on: ``python -m benchmarks.people
--halves``). ``read_right_chance`` says how often people touch all of a clue's targets before
any other card, from the gap between the weakest target's fit and the best other card's: the
spymaster's measure of a clue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ...pictures import Captions
from ...vectors.links import Links, eat_links
from ...vectors.norms import word_key
from .minds import Panel

FloatArray = npt.NDArray[np.float32]

RANK_FLOOR = 1e-4  # a backward rank is counted down to 1 in 10,000 candidates


@dataclass(frozen=True)
class ReadingWeights:
    """The model's settings: each mind's weight (a mind not named weighs 1), the backward
    reading's weight against the forward one, people's own answers' weight, the logistic of
    ``find_chance`` (``centre``, ``width``) and how the gap between targets and other cards
    becomes the chance people read the clue right (``read_centre``, ``read_width``)."""

    minds: tuple[tuple[str, float], ...] = (
        ("glove-6b-50d", 0.5), ("minilm-l6-words", 2.0), ("wordnet-3.0", 1.0),
        ("eat-associations", 3.0))
    backward: float = 2.5
    direct: float = 0.6
    # Fitted on people's clues (development splits): the touches after the first, up to the
    # number, of the 12-word boards and Duet.
    centre: float = 5.6
    width: float = 6.7
    # The chance people touch every one of a clue's targets before any other card, from the
    # gap between the weakest target's fit and the best other card's: a logistic of this
    # centre and width, fitted on the 12-word boards (the share of people whose three
    # touches were the three intended words), each half checked on the other
    # (``python -m benchmarks.people --calibration``).
    read_centre: float = -1.0
    read_width: float = 6.5


PEOPLE_READING = ReadingWeights()
_HALF_KEYS = 1 << 16  # the half-precision values, as sortable keys 0..65535


def _half_keys(values: npt.NDArray[np.float16]) -> npt.NDArray[np.uint16]:
    """Each half-precision value as an unsigned key in the values' order (-0 and +0 alike):
    a positive value's bits with the sign bit set; a negative value's bits all flipped."""
    bits = (values + np.float16(0)).view(np.uint16)  # -0 + 0 is +0
    flip = (bits >> np.uint16(15)) * np.uint16(0x7FFF) | np.uint16(0x8000)
    return bits ^ flip


class PeopleReading:
    """The fit of cards to clues as a person reads them, on one ``panel``."""

    def __init__(self, panel: Panel, weights: ReadingWeights = PEOPLE_READING) -> None:
        self.panel = panel
        self.weights = weights
        named = dict(weights.minds)
        self.mind_weights = np.array([named.get(name, 1.0) for name in panel.names],
                                     dtype=np.float32)[:, None]
        self._sorted: tuple[tuple[str, ...], npt.NDArray[np.float16],
                            npt.NDArray[np.int32]] | None = None
        self._links: Links | None = None
        self._candidate_keys: npt.NDArray[np.intp] | None = None  # candidates people know
        self._candidate_index = np.zeros(0, dtype=np.int64)  # their index in the study

    # -- the guesser's side: one clue, the face-up cards ----------------------------------
    def clue_fit(self, word: str, cards: Sequence[str], z: FloatArray,
                 rank: npt.NDArray[np.floating]) -> FloatArray:
        """The fit of each card to ``word`` given its similarities ``z`` (minds, cards) and
        where ``word`` ranks among each card's candidates (``backward_rank``)."""
        said, answered = self.links.both_ways(word, cards)
        return self.combine_fit(z, rank, said, answered)

    def backward_rank(self, z: FloatArray, columns: Sequence[int]) -> npt.NDArray[np.float64]:
        """For the cards at ``columns`` of the board last given to ``ordered_rows``, with a
        clue's similarities ``z`` (minds, columns): the share of each card's candidates at
        least as close to it as the clue (NaN where a mind cannot read the card or the clue).
        One search over the board's rows, each row's values in half precision as a sortable
        key (the same comparisons as a search of each row)."""
        assert self._sorted is not None, "ordered_rows first"
        _, rows, keys = self._sorted
        n_minds, size = rows.shape[0], rows.shape[2]
        rank = np.full(z.shape, np.nan)
        minds, at = np.nonzero(~np.isnan(z))
        cards = np.asarray(columns, dtype=np.int64)[at]
        readable = np.isfinite(rows[minds, cards, -1])
        minds, at, cards = minds[readable], at[readable], cards[readable]
        row_ids = cards * n_minds + minds  # card-major, as ordered_rows lays its keys out
        wanted = (row_ids * _HALF_KEYS + _half_keys(z[minds, at].astype(np.float16))
                  ).astype(np.int32)  # the keys' own type: no copy of them to compare
        left = np.searchsorted(keys, wanted) - row_ids * size
        rank[minds, at] = (size - left) / size
        return rank

    def combine_fit(self, z: npt.NDArray[np.floating], rank: npt.NDArray[np.floating],
                    said: npt.NDArray[np.floating], answered: npt.NDArray[np.floating]
                    ) -> FloatArray:
        """The fit from its parts: ``z`` and ``rank`` (minds, ...) with NaN where a mind does
        not read, people's answers both ways (...)."""
        w = self.weights
        closeness = -np.log(np.clip(rank, RANK_FLOOR, 1.0))
        told = np.log1p(100 * said) + np.log1p(100 * answered)
        fit = self.combine(z) + w.backward * self.combine(closeness) + w.direct * told
        return np.asarray(fit, dtype=np.float32)

    def combine(self, values: npt.NDArray[np.floating]) -> FloatArray:
        """The weighted mean over the minds (axis 0) that read each card; -inf where none
        does."""
        known = ~np.isnan(values)
        weights = self.mind_weights.reshape((-1,) + (1,) * (values.ndim - 1))
        weights = np.where(known, weights, 0.0)
        total = np.where(known, values * weights, 0.0).sum(axis=0)
        count = weights.sum(axis=0)
        return np.where(count > 0, total / np.maximum(count, 1e-9), -np.inf).astype(
            np.float32)

    def ordered_rows(self, words: tuple[str, ...], meaning: str,
                     pictures: Captions) -> npt.NDArray[np.float16]:
        """Every card's similarity to every candidate in every mind, sorted ascending (-inf
        where a mind cannot read the card): shape (minds, cards, candidates), kept for the
        board being read, in half precision (1.2 MB for 25 cards), with its search keys
        (``backward_rank``)."""
        if self._sorted is None or self._sorted[0] != words:
            kept = np.stack([self._sorted_card(card, meaning, pictures) for card in words])
            rows = kept[:, 0].view(np.float16).transpose(1, 0, 2)  # (minds, cards, V)
            # card j, mind m: its row's keys above every key of the rows before it
            offsets = np.arange(kept.shape[0] * kept.shape[2], dtype=np.int32) * _HALF_KEYS
            keys = (kept[:, 1].astype(np.int32) + offsets.reshape(kept.shape[0],
                                                                  kept.shape[2], 1)).ravel()
            self._sorted = (words, rows, keys)
        return self._sorted[1]

    def _sorted_card(self, card: str, meaning: str, pictures: Captions
                     ) -> npt.NDArray[np.uint16]:
        """One card's rows of ``ordered_rows`` (minds, candidates) as half-precision bits, over
        their search keys: shape (2, minds, candidates), kept by card on the panel."""
        return self.panel.derived_rows.get_or_build(
            ("sorted", card, pictures.get(card, ()), meaning),
            lambda: self._sorted_rows(card, meaning, pictures))

    def _sorted_rows(self, card: str, meaning: str, pictures: Captions
                     ) -> npt.NDArray[np.uint16]:
        rows = np.sort(self._card_rows(card, meaning, pictures), axis=-1).astype(np.float16)
        kept = np.stack([rows.view(np.uint16), _half_keys(rows)])
        kept.flags.writeable = False
        return kept

    def _card_rows(self, card: str, meaning: str, pictures: Captions) -> FloatArray:
        try:
            z = self.panel.board_z((card,), meaning, pictures)[:, 0, :]
        except ValueError:  # a card no mind reads (a ModelError): no backward reading
            return np.full((len(self.panel.minds), len(self.panel.words)), -np.inf,
                           dtype=np.float32)
        return np.where(np.isnan(z), -np.inf, z).astype(np.float32)

    # -- the spymaster's side: every candidate, every card --------------------------------
    def board_fit(self, words: tuple[str, ...], meaning: str, pictures: Captions
                  ) -> FloatArray:
        """The fit of every card to every candidate, shape (cards, V): the same numbers
        ``clue_fit`` gives a candidate. A card's row depends on the card alone (its
        similarities, where each candidate ranks among them, people's answers), so it is
        computed once per card and kept with the panel's rows of the card."""
        def row(card: str) -> FloatArray:
            return self.panel.derived_rows.get_or_build(
                ("people-fit", self.weights, card, pictures.get(card, ()), meaning),
                lambda: self._card_fit(card, meaning, pictures))

        return np.stack([row(card) for card in words])

    def _card_fit(self, card: str, meaning: str, pictures: Captions) -> FloatArray:
        """One card's fit to every candidate (V,), read-only."""
        try:
            z = self.panel.board_z((card,), meaning, pictures)[:, 0, :]  # (minds, V)
        except ValueError:  # a card no mind reads (a ModelError): no fit to anything
            row = np.full(len(self.panel.words), -np.inf, dtype=np.float32)
            row.flags.writeable = False
            return row
        rank = np.full(z.shape, np.nan)
        size = z.shape[-1]
        for m in range(z.shape[0]):
            if np.isnan(z[m, 0]):
                continue
            # the half-precision values ``clue_fit`` compares, in single precision (exact);
            # each value's place is the first of its equals in sorted order (searchsorted's
            # left side), found without searching
            values = z[m].astype(np.float16).astype(np.float32)
            order = np.argsort(values)  # ties: any order (equals share their first place)
            ordered = values[order]
            starts = np.ones(size, dtype=bool)
            starts[1:] = ordered[1:] != ordered[:-1]
            left = np.maximum.accumulate(np.where(starts, np.arange(size), 0))
            rank[m, order] = (size - left) / size
        said, answered = self.candidate_links((card,))
        row = self.combine_fit(z, rank, said[0], answered[0])
        row.flags.writeable = False
        return row

    def candidate_links(self, cards: Sequence[str]) -> tuple[FloatArray, FloatArray]:
        """For every card and candidate, shape (cards, V): how often people shown the
        candidate answered the card, and how often people shown the card answered it."""
        links = self.links
        n = len(links.index)
        if self._candidate_keys is None:
            known = self.panel.word_rows.get_or_build(("people-keys",), self._people_keys)
            self._candidate_keys, self._candidate_index = known[0], known[1]
        said = np.zeros((len(cards), len(self.panel.words)), dtype=np.float32)
        answered = np.zeros_like(said)
        for row, card in enumerate(cards):
            key = links.index.get(word_key(card) or "")
            if key is None:
                continue
            said[row, self._candidate_keys] = self._strengths(self._candidate_index * n + key)
            answered[row, self._candidate_keys] = self._strengths(key * n
                                                                  + self._candidate_index)
        return said, answered

    def _people_keys(self) -> npt.NDArray[np.int64]:
        """The candidates people's study knows, in its order (a card's keys then come sorted
        both ways, cue * words + response, so each search streams), over their index in the
        study: shape (2, known)."""
        links = self.links
        keys = np.array([links.index.get(word_key(w) or "", -1) for w in self.panel.words],
                        dtype=np.int64)
        known = np.flatnonzero(keys >= 0)
        ordered = known[np.argsort(keys[known], kind="stable")]
        rows = np.stack([ordered, keys[ordered]]).astype(np.int64)
        rows.flags.writeable = False
        return rows

    def _strengths(self, keys: npt.NDArray[np.int64]) -> FloatArray:
        """The links' strengths at sorted ``keys`` (0 where people gave no such pair)."""
        links = self.links
        at = np.minimum(np.searchsorted(links.keys, keys), len(links.keys) - 1)
        return np.where(links.keys[at] == keys, links.strengths[at], 0.0).astype(np.float32)

    @property
    def links(self) -> Links:
        if self._links is None:
            self._links = eat_links()
        return self._links

    # -- what a fit means ------------------------------------------------------------------
    def find_chance(self, fit: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The probability that a card of this fit is one the clue giver meant."""
        w = self.weights
        return np.asarray(1.0 / (1.0 + np.exp(-(np.asarray(fit, dtype=np.float64) - w.centre)
                                             / w.width)))

    def read_right_chance(self, gap: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The chance people touch every target before any other card, when the weakest
        target's fit stands ``gap`` above the best other card's."""
        w = self.weights
        return np.asarray(1.0 / (1.0 + np.exp(
            -(np.asarray(gap, dtype=np.float64) - w.read_centre) / w.read_width)))
