"""Property tests: thousands of random seeded games per edition, variant and guess limit,
each checked against invariants written independently of the engine.

A "chaos" driver plays the state directly with every kind of move, including invalid clues,
expert clues, passes and timeouts; a second suite plays the random agents through the runner.

Plain ``pytest`` plays a few games of each kind; the thousands are behind the ``slow`` marker
(``pytest -m slow``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codenames_ai.agents import RandomGuesser, RandomSpymaster
from codenames_ai.core import (
    PICTURES,
    UNLIMITED,
    WORDS,
    Abandoned,
    Clue,
    ClueGiven,
    Cover,
    Covered,
    CoverReason,
    EndReason,
    Event,
    GameRecord,
    GameState,
    Guess,
    GuessLimit,
    GuessMade,
    Identity,
    InvalidClue,
    Layout,
    Pass,
    Passed,
    Phase,
    Role,
    RuleSet,
    Seats,
    Team,
    TimedOut,
    Variant,
    coop_rating,
    custom,
    deal,
    play_game,
    replay,
)
from codenames_ai.decks import default_deck

DECK = default_deck("words")
CUSTOM = custom(Layout(rows=4, cols=6, first_team_agents=7, second_team_agents=7,
                       double_agent=False, bystanders=8, assassins=2))
EDITIONS = {"words": WORDS, "pictures": PICTURES, "custom": CUSTOM}
COMBOS = [(e, v, g) for e in EDITIONS for v in Variant for g in GuessLimit]
GAMES_PER_COMBO = 1000  # under the slow marker; the default run plays BRIEF_GAMES
BRIEF_GAMES = 15


def rules_for(edition: str, variant: Variant, limit: GuessLimit) -> RuleSet:
    # The chaos driver's clue words ("clue12") are only legal under the core's basic checks.
    return EDITIONS[edition].with_options(variant=variant, guess_limit=limit, clue_rules="basic")


def chaos_game(rules: RuleSet, seed: int) -> GameState:
    """Plays every kind of move at random, checking the guesser's view as it goes."""
    rng = random.Random(seed)
    state = GameState(rules, deal(rules, DECK, seed))
    while not state.is_over:
        chaos_move(state, rng)
    return state


def chaos_move(state: GameState, rng: random.Random) -> None:
    """One move of any kind (invalid clues, passes and timeouts included) by whoever is to
    move."""
    team = state.current_team
    roll = rng.random()
    if state.phase is Phase.CLUE:
        left = state.cards_left(team)
        if roll < 0.03:
            state.forfeit()
        elif roll < 0.06:
            state.apply(Clue(rng.choice(state.clue_context().visible_words), 1))
        elif roll < 0.08:
            state.apply(Clue("toomany", left + 1))
        else:
            number = rng.choice([0, UNLIMITED] + [rng.randint(1, left)] * 6)
            state.apply(Clue(f"clue{state.turn}", number))
    elif state.phase is Phase.GUESS:
        view = state.guesser_view(team)
        assert all(view.revealed[i] is None for i in range(len(view.words))
                   if not state.is_revealed(i))
        if roll < 0.02:
            state.forfeit()
        elif view.can_pass and roll < 0.25:
            state.apply(Pass())
        else:
            state.apply(Guess(rng.choice(view.unrevealed)))
    else:
        if roll < 0.05:
            state.forfeit()
        else:
            state.apply(Cover(rng.choice(state.cover_candidates())))


def check_invariants(state: GameState) -> None:
    """The rules, restated from docs/rules.md and checked over the event log."""
    rules, board = state.rules, state.board
    events = state.events
    outcome = state.outcome
    # Exactly one outcome, and the game is over.
    assert outcome is not None and state.phase is Phase.OVER and state.is_over
    # A card is revealed at most once, only through guesses and covers.
    revealed = [e.index for e in events if isinstance(e, GuessMade | Covered)]
    assert len(revealed) == len(set(revealed))
    assert all(state.is_revealed(i) == (i in set(revealed)) for i in range(len(board.words)))
    # Counts are conserved.
    shown = Counter(board.key[i] for i in revealed)
    for team in Team:
        assert state.cards_left(team) == board.count(team.agent) - shown[team.agent]
    for event in events:
        if isinstance(event, GuessMade):
            assert event.identity is board.key[event.index]
            assert event.word == board.words[event.index]
        if isinstance(event, Covered):
            assert board.key[event.index] is event.team.agent
    # Who acts in which turn: teams alternate (co-op: the virtual team only covers).
    real = board.starting_team if rules.variant is Variant.COOP else None
    for position, event in enumerate(events):
        if isinstance(event, Abandoned) or _times_out_a_cover(events, position):
            continue
        expected = board.starting_team if event.turn % 2 == 1 else board.starting_team.other
        if isinstance(event, ClueGiven | InvalidClue | GuessMade | Passed | TimedOut):
            assert event.team is expected, event
        if isinstance(event, Covered) and event.reason is CoverReason.VIRTUAL_TURN:
            assert real is not None and event.team is real.other and event.chooser is real
            assert event.turn % 2 == 0
        if real is not None and isinstance(event, ClueGiven):
            assert event.team is real
    # Per turn: at least one guess, the guess limit, and a wrong guess ends the turn, with
    # the oracle's own leftover ledger (README: how leftovers are counted).
    leftover = {Team.RED: 0, Team.BLUE: 0}
    left = {team: board.count(team.agent) for team in Team}
    for turn_events in _turns(events):
        clue = next((e for e in turn_events if isinstance(e, ClueGiven)), None)
        guesses = [e for e in turn_events if isinstance(e, GuessMade)]
        if clue is not None:
            after = turn_events[turn_events.index(clue) + 1:]
            assert isinstance(after[0], GuessMade) or after[0] == TimedOut(
                clue.turn, clue.team, Role.GUESSER)
            for g in guesses[:-1]:
                assert g.identity is clue.team.agent  # only a correct guess lets a team go on
            number = clue.clue.number
            if isinstance(number, int) and number > 0:
                extra = 1 if (rules.guess_limit is GuessLimit.CLASSIC
                              or min(leftover[clue.team], left[clue.team]) > 0) else 0
                assert len(guesses) <= number + extra
        for e in turn_events:
            if isinstance(e, GuessMade | Covered) and board.key[e.index].team is not None:
                left[board.key[e.index].team] -= 1  # type: ignore[index]
        if clue is not None:
            correct = sum(1 for g in guesses if g.identity is clue.team.agent)
            if clue.clue.number == 0:
                leftover[clue.team] -= correct
            elif isinstance(clue.clue.number, int):
                leftover[clue.team] += clue.clue.number - correct
        for team in Team:
            leftover[team] = max(0, min(leftover[team], left[team]))
    # The assassin ends the game at once; winners are consistent.
    assassin = [e for e in events if isinstance(e, GuessMade) and e.identity is Identity.ASSASSIN]
    if outcome.reason is EndReason.ASSASSIN:
        assert len(assassin) == 1 and events[-1] == assassin[0]
        assert outcome.winner is assassin[0].team.other
    else:
        assert not assassin
    if outcome.reason is EndReason.AGENTS_COVERED:
        assert outcome.winner is not None
        assert state.cards_left(outcome.winner) == 0
        assert state.cards_left(outcome.winner.other) > 0
    if outcome.reason is EndReason.TURN_LIMIT:
        assert outcome.winner is None
    # Co-op scoring.
    if real is not None and outcome.winner is real:
        assert outcome.coop_score == state.cards_left(real.other)
        assert outcome.coop_rating == coop_rating(outcome.coop_score)
    else:
        assert outcome.coop_score is None and outcome.coop_rating is None


def _times_out_a_cover(events: tuple[Event, ...], position: int) -> bool:
    """A spymaster who ran out of time choosing a cover; the engine covered for it."""
    following = events[position + 1] if position + 1 < len(events) else None
    return (isinstance(events[position], TimedOut) and isinstance(following, Covered)
            and following.reason is CoverReason.TIMEOUT
            and following.chooser is events[position].team)  # type: ignore[union-attr]


def _turns(events: tuple[Event, ...]) -> list[list[Event]]:
    """Events grouped by turn number, in order."""
    turns: list[list[Event]] = []
    for event in events:
        if not turns or turns[-1][0].turn != event.turn:
            turns.append([])
        turns[-1].append(event)
    return turns


def games(brief: int, thorough: int) -> pytest.MarkDecorator:
    """A few games in the default run; many under the slow marker."""
    return pytest.mark.parametrize("games", [
        pytest.param(brief, id="brief"),
        pytest.param(thorough, id="thorough", marks=pytest.mark.slow)])


@games(BRIEF_GAMES, GAMES_PER_COMBO)
@pytest.mark.parametrize(("edition", "variant", "limit"), COMBOS,
                         ids=[f"{e}-{v.value}-{g.value}" for e, v, g in COMBOS])
def test_chaos_games_keep_every_invariant(edition: str, variant: Variant,
                                          limit: GuessLimit, games: int) -> None:
    rules = rules_for(edition, variant, limit)

    @settings(max_examples=games, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=2**63 - 1))
    def one_game(seed: int) -> None:
        state = chaos_game(rules, seed)
        check_invariants(state)
        record = GameRecord.from_state(state, seed=seed)
        again = replay(GameRecord.from_jsonl(record.to_jsonl()))
        assert again.events == state.events and again.outcome == state.outcome

    one_game()


@games(5, 200)
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_random_agents_through_the_runner_are_reproducible(edition: str, games: int) -> None:
    rules = EDITIONS[edition]

    def seats() -> Seats:
        return Seats.standard(
            red_spymaster=RandomSpymaster(DECK, max_number=3),
            red_guesser=RandomGuesser(stop_probability=0.3),
            blue_spymaster=RandomSpymaster(DECK, max_number=3),
            blue_guesser=RandomGuesser(stop_probability=0.3))

    @settings(max_examples=games, deadline=None, derandomize=True)
    @given(seed=st.integers(min_value=0, max_value=2**63 - 1))
    def one_game(seed: int) -> None:
        first = play_game(rules, seats(), seed=seed, deck=DECK)
        second = play_game(rules, seats(), seed=seed, deck=DECK)
        assert first.to_jsonl() == second.to_jsonl()
        check_invariants(replay(first))

    one_game()
