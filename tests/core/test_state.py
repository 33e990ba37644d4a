"""One test per rule of docs/rules.md, driven move by move on a hand-written 3x3 board.

Board (row-major): apple bear cat = red (red starts, double agent included), dog eel = blue,
fig goat hat = bystanders, ink = the assassin.
"""

from __future__ import annotations

import pytest

from codenames_ai.core import (
    UNLIMITED,
    Clue,
    ClueGiven,
    Cover,
    Covered,
    CoverReason,
    EndReason,
    GameState,
    Guess,
    GuessLimit,
    IllegalActionError,
    IllegalClueError,
    InvalidClue,
    InvalidCluePolicy,
    Layout,
    Pass,
    Phase,
    Role,
    Team,
    TimedOut,
    Variant,
    custom,
)

from ..conftest import make_board, small_game

APPLE, BEAR, CAT, DOG, EEL, FIG, GOAT, HAT, INK = range(9)


def play(state: GameState, *actions: object) -> None:
    for action in actions:
        state.apply(action)  # type: ignore[arg-type]


# ----------------------------------------------------------------- a turn


def test_the_starting_team_gives_the_first_clue() -> None:
    state = small_game()
    assert (state.phase, state.current_team, state.current_role) == (
        Phase.CLUE, Team.RED, Role.SPYMASTER)


def test_own_agent_is_covered_and_the_team_may_go_on() -> None:
    state = small_game()
    play(state, Clue("fruit", 2), Guess(APPLE))
    assert state.is_revealed(APPLE)
    assert (state.phase, state.current_team, state.guesses_left) == (Phase.GUESS, Team.RED, 2)


def test_bystander_ends_the_turn() -> None:
    state = small_game()
    play(state, Clue("fruit", 2), Guess(FIG))
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_opponents_agent_counts_for_them_and_ends_the_turn() -> None:
    state = small_game()
    play(state, Clue("animal", 2), Guess(DOG))
    assert state.cards_left(Team.BLUE) == 1
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_assassin_ends_the_game_and_the_guessing_team_loses() -> None:
    state = small_game()
    play(state, Clue("pen", 1), Guess(INK))
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == (Team.BLUE, EndReason.ASSASSIN)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(Clue("more", 1))


def test_at_least_one_guess_before_passing() -> None:
    state = small_game()
    state.apply(Clue("fruit", 1))
    assert Pass() not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="at least one guess"):
        state.apply(Pass())
    play(state, Guess(APPLE), Pass())
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_classic_limit_is_number_plus_one() -> None:
    state = small_game()
    play(state, Clue("fruit", 1), Guess(APPLE))
    assert state.guesses_left == 1
    state.apply(Guess(BEAR))
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_zero_clue_allows_unlimited_guesses_but_at_least_one() -> None:
    state = small_game()
    state.apply(Clue("nothing", 0))
    assert state.guesses_left is None
    with pytest.raises(IllegalActionError):
        state.apply(Pass())
    play(state, Guess(APPLE), Guess(BEAR))
    assert state.phase is Phase.GUESS and state.guesses_left is None


def test_unlimited_clue_allows_unlimited_guesses() -> None:
    state = small_game()
    play(state, Clue("stuff", UNLIMITED), Guess(APPLE), Guess(BEAR))
    assert state.phase is Phase.GUESS and state.guesses_left is None


def test_guessing_a_revealed_or_missing_card_is_illegal() -> None:
    state = small_game()
    play(state, Clue("fruit", 2), Guess(APPLE))
    with pytest.raises(IllegalActionError, match="already revealed"):
        state.apply(Guess(APPLE))
    with pytest.raises(IllegalActionError, match="not on the board"):
        state.apply(Guess(9))


def test_moves_out_of_phase_are_illegal() -> None:
    state = small_game()
    with pytest.raises(IllegalActionError, match="waits for a clue move from red"):
        state.apply(Guess(APPLE))
    with pytest.raises(IllegalActionError):
        state.apply(Cover(DOG))
    with pytest.raises(IllegalActionError, match="not blue's turn to guess"):
        state.guesser_view(Team.BLUE)


# ----------------------------------------------------------------- strict "+1"


def test_strict_limit_has_no_extra_guess_without_leftovers() -> None:
    state = small_game(guess_limit=GuessLimit.STRICT)
    play(state, Clue("fruit", 1), Guess(APPLE))
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_strict_limit_gives_the_extra_guess_for_leftover_cards() -> None:
    state = small_game(guess_limit=GuessLimit.STRICT)
    play(state, Clue("fruit", 2), Guess(APPLE), Pass())  # stopped early: one leftover
    assert state.leftover(Team.RED) == 1
    play(state, Clue("sea", 1), Guess(EEL))  # no leftovers for blue: one guess only
    state.apply(Clue("forest", 1))
    assert state.guesses_left == 2
    play(state, Guess(BEAR))
    assert state.phase is Phase.GUESS
    state.apply(Guess(FIG))  # the extra guess: a bystander ends the turn as usual
    assert state.current_team is Team.BLUE


def test_the_extra_guess_on_an_own_agent_uses_a_leftover() -> None:
    layout = Layout(rows=3, cols=3, first_team_agents=3, second_team_agents=2,
                    double_agent=True, bystanders=2, assassins=1)
    rules = custom(layout, guess_limit=GuessLimit.STRICT, clue_rules="basic")
    state = GameState(rules, make_board("R R R R B B N N A"))
    play(state, Clue("fruit", 2), Guess(0), Pass())  # one leftover
    play(state, Clue("sea", 1), Guess(4))
    play(state, Clue("forest", 1), Guess(1), Guess(2))  # the extra guess hits: used up
    assert state.leftover(Team.RED) == 0
    play(state, Clue("sea", 1), Guess(6))
    state.apply(Clue("last", 1))
    assert state.guesses_left == 1


def test_a_miss_on_the_extra_guess_keeps_the_leftover() -> None:
    state = small_game(guess_limit=GuessLimit.STRICT)
    play(state, Clue("fruit", 2), Guess(APPLE), Pass())
    play(state, Clue("sea", 1), Guess(EEL))
    play(state, Clue("forest", 1), Guess(BEAR), Guess(FIG))
    # "forest: 1" found its one card; the leftover from "fruit: 2" is still there.
    assert state.leftover(Team.RED) == 1


def test_leftovers_never_exceed_the_teams_cards_left() -> None:
    state = small_game(guess_limit=GuessLimit.STRICT)
    play(state, Clue("everything", 3), Guess(FIG))  # three leftovers on paper
    assert state.leftover(Team.RED) == 3
    play(state, Clue("trees", 1), Guess(APPLE))  # blue uncovers a red agent
    assert state.leftover(Team.RED) == 2


def test_a_zero_clue_uses_up_leftovers() -> None:
    state = small_game(guess_limit=GuessLimit.STRICT)
    play(state, Clue("fruit", 2), Guess(FIG))
    play(state, Clue("sea", 1), Guess(EEL))
    assert state.leftover(Team.RED) == 2
    play(state, Clue("nothing", 0), Guess(APPLE), Pass())
    assert state.leftover(Team.RED) == 1


# ----------------------------------------------------------------- the end


def test_team_wins_when_its_last_agent_is_covered() -> None:
    state = small_game()
    play(state, Clue("things", 3), Guess(APPLE), Guess(BEAR), Guess(CAT))
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == (Team.RED, EndReason.AGENTS_COVERED)


def test_team_wins_when_the_other_team_uncovers_its_last_agent() -> None:
    state = small_game()
    play(state, Clue("fish", 1), Guess(EEL))  # red uncovers a blue agent: 1 blue left
    play(state, Clue("pets", 1), Guess(FIG))
    play(state, Clue("animals", 1), Guess(DOG))  # red uncovers blue's last agent
    assert state.outcome is not None and state.outcome.winner is Team.BLUE


# ----------------------------------------------------------------- clue validity


@pytest.mark.parametrize(("clue", "rule"), [
    (Clue("cat", 1), "board-word"),
    (Clue("CAT", 1), "board-word"),
    (Clue("ice cream", 1), "one-word"),
    (Clue("", 1), "one-word"),
    (Clue("fruit", 4), "number-range"),
    (Clue("fruit", -1), "number-range"),
])
def test_invalid_clues_name_the_broken_rule(clue: Clue, rule: str) -> None:
    state = small_game(invalid_clue_policy=InvalidCluePolicy.REJECT)
    with pytest.raises(IllegalClueError) as caught:
        state.apply(clue)
    assert caught.value.rule == rule
    assert state.phase is Phase.CLUE and state.events == ()


def test_zero_and_unlimited_clues_can_be_switched_off() -> None:
    state = small_game(allow_zero_clue=False, allow_unlimited_clue=False)
    assert state.check_clue(Clue("x", 0)).rule == "zero-clue-off"  # type: ignore[union-attr]
    assert state.check_clue(Clue("x", UNLIMITED)).rule == "unlimited-clue-off"  # type: ignore


def test_a_covered_board_word_becomes_legal() -> None:
    state = small_game()
    assert state.check_clue(Clue("dog", 1)) is not None
    play(state, Clue("pets", 1), Guess(DOG))
    state.apply(Clue("dog", 1))
    assert isinstance(state.events[-1], ClueGiven)


def test_invalid_clue_penalty_ends_the_turn_and_the_opponent_covers_its_own_agent() -> None:
    state = small_game()
    state.apply(Clue("apple", 1))
    assert isinstance(state.events[-1], InvalidClue)
    assert state.events[-1].rule == "board-word"
    assert state.phase is Phase.COVER and state.current_team is Team.BLUE
    assert state.spymaster_view(Team.BLUE).cover_candidates == (DOG, EEL)
    assert state.spymaster_view(Team.RED).cover_candidates == ()
    with pytest.raises(IllegalActionError, match="not an unrevealed blue agent"):
        state.apply(Cover(APPLE))
    state.apply(Cover(EEL))
    assert state.events[-1] == Covered(1, Team.BLUE, Team.BLUE, EEL, "eel", CoverReason.PENALTY)
    assert (state.phase, state.current_team, state.turn) == (Phase.CLUE, Team.BLUE, 2)


def test_a_penalty_cover_of_the_last_agent_wins_for_that_team() -> None:
    state = small_game()
    play(state, Clue("fish", 1), Guess(EEL))  # blue has one agent left
    play(state, Clue("hats", 1), Guess(FIG))
    state.apply(Clue("fruit", 9))  # number out of range: invalid
    state.apply(Cover(DOG))
    assert state.outcome is not None and state.outcome.winner is Team.BLUE


# ----------------------------------------------------------------- time


def test_a_clue_timeout_passes_the_turn() -> None:
    state = small_game()
    state.forfeit()
    assert state.events[-1] == TimedOut(1, Team.RED, Role.SPYMASTER)
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_a_guess_timeout_ends_the_turn_even_before_the_first_guess() -> None:
    state = small_game()
    state.apply(Clue("fruit", 2))
    state.forfeit()
    assert state.events[-1] == TimedOut(1, Team.RED, Role.GUESSER)
    assert (state.phase, state.current_team) == (Phase.CLUE, Team.BLUE)


def test_a_cover_timeout_lets_the_engine_cover_the_first_candidate() -> None:
    state = small_game()
    state.apply(Clue("apple", 1))
    state.forfeit()
    assert state.events[-1] == Covered(1, Team.BLUE, Team.BLUE, DOG, "dog", CoverReason.TIMEOUT)


# ----------------------------------------------------------------- co-op


def test_coop_virtual_turn_is_a_cover_chosen_by_the_players_spymaster() -> None:
    state = small_game(variant=Variant.COOP)
    assert state.real_team is Team.RED
    play(state, Clue("fruit", 1), Guess(APPLE), Pass())
    assert state.phase is Phase.COVER and state.current_team is Team.RED
    view = state.spymaster_view(Team.RED)
    assert (view.cover_team, view.cover_candidates) == (Team.BLUE, (DOG, EEL))
    state.apply(Cover(DOG))
    assert state.events[-1].reason is CoverReason.VIRTUAL_TURN  # type: ignore[union-attr]
    assert (state.phase, state.current_team, state.turn) == (Phase.CLUE, Team.RED, 3)


def test_coop_win_scores_the_virtual_agents_left() -> None:
    state = small_game(variant=Variant.COOP)
    play(state, Clue("things", 3), Guess(APPLE), Guess(BEAR), Guess(CAT))
    outcome = state.outcome
    assert outcome is not None and outcome.winner is Team.RED
    assert outcome.coop_score == 2 and outcome.coop_rating == "Decent"


def test_coop_players_lose_when_the_virtual_agents_are_all_covered() -> None:
    state = small_game(variant=Variant.COOP)
    play(state, Clue("fruit", 1), Guess(APPLE), Pass(), Cover(DOG))
    play(state, Clue("forest", 1), Guess(BEAR), Pass(), Cover(EEL))
    outcome = state.outcome
    assert outcome is not None and outcome.winner is Team.BLUE
    assert outcome.coop_score is None


def test_coop_penalty_then_virtual_turn() -> None:
    state = small_game(variant=Variant.COOP)
    state.apply(Clue("cat", 1))  # invalid
    assert state.cover_task is not None and state.cover_task.reason is CoverReason.PENALTY
    state.apply(Cover(DOG))
    assert state.cover_task is not None and state.cover_task.reason is CoverReason.VIRTUAL_TURN
    state.apply(Cover(EEL))
    assert state.outcome is not None and state.outcome.winner is Team.BLUE


# ----------------------------------------------------------------- views


def test_guesser_view_has_no_key_at_all() -> None:
    state = small_game()
    state.apply(Clue("fruit", 2))
    view = state.guesser_view(Team.RED)
    assert not hasattr(view, "key")
    assert "key" not in view.__dataclass_fields__
    assert view.revealed == (None,) * 9 and view.clue == Clue("fruit", 2)
    state.apply(Guess(FIG))
    spy = state.spymaster_view(Team.BLUE)
    assert spy.key == make_board("R R R B B N N N A").key
    assert spy.unrevealed_of(spy.key[DOG]) == (DOG, EEL)
