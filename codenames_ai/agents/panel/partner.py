"""How the panel spymaster reads its partner: after each of its clues, how likely was each
touch under each mind (a softmax over the cards face up at that moment), and which clues
failed. Read incrementally: each call reads only the events since the last one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ...core.cards import Team
from ...core.clues import normalize_word
from ...core.events import ClueGiven, Covered, GuessMade
from ...core.views import PublicView
from ...pictures import Captions
from .minds import Panel


@dataclass
class PartnerModel:
    """What the spymaster has learnt about its guesser from the touches after its clues:
    how much each mind explains them (a posterior over minds) and which clues failed."""

    weights: npt.NDArray[np.float64]
    failed: frozenset[str] = frozenset()
    given: frozenset[str] = frozenset()
    leftovers: tuple[str, ...] = ()  # targets of our earlier clues still face up
    touches: int = 0
    early_stops: float = 0.0  # share of our clues it stopped short of, without a miss


@dataclass
class _Clue:
    """Our clue whose turn is being read, and what its turn has found so far."""

    event: ClueGiven
    found: int = 0
    missed: bool = False


@dataclass
class PartnerReader:
    """The running reading of one game's history for one team."""

    words: tuple[str, ...]
    team: Team
    minds: int
    seen: int = 0
    last: object = None
    log_like: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    face_up: set[int] = field(default_factory=set)
    given: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    touches: int = 0
    numbered: int = 0
    stopped_short: int = 0
    current: _Clue | None = None

    def __post_init__(self) -> None:
        self.log_like = np.zeros(self.minds)
        self.face_up = set(range(len(self.words)))

    def follows(self, view: PublicView) -> bool:
        """Whether ``view`` continues the history read so far (same game, same team)."""
        history = view.history
        return (view.words == self.words and view.team is self.team
                and len(history) >= self.seen
                and (self.seen == 0 or history[self.seen - 1] == self.last))

    def read(self, view: PublicView, panel: Panel, meaning: str, pictures: Captions) -> None:
        """Read the events since the last call."""
        history = view.history
        for event in history[self.seen:]:
            if isinstance(event, ClueGiven):
                self._close()
                self.current = _Clue(event) if event.team is self.team else None
                if self.current is not None:
                    self.given.add(normalize_word(event.clue.word))
            elif isinstance(event, GuessMade):
                current = self.current
                if current is not None and event.team is self.team \
                        and event.turn == current.event.turn:
                    self._touch(current, event, panel, meaning, pictures)
                self.face_up.discard(event.index)
            elif isinstance(event, Covered):
                self.face_up.discard(event.index)
        self.seen = len(history)
        self.last = history[-1] if history else None

    def _touch(self, current: _Clue, event: GuessMade, panel: Panel, meaning: str,
               pictures: Captions) -> None:
        cards = sorted(self.face_up)
        z = panel.clue_z(current.event.clue.word, [self.words[i] for i in cards], meaning,
                         pictures)
        picked = cards.index(event.index)
        for m in range(self.minds):
            row = z[m]
            if np.isnan(row[picked]):
                continue
            row = np.where(np.isnan(row), np.nanmean(row), row)
            self.log_like[m] += float(row[picked] - np.log(np.exp(row).sum()))
        self.touches += 1
        if event.identity is self.team.agent:
            current.found += 1
        else:
            current.missed = True

    def _close(self) -> None:
        """The current clue's turn is over."""
        numbered, stopped, failed = _closing(self.current)
        self.numbered += numbered
        self.stopped_short += stopped
        if failed:
            self.failed.add(failed)
        self.current = None

    def model(self, targets: Sequence[Sequence[str]], learn_rate: float, weight_floor: float,
              prior: npt.NDArray[np.float64] | None = None) -> PartnerModel:
        """The partner as read so far, taking every earlier clue of ours as over (we are
        asked for a new one). ``targets``: the cards each of our clues aimed at; ``prior``:
        how likely each mind is before any touch (default: alike)."""
        numbered, stopped, failed = _closing(self.current)
        numbered += self.numbered
        stopped += self.stopped_short
        all_failed = self.failed | ({failed} if failed else set())
        face_up = {self.words[i] for i in self.face_up}
        leftovers = [word for aimed in targets for word in aimed if word in face_up]
        log_like = self.log_like
        posterior = np.exp(learn_rate * (log_like - log_like.max()))
        if prior is not None:
            posterior *= prior
        posterior /= posterior.sum()
        weights = weight_floor / len(posterior) + (1 - weight_floor) * posterior
        return PartnerModel(weights / weights.sum(), frozenset(all_failed),
                            frozenset(self.given), tuple(dict.fromkeys(leftovers)),
                            self.touches, stopped / numbered if numbered else 0.0)


def _closing(current: _Clue | None) -> tuple[int, int, str]:
    """What closing ``current`` adds: (a numbered clue, stopped short of it, the clue word
    if it failed: its turn found no own card, or touched another card before the number)."""
    if current is None or not isinstance(current.event.clue.number, int):
        return 0, 0, ""
    number = current.event.clue.number
    numbered = stopped = 0
    if number > 0:
        numbered = 1
        stopped = int(not current.missed and current.found < number)
    failed = current.found == 0 or (current.missed and current.found < max(number, 1))
    return numbered, stopped, normalize_word(current.event.clue.word) if failed else ""
