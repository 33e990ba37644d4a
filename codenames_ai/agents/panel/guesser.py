"""The panel guesser: a card's fit to the clue is the mean over the minds that know both."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

import numpy as np
import numpy.typing as npt

from ...core.actions import UNLIMITED, GuesserAction, Pass
from ...core.views import GuesserView
from ...pictures import shipped_captions
from ...vectors.model import DEFAULT_PICTURE_MEANING, PICTURE_MEANINGS
from ..explain import ExplainsTouches, TouchKind, next_closest, sureness_words
from ..options import CacheDir, DeckCaptions, Help, PictureMeaning, VocabularySize
from .build import PANEL_VOCABULARY, shared_panel
from .minds import DEFAULT_MINDS, GuessingMinds, OneMind, ReadyPanel

if TYPE_CHECKING:
    from ..guessers import Leftover

FloatArray = npt.NDArray[np.float32]
LeftoverZ = Annotated[float, Help("earlier clues' leftovers above this fit")]


def _mean_of_readers(z: FloatArray) -> FloatArray:
    """The mean over minds of each column, -inf where no mind reads the card."""
    known = ~np.isnan(z)
    count = known.sum(axis=0)
    total = np.where(known, z, 0.0).sum(axis=0)
    return np.where(count > 0, total / np.maximum(count, 1), -np.inf).astype(np.float32)


@dataclass
class PanelGuesser(ExplainsTouches):
    """The default guesser: a card's fit to the clue is the mean over the minds that know
    both, in standard units; it stops below ``stop_z`` after its first touch or after the
    number, and spends the extra touch on a card left over from an earlier clue only when it
    fits that clue clearly (``leftover_z``). A clue no mind knows is read through its base
    form (running -> run). ``pictures`` are the captions of the picture deck it plays with
    (default: the shipped emoji deck, ``pictures.shipped_captions``)."""

    minds: GuessingMinds = DEFAULT_MINDS
    vocabulary_size: VocabularySize = PANEL_VOCABULARY
    cache_dir: CacheDir = None
    stop_z: Annotated[float, Help("stop below this fit, in std units")] = 1.6
    leftover_z: LeftoverZ = 2.2
    picture_meaning: PictureMeaning = DEFAULT_PICTURE_MEANING
    panel: ReadyPanel = None
    model: OneMind = None  # ``--model NAME``: a panel of that one mind
    pictures: DeckCaptions = None
    # Not options: the id (``make_agent`` records the registered one) and the game's chances.
    agent_id: str = field(default="panel-guesser-v2", init=False)
    _rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0),
                                      init=False)

    def __post_init__(self) -> None:
        ExplainsTouches.__init__(self)
        if self.picture_meaning not in PICTURE_MEANINGS:
            raise ValueError(f"unknown picture_meaning {self.picture_meaning!r}; choose one "
                             f"of {', '.join(PICTURE_MEANINGS)}")
        if self.model is not None:
            self.minds = (self.model,)
        if self.pictures is None:
            self.pictures = shipped_captions()
        if self.panel is None:
            self.panel = shared_panel(tuple(self.minds), self.vocabulary_size, self.cache_dir)

    def start_game(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.forget_touches()

    def model_names(self) -> tuple[str, ...]:
        """The models of its panel's minds."""
        assert self.panel is not None
        return self.panel.names

    def fit(self, word: str, view: GuesserView) -> tuple[tuple[int, ...], FloatArray] | None:
        """Face-up cards and their fit to ``word`` (None when no mind knows it)."""
        assert self.panel is not None and self.pictures is not None
        face_up = view.unrevealed
        cards = [view.words[i] for i in face_up]
        for form in _forms(word):
            z = self.panel.clue_z(form, cards, self.picture_meaning, self.pictures)
            if not np.isnan(z).all():
                return face_up, _mean_of_readers(z)
        return None

    def guess(self, view: GuesserView) -> GuesserAction:
        number = view.clue.number
        made = view.guesses_made
        on_clue = number is UNLIMITED or (isinstance(number, int) and made < number)
        if on_clue:
            fitted = self.fit(view.clue.word, view)
            if fitted is not None:
                face_up, fit = fitted
                best = int(np.argmax(fit))
                if made == 0 or self.goes_on(float(fit[best]), view):
                    return self._touch_on_clue(view, face_up, fit, best)
        leftover = self.leftover(view)
        if leftover is not None and (self.takes_leftover(leftover.fit, view) or not made):
            near = leftover.next_closest
            return self.touch(
                view, leftover.index, TouchKind.LEFTOVER, served=leftover.clue,
                fit=leftover.fit, bar=self.leftover_bar(view) if made else None,
                sureness=self.sureness(leftover.fit, view),
                chance=self.leftover_chance(leftover.fit), next_closest=near,
                next_clears=None if near is None else self.takes_leftover(near.similarity,
                                                                          view),
                unfound=leftover.unfound)
        if view.can_pass:
            return Pass()
        fitted = self.fit(view.clue.word, view)
        if fitted is not None:  # a 0 clue with nothing left over: the card least like it
            least = int(np.argmin(fitted[1]))
            return self.touch(view, fitted[0][least], TouchKind.LEAST_LIKE,
                              fit=float(fitted[1][least]))
        return self.touch(view, int(self._rng.choice(view.unrevealed)), TouchKind.RANDOM)

    def _touch_on_clue(self, view: GuesserView, face_up: tuple[int, ...], fit: FloatArray,
                       best: int) -> GuesserAction:
        """Touch the card that fits the clue best, with its reason."""
        score = float(fit[best])
        near = next_closest(view.words, zip(face_up, fit.tolist(), strict=True), face_up[best])
        first = view.guesses_made == 0
        return self.touch(view, face_up[best], TouchKind.CLUE, fit=score,
                          bar=None if first else self.go_on_bar(view),
                          sureness=self.sureness(score, view),
                          chance=None if first else self.find_chance(score),
                          next_closest=near,
                          next_clears=None if near is None
                          else self.goes_on(near.similarity, view))

    def goes_on(self, fit: float, view: GuesserView) -> bool:
        """Whether a card of this fit is worth another touch on the clue: ``stop_z``."""
        return fit >= self.stop_z

    def go_on_bar(self, view: GuesserView) -> float:
        """The least fit ``goes_on`` takes another touch for (for a touch's reason)."""
        return self.stop_z

    def takes_leftover(self, fit: float, view: GuesserView) -> bool:
        """Whether a card of this fit to an earlier clue is worth the bonus touch:
        ``leftover_z``."""
        return fit >= self.leftover_z

    def leftover_bar(self, view: GuesserView) -> float:
        """The least fit ``takes_leftover`` takes (for a touch's reason)."""
        return self.leftover_z

    def leftover_chance(self, fit: float) -> float | None:
        """The probability of a find it decides a bonus touch with, if it computes one."""
        return None

    def find_chance(self, fit: float) -> float | None:
        """The probability of a find it decides with, if it computes one: none here."""
        return None

    def sureness(self, fit: float, view: GuesserView) -> str:
        """Its bars in words (``explain.sureness_words``)."""
        return sureness_words(clears_bonus_bar=fit >= self.leftover_z,
                              goes_on=self.goes_on(fit, view))

    def best_leftover(self, view: GuesserView) -> tuple[int, float] | None:
        """The face-up card that best fits one of this team's earlier clues with targets
        still unfound, and its fit."""
        leftover = self.leftover(view)
        return None if leftover is None else (leftover.index, leftover.fit)

    def leftover(self, view: GuesserView) -> Leftover | None:
        """``best_leftover`` with the clue it is for and the next closest card to that clue."""
        from ..guessers import Leftover, open_clue_turns

        best: Leftover | None = None
        for clue, missing in open_clue_turns(view):
            if missing <= 0:
                continue
            fitted = self.fit(clue.word, view)
            if fitted is None:
                continue
            face_up, fit = fitted
            i = int(np.argmax(fit))
            if best is None or float(fit[i]) > best.fit:
                best = Leftover(face_up[i], float(fit[i]), clue, missing,
                                next_closest(view.words, zip(face_up, fit.tolist(), strict=True),
                                             face_up[i]))
        return best


def _forms(word: str) -> Iterator[str]:
    """The clue as given, in lower case, in plain letters, then its base forms (the
    language data is read only when the first forms are not enough)."""
    seen: set[str] = set()
    # compatibility forms read as the letters they stand for: a phone's full-width ＦＬＡＭＥ,
    # the ligature in ﬂame (the clue rules accept them as words)
    plain = unicodedata.normalize("NFKC", word).strip().lower()
    for form in (word, word.strip().lower(), plain):
        if form and form not in seen:
            seen.add(form)
            yield form
    from ...legality.language import lexicon

    for lemmas in lexicon().lemmas(plain).values():
        for form in lemmas:
            if form and form not in seen:
                seen.add(form)
                yield form
