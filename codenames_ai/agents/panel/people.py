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

from dataclasses import dataclass, field, replace
from typing import Annotated

import numpy as np
import numpy.typing as npt

from ...core.cards import Identity
from ...core.rules import Variant
from ...core.views import GuesserView
from ..options import Help
from .guesser import LeftoverZ, PanelGuesser, _forms
from .minds import PEOPLE_MINDS, GuessingMinds
from .reading import PEOPLE_READING, PeopleReading

FloatArray = npt.NDArray[np.float32]

# Each mind's weight (a mind not named weighs 1); fitted on the development splits of people's
# 12-word and Duet guesses (see the README's figures).
PEOPLE_WEIGHTS = PEOPLE_READING.minds


@dataclass
class PeopleGuesser(PanelGuesser):
    """Reads a person's clue through the four minds in both directions (``backward`` weighs
    the backward rank's log against the forward fit), touches up to the number while a touch
    is worth it (``touch_worth``), and takes the extra touch for an earlier clue's leftover
    only when it fits clearly (``leftover_z``, on the same scale as the fit)."""

    minds: GuessingMinds = PEOPLE_MINDS
    weights: Annotated[tuple[tuple[str, float], ...], Help(
        "each mind's weight, a mind not named weighing 1 (Python only)")] = PEOPLE_WEIGHTS
    backward: Annotated[float, Help("weight of the card-to-clue reading")] = 2.5
    direct: Annotated[float, Help(
        "weight of people's own answers, both ways (the EAT's links)")] = 0.6
    # P(the card is one the person meant) at fit f is 1 / (1 + exp(-(f - centre) / width)),
    # fitted on people's clues (development splits): the touches after the first, up to the
    # number, of the 12-word boards and Duet.
    centre: Annotated[float, Help("the fit at which a card is even odds")] = 5.6
    width: Annotated[float, Help("how slowly the chance rises with the fit")] = 6.7
    # In cards. A person's number is trusted unless the card is near chance: priced at 9 (the
    # game) it stopped on 40% of people's 3s and found 8 points fewer of their words, and it
    # touched the assassin nearly as often (the first touch, which the rules require).
    opponent_cost: Annotated[float, Help(
        "cards the other team's card costs, covered for them")] = 0.0
    assassin_cost: Annotated[float, Help("cards the assassin costs a touch")] = 3.0
    leftover_z: LeftoverZ = 9.0
    # Not options: its stop rule is what a touch is worth (``touch_worth``), and it reads
    # with the minds its weights name, never one model alone.
    stop_z: float = field(default=1.6, init=False)
    model: str | None = field(default=None, init=False)
    agent_id: str = field(default="people-guesser-v1", init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        assert self.panel is not None
        self.reading = PeopleReading(self.panel, replace(
            PEOPLE_READING, minds=tuple(self.weights), backward=self.backward,
            direct=self.direct, centre=self.centre, width=self.width))

    def fit(self, word: str, view: GuesserView) -> tuple[tuple[int, ...], FloatArray] | None:
        """Face-up cards and their fit to ``word`` in both directions (None when no mind
        knows the word): ``PeopleReading.clue_fit``."""
        assert self.panel is not None and self.pictures is not None
        face_up = view.unrevealed
        cards = [view.words[i] for i in face_up]
        for form in _forms(word):
            z = self.panel.clue_z(form, cards, self.picture_meaning, self.pictures)
            if not np.isnan(z).all():
                self.reading.ordered_rows(view.words, self.picture_meaning, self.pictures)
                rank = self.reading.backward_rank(z, face_up)
                return face_up, self.reading.clue_fit(form, cards, z, rank)
        return None

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
        return float(self.reading.find_chance(fit))

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


@dataclass
class PricedBonusGuesser(PeopleGuesser):
    """``people-guesser-v2``: ``people-guesser-v1``'s reading (the people model the default
    spymaster listens through) with the bonus touch priced. It spends the +1 on an earlier
    clue's leftover only when the model's chance that the card is the one meant clearly beats
    what a miss risks there: the assassin costs the game (``bonus_assassin_cost`` cards), the
    other team's card one of theirs, each by its share of the cards not the team's; the touch
    must be worth ``bonus_worth`` cards (half a card: the chance must clearly beat the risk,
    so a clue whose turn found none of its cards does not send it to a 74% card with the
    assassin face up). Its reason says the chance it took."""

    bonus_assassin_cost: Annotated[float, Help(
        "cards the assassin costs a bonus touch")] = 9.0
    bonus_opponent_cost: Annotated[float, Help(
        "cards the other team's card costs a bonus touch")] = 1.0
    bonus_worth: Annotated[float, Help("cards a bonus touch must be worth")] = 0.5
    agent_id: str = field(default="people-guesser-v2", init=False)

    def _bonus_risk(self, view: GuesserView) -> float:
        """What a missed bonus touch costs on average, in cards."""
        others = len(view.unrevealed) - view.cards_left(view.team)
        if others <= 0:
            return 0.0
        opponents = view.cards_left(view.team.other) if view.rules.variant is \
            Variant.STANDARD else 0
        return (opponents * self.bonus_opponent_cost
                + _assassins_left(view) * self.bonus_assassin_cost) / others

    def takes_leftover(self, fit: float, view: GuesserView) -> bool:
        chance = self.find_chance(fit)
        return chance - (1.0 - chance) * self._bonus_risk(view) >= self.bonus_worth

    def leftover_bar(self, view: GuesserView) -> float:
        """The fit at which the bonus touch is worth ``bonus_worth``: where the chance of a
        find is (worth + risk) / (1 + risk)."""
        risk = self._bonus_risk(view)
        chance = min((self.bonus_worth + risk) / (1.0 + risk), 1.0 - 1e-9)
        return self.centre + self.width * float(np.log(chance / (1.0 - chance)))

    def leftover_chance(self, fit: float) -> float | None:
        return self.find_chance(fit)
