"""Embedding guessers: one with memory and a calibrated stop rule, and the nearest-card
baseline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import numpy as np
import numpy.typing as npt

from ..core.actions import UNLIMITED, Clue, GuesserAction, Pass
from ..core.events import ClueGiven, GuessMade
from ..core.views import GuesserView
from ..pictures import shipped_captions
from ..vectors.model import DEFAULT_PICTURE_MEANING, PICTURE_MEANINGS
from .explain import ExplainsTouches, ScoredCard, TouchKind, next_closest, sureness_words
from .options import CacheDir, DeckCaptions, Help, PictureMeaning, VocabularySize
from .space import DEFAULT_VOCABULARY, ClueSpace, clue_space

FloatArray = npt.NDArray[np.float32]


class _EmbeddingGuesser(ExplainsTouches):
    """Shared machinery. ``pictures`` are the captions of the picture deck it plays with
    (default: the shipped emoji deck, ``pictures.shipped_captions``). Its scores are cosine
    similarities."""

    agent_id = "embedding-guesser"

    def __init__(self, *, model: Annotated[str, Help("word-vector model")] = "glove-6b-50d",
                 vocabulary_size: VocabularySize = DEFAULT_VOCABULARY,
                 cache_dir: CacheDir = None,
                 space: Annotated[ClueSpace | None, Help(
                     "a ready clue space (Python only)")] = None,
                 picture_meaning: PictureMeaning = DEFAULT_PICTURE_MEANING,
                 pictures: DeckCaptions = None) -> None:
        super().__init__()
        self.space = space or clue_space(model, vocabulary_size=vocabulary_size,
                                         cache_dir=cache_dir)
        if picture_meaning not in PICTURE_MEANINGS:
            raise ValueError(f"unknown picture_meaning {picture_meaning!r}; choose one of "
                             f"{', '.join(PICTURE_MEANINGS)}")
        self.picture_meaning = picture_meaning
        self.pictures = shipped_captions() if pictures is None else pictures
        self._rng = np.random.default_rng(0)

    def start_game(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.forget_touches()

    def model_names(self) -> tuple[str, ...]:
        """The model of its clue space."""
        return self.space.model_names()

    def similarities(self, word: str, view: GuesserView) -> tuple[tuple[int, ...], FloatArray]:
        """Face-up card indices and their similarity to ``word``."""
        face_up = view.unrevealed
        sims = self.space.model.card_scores([view.words[i] for i in face_up],
                                            self.space.model.word_vector(word),
                                            self.picture_meaning, pictures=self.pictures)
        return face_up, sims

    def knows(self, word: str) -> bool:
        return word in self.space.model or self.space.model.has_subwords

    def ranked(self, view: GuesserView) -> list[tuple[int, float]]:
        """Face-up cards by similarity to the current clue, best first."""
        if not self.knows(view.clue.word):
            return []
        face_up, sims = self.similarities(view.clue.word, view)
        order = np.argsort(-sims, kind="stable")
        return [(face_up[i], float(sims[i])) for i in order]


class EmbeddingGuesser(_EmbeddingGuesser):
    """Guesses the card most like the clue while its similarity clears a threshold calibrated
    on the model (the ``stop_quantile`` of similarities between unrelated words), stops after
    the clue's number, and spends an extra guess only on a card left over from an earlier clue
    that clears the stricter ``leftover_quantile``."""

    agent_id = "guesser-v1"

    def __init__(self, *, stop_quantile: Annotated[float, Help(
                     "stop below this similarity quantile")] = 0.90,
                 leftover_quantile: Annotated[float, Help(
                     "earlier clues' leftovers above this quantile")] = 0.95,
                 **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        calibration = self.space.calibration
        self.threshold = calibration.quantile(stop_quantile)
        self.leftover_threshold = calibration.quantile(leftover_quantile)

    def guess(self, view: GuesserView) -> GuesserAction:
        number = view.clue.number
        made = view.guesses_made
        on_clue = number is UNLIMITED or (isinstance(number, int) and made < number)
        if on_clue:
            ranked = self.ranked(view)
            if ranked and (made == 0 or ranked[0][1] >= self.threshold):
                index, similarity = ranked[0]
                near = next_closest(view.words, ranked, index)
                return self.touch(
                    view, index, TouchKind.CLUE, measure="similarity", fit=similarity,
                    bar=None if made == 0 else self.threshold,
                    sureness=self.sureness(similarity), next_closest=near,
                    next_clears=None if near is None else near.similarity >= self.threshold)
        leftover = self.leftover(view)
        if leftover is not None and (leftover.fit >= self.leftover_threshold or not made):
            near = leftover.next_closest
            return self.touch(
                view, leftover.index, TouchKind.LEFTOVER, served=leftover.clue,
                measure="similarity", fit=leftover.fit,
                bar=self.leftover_threshold if made else None,
                sureness=self.sureness(leftover.fit), next_closest=near,
                next_clears=None if near is None
                else near.similarity >= self.leftover_threshold, unfound=leftover.unfound)
        if view.can_pass:
            return Pass()
        ranked = self.ranked(view)
        if ranked:  # a 0 clue with nothing left over: the card least like the clue
            return self.touch(view, ranked[-1][0], TouchKind.LEAST_LIKE, measure="similarity",
                              fit=ranked[-1][1])
        return self.touch(view, int(self._rng.choice(view.unrevealed)), TouchKind.RANDOM)

    def sureness(self, similarity: float) -> str:
        """Its two bars in words (``explain.sureness_words``)."""
        return sureness_words(clears_bonus_bar=similarity >= self.leftover_threshold,
                              goes_on=similarity >= self.threshold)

    def best_leftover(self, view: GuesserView) -> tuple[int, float] | None:
        """The face-up card most like one of this team's earlier clues that still has unfound
        targets (its number minus the own cards found during its turn), and its similarity."""
        leftover = self.leftover(view)
        return None if leftover is None else (leftover.index, leftover.fit)

    def leftover(self, view: GuesserView) -> Leftover | None:
        """``best_leftover`` with the clue it is for and the next closest card to that clue."""
        best: Leftover | None = None
        for clue, missing in open_clue_turns(view):
            if missing <= 0 or not self.knows(clue.word):
                continue
            face_up, sims = self.similarities(clue.word, view)
            i = int(np.argmax(sims))
            if best is None or float(sims[i]) > best.fit:
                best = Leftover(face_up[i], float(sims[i]), clue, missing,
                                next_closest(view.words, zip(face_up, sims.tolist(),
                                                             strict=True), face_up[i]))
        return best


@dataclass(frozen=True)
class Leftover:
    """The face-up card that best fits an earlier clue of the team's with ``unfound``
    targets: its index, its fit to ``clue``, and the next closest card to that clue."""

    index: int
    fit: float
    clue: Clue
    unfound: int
    next_closest: ScoredCard | None


def open_clues(view: GuesserView) -> list[tuple[str, int]]:
    """This team's earlier valid numbered clues and how many of their targets are unfound
    (the current clue excluded), oldest first.

    Own cards found on a turn count for that turn's clue up to its number; those found past
    it (the extra guess, or any found on a 0 or unlimited clue) were leftovers of earlier
    clues, and each closes a target of the oldest earlier clue still open, as the engine's
    leftover count has them."""
    return [(clue.word, missing) for clue, missing in open_clue_turns(view)]


def open_clue_turns(view: GuesserView) -> list[tuple[Clue, int]]:
    """``open_clues`` with each whole clue (its number too, for a touch's reason)."""
    missing: dict[int, int] = {}  # turn -> targets unfound, for the numbered clues
    clues: dict[int, Clue] = {}
    for event in view.history:
        if isinstance(event, ClueGiven) and event.team is view.team:
            number = event.clue.number
            if isinstance(number, int) and number > 0:
                missing[event.turn], clues[event.turn] = number, event.clue
        elif isinstance(event, GuessMade) and event.team is view.team and \
                event.identity is view.team.agent:
            if missing.get(event.turn, 0) > 0:
                missing[event.turn] -= 1
            else:  # a leftover: the oldest earlier clue with a target unfound
                earlier = next((t for t in sorted(missing) if t < event.turn and missing[t] > 0),
                               None)
                if earlier is not None:
                    missing[earlier] -= 1
    return [(clues[turn], left) for turn, left in sorted(missing.items())
            if turn != view.turn]


class NearestGuesser(_EmbeddingGuesser):
    """The baseline: takes the clue's number of most similar cards, never stops early (for 0
    and unlimited clues it goes on until a miss). A clue its model lacks gets the one touch
    the rules require on a random face-up card (seeded by the game), as the guesser with
    memory does: a model of people's associations (eat-associations) lacks some clues a
    spymaster on another model gives."""

    agent_id = "nearest-guesser-v1"

    def guess(self, view: GuesserView) -> GuesserAction:
        number = view.clue.number
        if isinstance(number, int) and number > 0 and view.guesses_made >= number:
            return Pass()
        ranked = self.ranked(view)
        if not ranked:
            if view.can_pass:
                return Pass()
            return self.touch(view, int(self._rng.choice(view.unrevealed)), TouchKind.RANDOM)
        # No bars: it takes the nearest card whatever its similarity.
        index, similarity = ranked[0]
        return self.touch(view, index, TouchKind.CLUE, measure="similarity", fit=similarity,
                          next_closest=next_closest(view.words, ranked, index))
