"""The seats of a game and ``play_game``, which plays one game between them and returns its
record. No I/O. The moves themselves are asked for by ``match.Match`` (time budgets, faults).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .clock import MONOTONIC, MoveClock
from .clues import ClueValidator
from .match import DEFAULT_MAX_TURNS, IDLE, IdleSeat, Match
from .record import GameRecord
from .rules import RuleSet
from .seats import Seats

__all__ = ["DEFAULT_MAX_TURNS", "IDLE", "IdleSeat", "Seats", "play_game"]


def play_game(rules: RuleSet, seats: Seats, *, seed: int,
              deck: Sequence[str] | None = None, board: Board | None = None,
              validator: ClueValidator | None = None,
              max_turns: int = DEFAULT_MAX_TURNS,
              clock: MoveClock = MONOTONIC,
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
