"""The match: one move at a time, faults contained or raised, per-move reseeding, and the
seats each variant has."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from codenames_ai.agents import RandomGuesser, RandomSpymaster, ScriptedGuesser, ScriptedSpymaster
from codenames_ai.core import (
    IDLE,
    MONOTONIC,
    AgentError,
    ClockStalled,
    Clue,
    Cover,
    EndReason,
    Forfeited,
    GameInterrupted,
    GameState,
    Guess,
    GuesserView,
    IllegalActionError,
    Match,
    Move,
    MoveResult,
    Pass,
    Role,
    Seats,
    SpymasterView,
    Team,
    TimedOut,
    Variant,
    VirtualClock,
    derive_seed,
    play_game,
)

from ..conftest import make_board, small_rules
from ..waiting import until

BOARD = make_board("R R R B B N N N A")
CLUE_WORDS = ("alpha", "beta", "gamma", "delta", "omega")


def random_seats() -> Seats:
    return Seats.standard(red_spymaster=RandomSpymaster(CLUE_WORDS),
                          red_guesser=RandomGuesser(stop_probability=0.3),
                          blue_spymaster=RandomSpymaster(CLUE_WORDS),
                          blue_guesser=RandomGuesser(stop_probability=0.3))


def steps(match: Match) -> Iterator[Move]:
    while not match.state.is_over:
        yield match.step()


@pytest.mark.parametrize("seed", range(6))
def test_step_by_step_play_gives_play_games_record(seed: int) -> None:
    match = Match.new(small_rules(), random_seats(), seed=seed, board=BOARD)
    moves = list(steps(match))
    assert match.record() == play_game(small_rules(), random_seats(), seed=seed, board=BOARD)
    assert all(m.result is MoveResult.PLAYED for m in moves)
    assert match.moves_made == len(moves)
    with pytest.raises(IllegalActionError, match="game is over"):
        match.step()


def test_a_move_names_its_seat_and_agent() -> None:
    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 1)]),
                           red_guesser=ScriptedGuesser(["apple", "pass"]),
                           blue_spymaster=IDLE, blue_guesser=IDLE)
    match = Match.new(small_rules(), seats, seed=1, board=BOARD)
    clue, guess, _, idle = match.step(), match.step(), match.step(), match.step()
    assert (clue.seat, clue.agent, clue.action) == ("red spymaster", seats.red_spymaster,
                                                    Clue("fruit", 1))
    assert (guess.team, guess.role, guess.action) == (Team.RED, Role.GUESSER, Guess(0))
    assert (idle.seat, idle.result, idle.action) == ("blue spymaster", MoveResult.TIMED_OUT,
                                                     None)
    assert match.state.events[-1] == TimedOut(2, Team.BLUE, Role.SPYMASTER)


class Crashing:
    def give_clue(self, view: SpymasterView) -> Clue:
        raise ZeroDivisionError("boom")

    def choose_cover(self, view: SpymasterView) -> Cover:
        raise ZeroDivisionError("boom")


class WrongType:
    def guess(self, view: GuesserView) -> object:
        return "apple"


def faulty(case: str) -> Seats:
    """Seats where red's first faulty move is a crash, a wrong type or an illegal move."""
    spymaster = Crashing() if case == "crash" else ScriptedSpymaster([("fruit", 2)])
    guesser = {"crash": RandomGuesser(), "wrong type": WrongType(),
               "illegal": ScriptedGuesser(["apple", "apple"])}[case]
    return Seats.standard(red_spymaster=spymaster, red_guesser=guesser,  # type: ignore[arg-type]
                          blue_spymaster=ScriptedSpymaster([("x", 1)]),
                          blue_guesser=ScriptedGuesser(["ink"]))


FAULTS = {"crash": "red spymaster: crashed: ZeroDivisionError: boom",
          "wrong type": "red guesser: returned 'apple'; a guess move must be Guess or Pass",
          "illegal": "red guesser: illegal move Guess(index=0): "}


@pytest.mark.parametrize("case", sorted(FAULTS))
def test_a_fault_is_raised_naming_the_seat(case: str) -> None:
    match = Match.new(small_rules(), faulty(case), seed=1, board=BOARD)
    with pytest.raises(AgentError) as error:
        list(steps(match))
    assert str(error.value).startswith(FAULTS[case])
    assert error.value.seat == FAULTS[case].split(":")[0]


@pytest.mark.parametrize("case", sorted(FAULTS))
def test_a_contained_fault_forfeits_the_move_and_the_game_goes_on(case: str) -> None:
    match = Match.new(small_rules(), faulty(case), seed=1, board=BOARD, contain_faults=True)
    moves = list(steps(match))
    forfeited = [m for m in moves if m.result is MoveResult.FORFEITED]
    assert len(forfeited) == 1 and forfeited[0].reason is not None
    assert forfeited[0].reason.startswith(FAULTS[case])
    assert forfeited[0].seat == FAULTS[case].split(":")[0]
    events = [e for e in match.state.events if isinstance(e, Forfeited)]
    assert [e.reason for e in events] == [forfeited[0].reason]
    assert match.state.outcome is not None  # blue touched the assassin after it
    assert match.state.outcome.reason is EndReason.ASSASSIN


class Late:
    """Answers a legal guess, but only after ``delay`` seconds of ``clock``."""

    def __init__(self, delay: float, clock: VirtualClock) -> None:
        self.delay, self.clock = delay, clock

    def guess(self, view: GuesserView) -> Guess:
        self.clock.advance(self.delay)
        return Guess(view.unrevealed[0])


@pytest.mark.parametrize("contain_faults", [False, True])
def test_a_late_move_is_forfeited_whether_or_not_faults_are_contained(
        contain_faults: bool) -> None:
    clock = VirtualClock()
    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 2)]),
                           red_guesser=Late(1.0, clock),
                           blue_spymaster=IDLE, blue_guesser=IDLE)
    match = Match.new(small_rules(guess_time_limit=0.5), seats, seed=1, board=BOARD,
                      clock=clock, contain_faults=contain_faults)
    match.step()
    late = match.step()
    assert (late.result, late.action, late.reason) == (MoveResult.TIMED_OUT, None, None)
    assert match.state.events[-1] == TimedOut(1, Team.RED, Role.GUESSER)
    assert match.state.current_team is Team.BLUE
    assert not any(match.state.is_revealed(i) for i in range(len(BOARD.words)))


def test_a_move_that_never_returns_is_forfeited_when_its_time_is_up() -> None:
    clock = VirtualClock()
    release = threading.Event()

    class Stuck:
        def guess(self, view: GuesserView) -> Pass:
            clock.advance(0.06)  # its budget runs out while it is still thinking
            release.wait()  # left running on its daemon thread; released below
            return Pass()

    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 2)]), red_guesser=Stuck(),
                           blue_spymaster=IDLE, blue_guesser=IDLE)
    match = Match.new(small_rules(guess_time_limit=0.05), seats, seed=1, board=BOARD,
                      clock=clock)
    try:
        match.step()
        assert match.step().result is MoveResult.TIMED_OUT
    finally:
        release.set()


def test_a_virtual_clock_ends_a_wait_only_past_its_deadline() -> None:
    clock = VirtualClock()
    decided = threading.Event()
    waiter = threading.Thread(target=clock.wait, args=(decided, clock.now() + 1.0))
    waiter.start()
    until(lambda: clock.waiting, "the wait to begin")  # else the boundary goes untested
    clock.advance(0.5)
    clock.advance(0.5)  # exactly at the deadline: a move that took its whole budget counts
    assert not decided.is_set()
    clock.advance(0.001)
    waiter.join()
    assert decided.is_set() and clock.now() == 1.001


def test_a_virtual_clock_nobody_moves_fails_a_stuck_move_instead_of_hanging() -> None:
    clock = VirtualClock(patience=0.0)  # no real time at all: the safety net at once
    with pytest.raises(ClockStalled, match="neither returned nor advanced the clock"):
        clock.wait(threading.Event(), 1.0)
    with pytest.raises(ValueError, match="does not go back"):
        clock.advance(-1.0)


def test_the_real_clock_returns_as_soon_as_the_move_is_decided() -> None:
    decided = threading.Event()
    decided.set()
    started = time.monotonic()
    MONOTONIC.wait(decided, MONOTONIC.now() + 10.0)  # at once: the event ends it
    MONOTONIC.wait(threading.Event(), MONOTONIC.now())  # and a deadline already come
    assert time.monotonic() - started < 5.0  # far below the 10 s it would wait else


def test_an_agent_that_stops_the_game_ends_it_with_no_winner() -> None:
    class Quits:
        def guess(self, view: GuesserView) -> Pass:
            raise GameInterrupted("the person quit")

    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 2)]), red_guesser=Quits(),
                           blue_spymaster=IDLE, blue_guesser=IDLE)
    match = Match.new(small_rules(), seats, seed=1, board=BOARD, contain_faults=True)
    match.step()
    assert match.step().result is MoveResult.STOPPED
    assert match.state.outcome is not None
    assert (match.state.outcome.winner, match.state.outcome.reason) == (None, EndReason.STOPPED)


def test_the_turn_limit_abandons_the_game_before_asking_anyone() -> None:
    seats = Seats.standard(red_spymaster=IDLE, red_guesser=IDLE, blue_spymaster=IDLE,
                           blue_guesser=IDLE)
    match = Match.new(small_rules(), seats, seed=1, board=BOARD, max_turns=2)
    results = [m.result for m in steps(match)]
    assert results == [MoveResult.TIMED_OUT, MoveResult.TIMED_OUT, MoveResult.ABANDONED]
    assert match.record().outcome.reason is EndReason.TURN_LIMIT


class SeedLog:
    """A scripted guesser that notes each seed its ``start_game`` hook gets."""

    def __init__(self) -> None:
        self.guesser = ScriptedGuesser(["apple", "bear"])
        self.seeds: list[int] = []

    def start_game(self, seed: int) -> None:
        self.seeds.append(seed)

    def guess(self, view: GuesserView) -> Guess | Pass:
        return self.guesser.guess(view)


def replayed(moves: list[Move]) -> GameState:
    """A fresh game with ``moves`` applied from outside, as a server rebuilds one."""
    state = GameState(small_rules(), BOARD)
    for move in moves:
        if move.action is not None:
            state.apply(move.action)
        else:
            state.forfeit(move.reason)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_per_move_reseeding_replays_a_match_rebuilt_from_any_prefix(seed: int) -> None:
    def match(state: GameState, first_move: int) -> Match:
        return Match(state, random_seats(), seed=seed, reseed_every_move=True,
                     first_move=first_move)

    original = match(GameState(small_rules(), BOARD), 0)
    moves = list(steps(original))
    for prefix in range(len(moves) + 1):
        rebuilt = match(replayed(moves[:prefix]), prefix)
        assert [m.action for m in steps(rebuilt)] == [m.action for m in moves[prefix:]]
        assert rebuilt.state.events == original.state.events
    # Seeded once at the start instead, a rebuilt match drifts from the original.
    drifted = [Match(replayed(moves[:prefix]), random_seats(), seed=seed).play().events
               for prefix in range(1, len(moves))]
    assert any(events != original.state.events for events in drifted)


def test_the_per_move_seed_comes_from_the_game_seed_the_seat_and_the_move_number() -> None:
    # The web app's stored games are seeded this way: changing it changes their AI moves.
    log = SeedLog()
    seats = Seats.standard(red_spymaster=ScriptedSpymaster([("fruit", 2)]), red_guesser=log,
                           blue_spymaster=IDLE, blue_guesser=IDLE)
    match = Match.new(small_rules(), seats, seed=7, board=BOARD, reseed_every_move=True)
    match.step(), match.step(), match.step()
    assert log.seeds == [derive_seed(7, "red guesser 1"), derive_seed(7, "red guesser 2")]
    started = SeedLog()
    seats = Seats.standard(red_spymaster=ScriptedSpymaster([]), red_guesser=started,
                           blue_spymaster=IDLE, blue_guesser=IDLE)
    Match.new(small_rules(), seats, seed=7, board=BOARD)  # without: once, when made
    assert started.seeds == [derive_seed(7, "red guesser")]


class Asked:
    """Agent factories for ``Seats.for_variant`` that note every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[Role, Team]] = []

    def factory(self, role: Role) -> Callable[[Team], Any]:
        def make(team: Team) -> Any:
            self.calls.append((role, team))
            return (RandomSpymaster(CLUE_WORDS) if role is Role.SPYMASTER
                    else RandomGuesser())
        return make


@pytest.mark.parametrize(("variant", "expected"), [
    (Variant.STANDARD, [(Role.SPYMASTER, Team.RED), (Role.GUESSER, Team.RED),
                        (Role.SPYMASTER, Team.BLUE), (Role.GUESSER, Team.BLUE)]),
    (Variant.THREE_PLAYER, [(Role.SPYMASTER, Team.RED), (Role.SPYMASTER, Team.BLUE),
                            (Role.GUESSER, Team.RED)]),
    (Variant.COOP, [(Role.SPYMASTER, Team.RED), (Role.GUESSER, Team.RED)]),
])
def test_seats_for_variant_asks_for_exactly_the_seats_the_variant_has(
        variant: Variant, expected: list[tuple[Role, Team]]) -> None:
    asked = Asked()
    seats = Seats.for_variant(variant, spymaster=asked.factory(Role.SPYMASTER),
                              guesser=asked.factory(Role.GUESSER))
    assert asked.calls == expected
    seats.check(variant)
    agents = {id(agent) for _, agent in seats.labelled()}
    assert len(agents) == len(expected)  # each call fills its own seat(s)
    record = play_game(small_rules(variant=variant), seats, seed=1, board=BOARD)
    assert record.outcome is not None
