"""The seats of a game and ``play_game``, which plays one game between them and returns its
record. No I/O. The moves themselves are asked for by ``match.Match`` (time budgets, faults).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .board import Board
from .cards import Team
from .clues import ClueValidator
from .errors import ConfigError
from .match import DEFAULT_MAX_TURNS, IDLE, IdleSeat, Match
from .protocols import Guesser, Spymaster
from .record import GameRecord
from .rules import RuleSet, Variant

__all__ = ["DEFAULT_MAX_TURNS", "IDLE", "IdleSeat", "Seats", "play_game"]


@dataclass(frozen=True)
class Seats:
    """Who sits where. Build with ``standard``, ``three_player`` or ``coop``, or from agent
    factories with ``for_variant``."""

    red_spymaster: Spymaster
    red_guesser: Guesser
    blue_spymaster: Spymaster
    blue_guesser: Guesser

    @classmethod
    def standard(cls, *, red_spymaster: Spymaster, red_guesser: Guesser,
                 blue_spymaster: Spymaster, blue_guesser: Guesser) -> Seats:
        return cls(red_spymaster, red_guesser, blue_spymaster, blue_guesser)

    @classmethod
    def three_player(cls, *, red_spymaster: Spymaster, blue_spymaster: Spymaster,
                     guesser: Guesser) -> Seats:
        """Two spymasters and one operative who guesses for both teams."""
        return cls(red_spymaster, guesser, blue_spymaster, guesser)

    @classmethod
    def coop(cls, *, spymaster: Spymaster, guesser: Guesser) -> Seats:
        """The two players of the co-operative variant; they play whichever team starts."""
        return cls(spymaster, guesser, spymaster, guesser)

    @classmethod
    def for_variant(cls, variant: Variant, *, spymaster: Callable[[Team], Spymaster],
                    guesser: Callable[[Team], Guesser]) -> Seats:
        """The seats ``variant`` has, each filled by calling ``spymaster(team)`` or
        ``guesser(team)`` once: standard play asks for all four seats; three-player play
        for two spymasters and one guesser (asked for ``Team.RED``) who guesses for both
        teams; co-op for one spymaster and one guesser (both asked for ``Team.RED``)."""
        if variant is Variant.COOP:
            return cls.coop(spymaster=spymaster(Team.RED), guesser=guesser(Team.RED))
        if variant is Variant.THREE_PLAYER:
            return cls.three_player(red_spymaster=spymaster(Team.RED),
                                    blue_spymaster=spymaster(Team.BLUE),
                                    guesser=guesser(Team.RED))
        return cls.standard(red_spymaster=spymaster(Team.RED), red_guesser=guesser(Team.RED),
                            blue_spymaster=spymaster(Team.BLUE), blue_guesser=guesser(Team.BLUE))

    def spymaster(self, team: Team) -> Spymaster:
        return self.red_spymaster if team is Team.RED else self.blue_spymaster

    def guesser(self, team: Team) -> Guesser:
        return self.red_guesser if team is Team.RED else self.blue_guesser

    def labelled(self) -> tuple[tuple[str, Any], ...]:
        return (("red spymaster", self.red_spymaster), ("red guesser", self.red_guesser),
                ("blue spymaster", self.blue_spymaster), ("blue guesser", self.blue_guesser))

    def check(self, variant: Variant) -> None:
        """Raise ``ConfigError`` if these seats do not fit ``variant``."""
        if variant is Variant.THREE_PLAYER and self.red_guesser is not self.blue_guesser:
            raise ConfigError("the three-player variant needs one guesser for both teams; "
                              "use Seats.three_player(...)")
        if variant is Variant.COOP and (self.red_spymaster is not self.blue_spymaster
                                        or self.red_guesser is not self.blue_guesser):
            raise ConfigError("the co-operative variant seats one spymaster and one guesser; "
                              "use Seats.coop(...)")


def play_game(rules: RuleSet, seats: Seats, *, seed: int,
              deck: Sequence[str] | None = None, board: Board | None = None,
              validator: ClueValidator | None = None,
              max_turns: int = DEFAULT_MAX_TURNS,
              clock: Callable[[], float] = time.monotonic,
              contain_faults: bool = False) -> GameRecord:
    """Play one game and return its record (``Match.new(...).play()``).

    Give either ``deck`` (cards are dealt from it with ``seed``) or a ready ``board``. Each
    distinct agent's ``start_game(seed)`` hook, if it has one, gets a seed derived from
    ``seed`` and its seat. A game still running after ``max_turns`` turns is abandoned.

    Raises ``AgentError`` when an agent crashes or answers with an illegal move, naming the
    seat; ``ConfigError`` / ``DeckError`` for a game that cannot be set up. With
    ``contain_faults`` (tournaments) such a move is forfeited instead, as if it had run out of
    time, and recorded with its reason (a ``Forfeited`` event); the game goes on. Seats
    holding ``IDLE`` have every move forfeited at once (a single-team race).
    """
    return Match.new(rules, seats, seed=seed, deck=deck, board=board, validator=validator,
                     max_turns=max_turns, clock=clock, contain_faults=contain_faults).play()
