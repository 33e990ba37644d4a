"""Why an AI did what it did: a spymaster's clue (targets and scores, the card it feared
most, runners-up) and a guesser's touch (the clue it served, how sure it was, the next closest
card)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from ..core.actions import Clue, Guess
from ..core.views import GuesserView


@dataclass(frozen=True)
class ScoredCard:
    word: str
    similarity: float


@dataclass(frozen=True)
class Alternative:
    clue: Clue
    score: float


@dataclass(frozen=True)
class ClueExplanation:
    """The reasoning behind one clue.

    ``score`` is the spymaster's own measure (expected cards gained for the EV spymaster; the
    baselines' published scores otherwise). ``margin`` is the weakest target's similarity minus
    the most dangerous card's: a guesser on another model needs it to be clearly positive.
    ``notes`` is free text for ``describe`` (it may speak of the spymaster's models, e.g.
    "guesser noise 0.12"); ``reasons`` are short phrases about the board a player reads
    after the targets ("linked to 'cut' by word use", "kept away from GLUE (the assassin)").
    """

    clue: Clue
    targets: tuple[ScoredCard, ...]
    danger: ScoredCard | None
    margin: float
    score: float
    alternatives: tuple[Alternative, ...]
    notes: str = ""
    reasons: tuple[str, ...] = ()  # after the targets, in a player's words (see ``plain``)

    def describe(self) -> str:
        """A short paragraph for people."""
        targets = ", ".join(f"{t.word.upper()} {t.similarity:.2f}" for t in self.targets)
        lines = [f"{self.clue}: aims at {targets}; score {self.score:.2f}."]
        if self.danger is not None:
            lines.append(f"Most feared: {self.danger.word.upper()} "
                         f"({self.danger.similarity:.2f}), margin {self.margin:+.2f}.")
        if self.alternatives:
            others = "; ".join(f"{a.clue} ({a.score:.2f})" for a in self.alternatives)
            lines.append(f"Runners-up: {others}.")
        if self.notes:
            lines.append(self.notes)
        return " ".join(lines)

    def plain(self) -> str:
        """The explanation in a player's words, without scores: the cards the clue aims at,
        then its ``reasons`` or, from a spymaster that gives none, the card it kept away
        from. One sentence, e.g. ``aimed at SCISSORS and KNIFE; kept away from GLUE.``"""
        names = [t.word.upper() for t in self.targets]
        parts = [f"aimed at {_join(names)}" if names else "aimed at no card in particular"]
        if self.reasons:
            parts += self.reasons
        elif self.danger is not None:
            parts.append(danger_reason(self.clue.word, self.danger.word, self.margin))
        return "; ".join(parts) + "."

    def to_dict(self) -> dict[str, object]:
        return {
            "clue": self.clue.word, "number": str(self.clue.number),
            "targets": [{"word": t.word, "similarity": round(t.similarity, 4)}
                        for t in self.targets],
            "danger": None if self.danger is None else {
                "word": self.danger.word, "similarity": round(self.danger.similarity, 4)},
            "margin": round(self.margin, 4), "score": round(self.score, 4),
            "alternatives": [{"clue": a.clue.word, "number": str(a.clue.number),
                              "score": round(a.score, 4)} for a in self.alternatives],
            "notes": self.notes, "reasons": list(self.reasons), "plain": self.plain(),
        }


def danger_reason(clue: str, danger: str, margin: float, kind: str = "") -> str:
    """The plain words about the most dangerous card, true to the numbers: "kept away from"
    it only when every target scored above it (a positive ``margin``); otherwise the card is
    named as the risk it is. ``kind``: what the card is, as a player would say it."""
    name = danger.upper() + (f" ({kind})" if kind else "")
    if margin > 0:
        return f"kept away from {name}"
    return f"a risk: {name} is close to '{clue}' too"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class ExplainsClues:
    """What every spymaster that explains its clues keeps: this game's explanations, newest
    last, and its random generator, which each game's seed sets afresh (the same seed gives
    the same clues)."""

    def __init__(self) -> None:
        self.explanations: list[ClueExplanation] = []
        self._rng = np.random.default_rng(0)

    @property
    def last_explanation(self) -> ClueExplanation | None:
        return self.explanations[-1] if self.explanations else None

    def start_game(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.explanations = []


class TouchKind(Enum):
    """What a guesser touched a card for: the turn's clue, a leftover of an earlier clue (a
    bonus touch), a 0 clue's card least like it, or a card at random (no word to go by)."""

    CLUE = "clue"
    LEFTOVER = "leftover"
    LEAST_LIKE = "least like"
    RANDOM = "random"


@dataclass(frozen=True)
class TouchExplanation:
    """The reasoning behind one touch, from the guesser's view alone: it never knows the key,
    so its reasons may be shown to every seat while the game goes on.

    ``served`` is the clue the touch was for: the turn's ``clue``, or for a bonus touch the
    earlier clue with ``unfound`` targets still face up. ``first``: the turn's first touch,
    which the rules require. ``fit`` is the guesser's score for the card (its ``measure``:
    a cosine, a fit in standard units) and ``bar`` the score it had to reach (``None``: none,
    as for a first touch on the clue). ``sureness`` puts the guesser's own bars in words
    (``sureness_words``; ``None`` for a guesser without bars) and ``chance`` is the
    probability of a find the guesser computed to decide, when it did. ``next_closest`` is
    the face-up card that fit ``served`` best after this one, the risk weighed, and
    ``next_clears`` whether it too was close enough to touch by the same rule."""

    turn: int
    index: int
    card: str
    clue: Clue
    kind: TouchKind
    served: Clue
    first: bool
    measure: str = "fit"
    fit: float | None = None
    bar: float | None = None
    sureness: str | None = None
    chance: float | None = None
    next_closest: ScoredCard | None = None
    next_clears: bool | None = None
    unfound: int = 0

    @property
    def bonus(self) -> bool:
        """A touch for an earlier clue's leftover, not for the turn's clue."""
        return self.kind is TouchKind.LEFTOVER

    def describe(self) -> str:
        """The numbers behind ``plain``, for people who want them."""
        parts = [f"{self.card.upper()} for {_said(self.served)}"
                 + (f", a leftover ({self.unfound} unfound) on the turn of {_said(self.clue)}"
                    if self.bonus else f" ({self.kind.value})")]
        if self.fit is not None:
            parts.append(f"{self.measure} {self.fit:.2f}"
                         + ("" if self.bar is None else f", bar {self.bar:.2f}"))
        if self.chance is not None:
            parts.append(f"chance of a find {self.chance:.0%}")
        if self.next_closest is not None:
            parts.append(f"next closest {self.next_closest.word.upper()} "
                         f"{self.next_closest.similarity:.2f}")
        return "; ".join(parts) + "."

    def plain(self) -> str:
        """The reason in a player's words: the clue it served, how sure it was and the next
        closest card; for a bonus touch, the earlier clue and the risk it took. One sentence,
        e.g. ``a bonus touch for the earlier clue 'north 3' (1 card unfound): sure; the next
        closest to 'north', ICE, was close too.``"""
        served = self.served
        if self.kind is TouchKind.RANDOM:
            return f"for {_said(served)}: a card at random, with no reading of the word to go by."
        if self.kind is TouchKind.LEAST_LIKE:
            return (f"for {_said(served)}: the card least like it (a 0 clue says none of the "
                    "team's cards is close), with no earlier clue left to go after.")
        if self.bonus:
            cards = "card" if self.unfound == 1 else "cards"
            head = (f"a bonus touch for the earlier clue {_said(served)} ({self.unfound} "
                    f"{cards} unfound)")
            if self.first:
                head += f", as {_said(self.clue)} pointed at no card it knew"
        else:
            head = f"for {_said(served)}, its closest card" + ("" if self.first else " left")
        parts = [head + self._how_sure()]
        if self.next_closest is not None:
            parts.append(self._risk(self.next_closest.word.upper()))
        return "; ".join(parts) + "."

    def _how_sure(self) -> str:
        if self.chance is not None:  # the guesser's own number says it best
            return f": {self.chance:.0%} sure"
        if self.sureness is None:
            return ""
        required = ", but a first touch is required" if self.first \
            and self.sureness == UNSURE else ""
        return f": {self.sureness}{required}"

    def _risk(self, name: str) -> str:
        to = f" to '{self.served.word}'" if self.bonus else ""
        if self.next_clears is None:
            return f"the next closest{to} was {name}"
        # close: over the same bar as this touch (the stricter one for a bonus touch)
        close = "close too" if self.next_clears else "not close"
        return f"the next closest{to}, {name}, was {close}"


def _said(clue: Clue) -> str:
    """A clue as a player says it, quoted: 'north 3'."""
    return f"'{clue.word} {clue.number}'"


SURE, FAIRLY_SURE, UNSURE = "sure", "fairly sure", "unsure"


def sureness_words(*, clears_bonus_bar: bool, goes_on: bool) -> str:
    """A guesser's bars in words: "sure" when the card is clear of its stricter bar, the one
    for a bonus touch; "fairly sure" when it is worth going on for; "unsure" otherwise."""
    return SURE if clears_bonus_bar else FAIRLY_SURE if goes_on else UNSURE


def next_closest(words: Sequence[str], scored: Iterable[tuple[int, float]],
                 chosen: int) -> ScoredCard | None:
    """The best-scoring card of ``scored`` (card index, score) other than ``chosen``, or
    ``None`` when no other card has a finite score."""
    best: tuple[int, float] | None = None
    for index, score in scored:
        if index != chosen and np.isfinite(score) and (best is None or score > best[1]):
            best = (index, float(score))
    return None if best is None else ScoredCard(words[best[0]], best[1])


class ExplainsTouches:
    """What every guesser that explains its touches keeps: this game's reasons, newest last
    (its ``start_game`` calls ``forget_touches``). Every touch it makes goes through
    ``touch``, so each ``Guess`` has its reason."""

    def __init__(self) -> None:
        self.touch_explanations: list[TouchExplanation] = []

    @property
    def last_touch_explanation(self) -> TouchExplanation | None:
        return self.touch_explanations[-1] if self.touch_explanations else None

    def forget_touches(self) -> None:
        self.touch_explanations = []

    def touch(self, view: GuesserView, index: int, kind: TouchKind, *,
              served: Clue | None = None, measure: str = "fit", fit: float | None = None,
              bar: float | None = None, sureness: str | None = None,
              chance: float | None = None, next_closest: ScoredCard | None = None,
              next_clears: bool | None = None, unfound: int = 0) -> Guess:
        """Touch card ``index`` of ``view`` for ``served`` (default: the turn's clue),
        keeping why (the fields of ``TouchExplanation``)."""
        self.touch_explanations.append(TouchExplanation(
            turn=view.turn, index=index, card=view.words[index], clue=view.clue, kind=kind,
            served=view.clue if served is None else served, first=view.guesses_made == 0,
            measure=measure, fit=fit, bar=bar, sureness=sureness, chance=chance,
            next_closest=next_closest, next_clears=next_clears, unfound=unfound))
        return Guess(index)
