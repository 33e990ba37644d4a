"""Why a spymaster chose its clue: targets and scores, the card it feared most, runners-up."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.actions import Clue


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
