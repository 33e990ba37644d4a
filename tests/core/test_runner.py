"""The match runner: seats, variants, agent failures and time budgets."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from codenames_ai.agents import RandomGuesser, RandomSpymaster, ScriptedGuesser, ScriptedSpymaster
from codenames_ai.core import (
    WORDS,
    AgentError,
    Clue,
    ConfigError,
    Cover,
    Covered,
    CoverReason,
    EndReason,
    GuesserView,
    GuessMade,
    Role,
    Seats,
    SpymasterView,
    Team,
    TimedOut,
    Variant,
    VirtualClock,
    play_game,
)

from ..conftest import make_board, small_rules

BOARD = make_board("R R R B B N N N A")


def scripted(red_clues: Sequence[tuple[str, int]], red_moves: Sequence[str],
             blue_clues: Sequence[tuple[str, int]] = (), blue_moves: Sequence[str] = (),
             blue_covers: Sequence[str] = ()) -> Seats:
    return Seats.standard(
        red_spymaster=ScriptedSpymaster(red_clues),
        red_guesser=ScriptedGuesser(red_moves),
        blue_spymaster=ScriptedSpymaster(blue_clues, blue_covers),
        blue_guesser=ScriptedGuesser(blue_moves),
    )


def test_a_scripted_game_is_played_to_the_end() -> None:
    seats = scripted([("fruit", 2), ("zoo", 1)], ["apple", "bear", "fig", "cat"],
                     [("water", 1)], ["eel", "pass"])
    record = play_game(small_rules(), seats, seed=1, board=BOARD)
    assert record.outcome.winner is Team.RED
    assert record.outcome.reason is EndReason.AGENTS_COVERED
    assert [e.word for e in record.events if isinstance(e, GuessMade)] == [
        "apple", "bear", "fig", "eel", "cat"]


def test_the_penalty_cover_is_chosen_by_the_opposing_spymaster() -> None:
    seats = scripted([("apple", 1)], [], [("water", 1)], ["dog"], blue_covers=["eel"])
    record = play_game(small_rules(), seats, seed=1, board=BOARD)
    covers = [e for e in record.events if isinstance(e, Covered)]
    assert [(c.chooser, c.word, c.reason) for c in covers] == [
        (Team.BLUE, "eel", CoverReason.PENALTY)]
    assert record.outcome.winner is Team.BLUE


def test_three_player_one_guesser_for_both_teams() -> None:
    guesser = ScriptedGuesser(["fig", "dog", "pass", "ink"])
    seats = Seats.three_player(red_spymaster=ScriptedSpymaster([("a", 1), ("b", 1)]),
                               blue_spymaster=ScriptedSpymaster([("c", 1)]), guesser=guesser)
    record = play_game(small_rules(variant=Variant.THREE_PLAYER), seats, seed=1, board=BOARD)
    assert [e.team for e in record.events if isinstance(e, GuessMade)] == [
        Team.RED, Team.BLUE, Team.RED]
    assert record.outcome.winner is Team.BLUE and record.outcome.reason is EndReason.ASSASSIN


def test_seats_must_fit_the_variant() -> None:
    seats = Seats.standard(red_spymaster=RandomSpymaster(["x"]), red_guesser=RandomGuesser(),
                           blue_spymaster=RandomSpymaster(["x"]), blue_guesser=RandomGuesser())
    with pytest.raises(ConfigError, match="Seats.three_player"):
        play_game(small_rules(variant=Variant.THREE_PLAYER), seats, seed=1, board=BOARD)
    with pytest.raises(ConfigError, match="Seats.coop"):
        play_game(small_rules(variant=Variant.COOP), seats, seed=1, board=BOARD)
    with pytest.raises(ConfigError, match="either a deck"):
        play_game(small_rules(), seats, seed=1)


def test_coop_game_through_the_runner() -> None:
    seats = Seats.coop(spymaster=ScriptedSpymaster([("fruit", 1), ("forest", 2)],
                                                   covers=["dog"]),
                       guesser=ScriptedGuesser(["apple", "pass", "bear", "cat"]))
    record = play_game(small_rules(variant=Variant.COOP), seats, seed=3, board=BOARD)
    assert record.outcome.winner is Team.RED
    assert record.outcome.coop_score == 1
    covers = [e for e in record.events if isinstance(e, Covered)]
    assert [(c.word, c.reason) for c in covers] == [("dog", CoverReason.VIRTUAL_TURN)]


class Crashing:
    def give_clue(self, view: SpymasterView) -> Clue:
        raise ZeroDivisionError("boom")

    def choose_cover(self, view: SpymasterView) -> Cover:
        raise ZeroDivisionError("boom")


def test_a_crashing_agent_is_named_in_one_clear_error() -> None:
    seats = Seats.standard(red_spymaster=Crashing(), red_guesser=RandomGuesser(),
                           blue_spymaster=Crashing(), blue_guesser=RandomGuesser())
    with pytest.raises(AgentError, match="red spymaster: crashed: ZeroDivisionError: boom"):
        play_game(small_rules(), seats, seed=1, board=BOARD)


def test_an_illegal_move_is_named_with_the_seat() -> None:
    seats = scripted([("fruit", 2)], ["apple", "apple"])
    with pytest.raises(AgentError, match="red guesser: illegal move Guess.*already revealed"):
        play_game(small_rules(), seats, seed=1, board=BOARD)

    class WrongType:
        def guess(self, view: GuesserView) -> object:
            return "apple"

    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 1)]),
                           red_guesser=WrongType(),  # type: ignore[arg-type]
                           blue_spymaster=ScriptedSpymaster([]), blue_guesser=RandomGuesser())
    with pytest.raises(AgentError, match="must be Guess or Pass"):
        play_game(small_rules(), seats, seed=1, board=BOARD)


class Slow:
    """Takes ``delay`` seconds of ``clock`` per move, then plays like a random agent."""

    def __init__(self, delay: float, clock: VirtualClock) -> None:
        self.delay = delay
        self.clock = clock
        self.spymaster = RandomSpymaster(["alpha", "beta", "gamma"])
        self.guesser = RandomGuesser()

    def give_clue(self, view: SpymasterView) -> Clue:
        self.clock.advance(self.delay)
        return self.spymaster.give_clue(view)

    def choose_cover(self, view: SpymasterView) -> Cover:
        self.clock.advance(self.delay)
        return self.spymaster.choose_cover(view)

    def guess(self, view: GuesserView):  # type: ignore[no-untyped-def]
        self.clock.advance(self.delay)
        return self.guesser.guess(view)


def test_a_spymaster_over_its_time_budget_forfeits_the_clue() -> None:
    rules = small_rules(clue_time_limit=0.05)
    clock = VirtualClock()
    seats = Seats.standard(red_spymaster=Slow(0.5, clock), red_guesser=RandomGuesser(),
                           blue_spymaster=ScriptedSpymaster([("x", 1)]),
                           blue_guesser=ScriptedGuesser(["ink"]))
    record = play_game(rules, seats, seed=1, board=BOARD, clock=clock)
    assert record.events[0] == TimedOut(1, Team.RED, Role.SPYMASTER)
    assert record.outcome.winner is Team.RED  # blue then touched the assassin


def test_a_guesser_over_its_time_budget_ends_the_turn() -> None:
    rules = small_rules(guess_time_limit=0.05)
    clock = VirtualClock()
    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 2)]),
                           red_guesser=Slow(0.5, clock),
                           blue_spymaster=ScriptedSpymaster([("x", 1)]),
                           blue_guesser=ScriptedGuesser(["ink"]))
    record = play_game(rules, seats, seed=1, board=BOARD, clock=clock)
    assert record.events[1] == TimedOut(1, Team.RED, Role.GUESSER)
    assert record.events[2].team is Team.BLUE  # type: ignore[union-attr]


def test_a_move_just_within_its_budget_counts() -> None:
    rules = small_rules(guess_time_limit=0.5)
    clock = VirtualClock()
    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 1)]),
                           red_guesser=Slow(0.5, clock),
                           blue_spymaster=ScriptedSpymaster([("x", 1)]),
                           blue_guesser=ScriptedGuesser(["ink"]))
    record = play_game(rules, seats, seed=1, board=BOARD, clock=clock)
    assert isinstance(record.events[1], GuessMade)


def test_an_agent_within_its_budget_plays_normally() -> None:
    rules = small_rules(clue_time_limit=5.0, guess_time_limit=5.0)
    seats = scripted([("fruit", 3)], ["apple", "bear", "cat"])
    # on a clock nobody moves: every move is within its budget however slow the machine
    record = play_game(rules, seats, seed=1, board=BOARD, clock=VirtualClock())
    assert record.outcome.winner is Team.RED
    assert not any(isinstance(e, TimedOut) for e in record.events)


def test_a_game_that_never_ends_is_abandoned_at_the_turn_limit() -> None:
    rules = small_rules(clue_time_limit=0.01)
    clock = VirtualClock()
    slow = Slow(0.05, clock)
    seats = Seats.standard(red_spymaster=slow, red_guesser=slow, blue_spymaster=slow,
                           blue_guesser=slow)
    record = play_game(rules, seats, seed=1, board=BOARD, max_turns=4, clock=clock)
    assert record.outcome.winner is None
    assert record.outcome.reason is EndReason.TURN_LIMIT


def test_random_agents_finish_a_words_game(deck: tuple[str, ...]) -> None:
    seats = Seats.standard(red_spymaster=RandomSpymaster(deck), red_guesser=RandomGuesser(),
                           blue_spymaster=RandomSpymaster(deck), blue_guesser=RandomGuesser())
    record = play_game(WORDS, seats, seed=11, deck=deck)
    # seed 11's one ending: blue touches the assassin on turn 11
    assert (record.outcome.winner, record.outcome.reason, record.outcome.turns) == (
        Team.RED, EndReason.ASSASSIN, 11)
