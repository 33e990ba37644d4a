"""``GameState.clone()``: a copy a lookahead agent can play on without touching the game,
checked on random games of every edition, variant and guess limit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from codenames_ai.core import GameState, GuessLimit, Team, Variant, deal

from .test_properties import DECK, EDITIONS, chaos_move, check_invariants, rules_for


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything a player or the record can observe of a game."""
    over = state.is_over
    return (state.events, state.phase, state.turn, state.outcome,
            tuple(state.is_revealed(i) for i in range(len(state.board.words))),
            tuple(state.cards_left(team) for team in Team),
            None if over else (state.current_team, state.current_role,
                               tuple(state.public_view(team) for team in Team)))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("variant", Variant)
@pytest.mark.parametrize("limit", GuessLimit)
def test_a_clone_plays_on_without_touching_the_game(edition: str, variant: Variant,
                                                    limit: GuessLimit) -> None:
    rules = rules_for(edition, variant, limit)
    for seed in range(40):
        rng = random.Random(seed)
        game = GameState(rules, deal(rules, DECK, seed))
        for _ in range(rng.randrange(0, 30)):  # a random point of a random game
            if game.is_over:
                break
            chaos_move(game, rng)
        before = snapshot(game)
        twin = game.clone()
        assert snapshot(twin) == before
        branch = random.Random(seed + 1000)
        while not twin.is_over:  # the clone plays to the end ...
            chaos_move(twin, branch)
        check_invariants(twin)
        assert snapshot(game) == before  # ... and the game has not moved
        # The same moves give the same game, whichever copy plays them.
        again, replayed = game.clone(), random.Random(seed + 1000)
        while not again.is_over:
            chaos_move(again, replayed)
        assert again.events == twin.events and again.outcome == twin.outcome
        while not game.is_over:  # and the original still plays on by itself
            chaos_move(game, rng)
        check_invariants(game)
