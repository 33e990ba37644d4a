"""Baseline agents and the agent registry."""

from __future__ import annotations

import pytest

from codenames_ai.agents import (
    RandomGuesser,
    RandomSpymaster,
    ScriptedGuesser,
    make_agent,
)
from codenames_ai.core import (
    AgentError,
    Clue,
    ConfigError,
    DeckError,
    Seats,
    Team,
    play_game,
)

from ..conftest import SMALL_WORDS, make_board, small_game, small_rules


def test_random_spymaster_gives_only_legal_clues_within_its_number_range() -> None:
    state = small_game()
    spymaster = RandomSpymaster(["apple", "bear", "orchard"], max_number=2)
    for seed in range(50):
        spymaster.start_game(seed)
        clue = spymaster.give_clue(state.spymaster_view(Team.RED))
        assert clue.word == "orchard" and clue.number in (1, 2)
        assert state.check_clue(clue) is None


def test_random_spymaster_without_a_legal_word_says_so() -> None:
    spymaster = RandomSpymaster(SMALL_WORDS)
    with pytest.raises(DeckError, match="none of the random spymaster's 9 clue words"):
        spymaster.give_clue(small_game().spymaster_view(Team.RED))
    seats = Seats.standard(red_spymaster=spymaster, red_guesser=RandomGuesser(),
                           blue_spymaster=spymaster, blue_guesser=RandomGuesser())
    with pytest.raises(AgentError, match="red spymaster: crashed: DeckError"):
        play_game(small_rules(), seats, seed=1, board=make_board("R R R B B N N N A"))


def test_random_guesser_is_reproducible_from_its_seed() -> None:
    state = small_game()
    state.apply(Clue("orchard", 2))
    view = state.guesser_view(Team.RED)
    first, second = RandomGuesser(), RandomGuesser()
    first.start_game(4)
    second.start_game(4)
    assert [first.guess(view) for _ in range(5)] == [second.guess(view) for _ in range(5)]
    with pytest.raises(ValueError, match="stop_probability"):
        RandomGuesser(stop_probability=2.0)


def test_plugins_load_as_module_class_and_errors_are_clear() -> None:
    agent = make_agent("codenames_ai.agents.baselines:ScriptedGuesser", moves=["pass"])
    assert isinstance(agent, ScriptedGuesser)
    with pytest.raises(ConfigError, match="unknown agent 'genius-v9'; known agents"):
        make_agent("genius-v9")
    with pytest.raises(ConfigError, match="cannot import 'no_such_module'"):
        make_agent("no_such_module:Agent")
    with pytest.raises(ConfigError, match="has no 'Nope'"):
        make_agent("codenames_ai.agents.baselines:Nope")
    with pytest.raises(ConfigError, match="has no option 'colour'; its options: "
                                          "stop_probability, seed"):
        make_agent("random-guesser-v1", colour="red")
