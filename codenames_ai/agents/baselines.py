"""Baseline and scripted agents: a floor to measure against, and the tools of the tests."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Annotated

from ..core.actions import Clue, ClueNumber, Cover, Guess, GuesserAction, Pass
from ..core.clues import ClueValidator, check_clue, normalize_word, resolve_validator
from ..core.errors import DeckError
from ..core.views import GuesserView, SpymasterView
from .explain import ExplainsTouches, TouchKind
from .options import Help


class RandomSpymaster:
    """Gives a random legal clue word from ``words`` (default: the Words deck) with a random
    number from 1 to
    ``max_number`` (capped at the cards its team has left); covers a random agent. Its clues
    are checked with the game's clue rules (or ``validator``, if given)."""

    agent_id = "random-spymaster-v1"

    def __init__(self, words: Annotated[Iterable[str] | None, Help(
                     "clue words (default: the Words deck)")] = None, *,
                 max_number: Annotated[int, Help("the largest number it gives")] = 2,
                 seed: Annotated[int, Help("first seed (each game reseeds it)")] = 0,
                 validator: Annotated[ClueValidator | None, Help(
                     "a clue validator (Python only)")] = None) -> None:
        if words is None:
            from ..decks import default_deck

            words = default_deck("words")
        self.words = tuple(dict.fromkeys(w.strip() for w in words if w.strip()))
        if not self.words:
            raise DeckError("the random spymaster needs a non-empty list of clue words")
        if max_number < 1:
            raise ValueError(f"max_number must be at least 1, got {max_number}")
        self.max_number = max_number
        self.validator = validator
        self._rng = random.Random(seed)

    def start_game(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def give_clue(self, view: SpymasterView) -> Clue:
        number = self._rng.randint(1, max(1, min(self.max_number, view.cards_left(view.team))))
        context = view.clue_context()
        # The game's own clue rules unless this agent was given others: never an illegal clue.
        validator = self.validator or resolve_validator(view.rules.clue_rules)
        # Random picks first (most words are legal); then one pass over the whole list from a
        # random offset, so the search is bounded and always finds a legal word if one exists.
        count = len(self.words)
        picks = [self._rng.randrange(count) for _ in range(min(count, 16))]
        offset = self._rng.randrange(count)
        for i in picks + [(offset + k) % count for k in range(count)]:
            word = self.words[i]
            if check_clue(Clue(word, number), context, validator) is None:
                return Clue(word, number)
        raise DeckError(f"none of the random spymaster's {len(self.words)} clue words is a "
                        "legal clue on this board; give it a longer word list")

    def choose_cover(self, view: SpymasterView) -> Cover:
        return Cover(self._rng.choice(view.cover_candidates))


class RandomGuesser(ExplainsTouches):
    """Touches a random face-up card; after a correct guess it stops with
    ``stop_probability``."""

    agent_id = "random-guesser-v1"

    def __init__(self, *, stop_probability: Annotated[float, Help(
                     "chance to pass before a touch")] = 0.0,
                 seed: Annotated[int, Help("first seed (each game reseeds it)")] = 0) -> None:
        super().__init__()
        if not 0.0 <= stop_probability <= 1.0:
            raise ValueError(f"stop_probability must be in [0, 1], got {stop_probability}")
        self.stop_probability = stop_probability
        self._rng = random.Random(seed)

    def start_game(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self.forget_touches()

    def guess(self, view: GuesserView) -> GuesserAction:
        if view.can_pass and self._rng.random() < self.stop_probability:
            return Pass()
        return self.touch(view, self._rng.choice(view.unrevealed), TouchKind.RANDOM)


class ScriptExhausted(RuntimeError):
    """A scripted agent was asked for more moves than its script holds."""


class ScriptedSpymaster:
    """Plays a fixed list of clues (``Clue`` or ``("word", number)``) and covers, in order."""

    agent_id = "scripted-spymaster-v1"

    def __init__(self, clues: Sequence[Clue | tuple[str, ClueNumber]],
                 covers: Sequence[int | str] = ()) -> None:
        self._clues = [c if isinstance(c, Clue) else Clue(c[0], c[1]) for c in clues]
        self._covers = list(covers)

    def give_clue(self, view: SpymasterView) -> Clue:
        if not self._clues:
            raise ScriptExhausted("the scripted spymaster has no clues left")
        return self._clues.pop(0)

    def choose_cover(self, view: SpymasterView) -> Cover:
        if not self._covers:
            raise ScriptExhausted("the scripted spymaster has no covers left")
        return Cover(_index_of(self._covers.pop(0), view.words))


class ScriptedGuesser:
    """Plays a fixed list of moves: a card word, a card index, ``"pass"``, or an action."""

    agent_id = "scripted-guesser-v1"

    def __init__(self, moves: Sequence[GuesserAction | int | str]) -> None:
        self._moves = list(moves)

    def guess(self, view: GuesserView) -> GuesserAction:
        if not self._moves:
            raise ScriptExhausted("the scripted guesser has no moves left")
        move = self._moves.pop(0)
        if isinstance(move, Guess | Pass):
            return move
        if isinstance(move, str) and move.lower() == "pass":
            return Pass()
        return Guess(_index_of(move, view.words))


def _index_of(card: int | str, words: Sequence[str]) -> int:
    if isinstance(card, int):
        return card
    wanted = normalize_word(card)
    for i, word in enumerate(words):
        if normalize_word(word) == wanted:
            return i
    raise ScriptExhausted(f"the script names {card!r}, which is not on the board")
