"""The guesser that reads people: the partner of a person who gives the clues.

A person links a card to a clue in two directions at once: the clue brings the card to mind
(``clue_z``: the card is among the clue's nearest cards on the board), and the clue is one of
the first words the card itself brings to mind (the backward rank: how few of the panel's
candidate words sit closer to the card than the clue does). A card that is close to every
word, such as "life" or "part", passes the first test for many clues and fails the second.
Each mind reads both directions; people's associations (the EAT) weigh most, as a person's
clue comes from the same kind of associations.

It trusts the number: a person who says 3 means three cards, so it goes on to the number
unless the next card is more likely a miss than a find once the assassin is priced in
(``touch_worth``). Measured on people's clues by ``python -m benchmarks.people``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ...core.cards import Identity
from ...core.rules import Variant
from ...core.views import GuesserView
from ...vectors.links import eat_links
from .guesser import PanelGuesser, _forms
from .minds import PEOPLE_MINDS

FloatArray = npt.NDArray[np.float32]

# Each mind's weight (a mind not named weighs 1); fitted on the development splits of people's
# 12-word and Duet guesses (see the README's figures).
PEOPLE_WEIGHTS = (("glove-6b-50d", 0.5), ("minilm-l6-words", 2.0), ("wordnet-3.0", 1.0),
                  ("eat-associations", 3.0))
RANK_FLOOR = 1e-4  # a backward rank is counted down to 1 in 10,000 candidates


@dataclass
class PeopleGuesser(PanelGuesser):
    """Reads a person's clue through the four minds in both directions (``backward`` weighs
    the backward rank's log against the forward fit), touches up to the number while a touch
    is worth it (``touch_worth``), and takes the extra touch for an earlier clue's leftover
    only when it fits clearly (``leftover_z``, on the same scale as the fit)."""

    minds: Sequence[str] = PEOPLE_MINDS
    weights: tuple[tuple[str, float], ...] = PEOPLE_WEIGHTS
    backward: float = 2.5
    direct: float = 0.6  # weight of people's own answers, both ways (the EAT's links)
    # P(the card is one the person meant) at fit f is 1 / (1 + exp(-(f - centre) / width)),
    # fitted on people's clues (development splits): the touches after the first, up to the
    # number, of the 12-word boards and Duet.
    centre: float = 5.6
    width: float = 6.7
    # In cards. A person's number is trusted unless the card is near chance: priced at 9 (the
    # game) it stopped on 40% of people's 3s and found 8 points fewer of their words, and it
    # touched the assassin nearly as often (the first touch, which the rules require).
    opponent_cost: float = 0.0  # the other team's card, covered for them
    assassin_cost: float = 3.0
    leftover_z: float = 9.0
    agent_id: str = "people-guesser-v1"

    def __post_init__(self) -> None:
        super().__post_init__()
        assert self.panel is not None
        named = dict(self.weights)
        self._weights = np.array([named.get(name, 1.0) for name in self.panel.names],
                                 dtype=np.float32)[:, None]
        self._sorted: tuple[tuple[str, ...], npt.NDArray[np.float16]] | None = None

    def fit(self, word: str, view: GuesserView) -> tuple[tuple[int, ...], FloatArray] | None:
        """Face-up cards and their fit to ``word`` in both directions (None when no mind
        knows the word)."""
        assert self.panel is not None and self.pictures is not None
        face_up = view.unrevealed
        cards = [view.words[i] for i in face_up]
        for form in _forms(word):
            z = self.panel.clue_z(form, cards, self.picture_meaning, self.pictures)
            if not np.isnan(z).all():
                rank = self._backward_rank(z, view, face_up)
                closeness = -np.log(np.clip(rank, RANK_FLOOR, 1.0))
                said, answered = eat_links().both_ways(form, cards)
                told = np.log1p(100 * said) + np.log1p(100 * answered)
                fit = (self._combine(z) + self.backward * self._combine(closeness)
                       + self.direct * told)
                return face_up, fit.astype(np.float32)
        return None

    def _combine(self, values: npt.NDArray[np.floating]) -> FloatArray:
        """The weighted mean over the minds that read each card; -inf where none does."""
        known = ~np.isnan(values)
        weights = np.where(known, self._weights, 0.0)
        total = np.where(known, values * weights, 0.0).sum(axis=0)
        count = weights.sum(axis=0)
        return np.where(count > 0, total / np.maximum(count, 1e-9), -np.inf).astype(np.float32)

    def _backward_rank(self, z: FloatArray, view: GuesserView,
                       face_up: tuple[int, ...]) -> npt.NDArray[np.float64]:
        """For each mind and card, the share of the panel's candidate words closer to the
        card than the clue is (NaN where the mind reads neither)."""
        ordered = self._ordered_candidates(view.words)[:, face_up, :]
        size = ordered.shape[-1]
        rank = np.full(z.shape, np.nan)
        for m, j in zip(*np.nonzero(~np.isnan(z)), strict=True):
            row = ordered[m, j]
            if np.isfinite(row[-1]):
                rank[m, j] = (size - np.searchsorted(row, np.float16(z[m, j]))) / size
        return rank

    def _ordered_candidates(self, words: tuple[str, ...]) -> npt.NDArray[np.float16]:
        """Every card's similarity to every candidate in every mind, sorted ascending (-inf
        where a mind cannot read the card): shape (minds, cards, candidates), kept for the
        board being played, in half precision (1.2 MB for 25 cards; a web server keeps a
        guesser per game)."""
        assert self.panel is not None and self.pictures is not None
        if self._sorted is None or self._sorted[0] != words:
            rows = np.stack([self._card_rows(card) for card in words], axis=1)
            self._sorted = (words, np.sort(rows, axis=-1).astype(np.float16))
        return self._sorted[1]

    def _card_rows(self, card: str) -> FloatArray:
        assert self.panel is not None and self.pictures is not None
        try:
            z = self.panel.board_z((card,), self.picture_meaning, self.pictures)[:, 0, :]
        except ValueError:  # a card no mind reads (a ModelError): no backward reading
            return np.full((len(self.panel.minds), len(self.panel.words)), -np.inf,
                           dtype=np.float32)
        return np.where(np.isnan(z), -np.inf, z).astype(np.float32)

    def touch_worth(self, fit: float, view: GuesserView) -> float:
        """The cards a touch of a card of this fit is expected to gain over passing: a find
        is one; a bystander costs nothing more than the pass would (the turn ends); the
        other team's card is one for them (``opponent_cost``) and the assassin loses the
        game (``assassin_cost``), each by its share of the face-up cards not the team's."""
        found = self.find_chance(fit)
        return found - (1.0 - found) * self._risk(view)

    def _risk(self, view: GuesserView) -> float:
        """What a miss costs on average, in cards: the other team's cards and the assassins
        priced by their share of the face-up cards not the team's (0 when there are none)."""
        others = len(view.unrevealed) - view.cards_left(view.team)
        if others <= 0:
            return 0.0
        opponents = view.cards_left(view.team.other) if view.rules.variant is \
            Variant.STANDARD else 0
        return (opponents * self.opponent_cost + _assassins_left(view) * self.assassin_cost) \
            / others

    def find_chance(self, fit: float) -> float:
        """The probability that a card of this fit is one the person meant."""
        return 1.0 / (1.0 + float(np.exp(-(fit - self.centre) / self.width)))

    def goes_on(self, fit: float, view: GuesserView) -> bool:
        """On to the number while a touch is worth it."""
        return self.touch_worth(fit, view) > 0

    def go_on_bar(self, view: GuesserView) -> float:
        """The fit at which a touch is worth nothing (``touch_worth`` 0): where the chance
        of a find is risk / (1 + risk); -inf with no risk left to price."""
        risk = self._risk(view)
        if risk <= 0:
            return -np.inf
        return self.centre + self.width * float(np.log(risk))


def _assassins_left(view: GuesserView) -> int:
    """Assassins still face up: the layout's, less those revealed."""
    total = view.rules.layout.assassins
    shown = sum(1 for card in view.revealed if card is Identity.ASSASSIN)
    return max(0, int(total) - shown)
