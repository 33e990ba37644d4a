"""The embedding guessers as units, on the tiny hand-built space of ``tiny_space``: the order
of their touches, their stop rules, and the memory of earlier clues' unfound targets.

With the tiny calibration, ``EmbeddingGuesser`` stops below 0.30 (its ``stop_quantile`` 0.90)
and spends an extra guess on a leftover at 0.40 or more (``leftover_quantile`` 0.95)."""

from __future__ import annotations

import pytest

from codenames_ai.agents.explain import TouchKind
from codenames_ai.agents.guessers import EmbeddingGuesser, NearestGuesser, open_clues
from codenames_ai.agents.space import ClueSpace
from codenames_ai.core import (
    UNLIMITED,
    Action,
    Clue,
    GameState,
    Guess,
    GuesserAction,
    Pass,
    Phase,
    Team,
)

from .tiny_space import game, load_tiny, make_space

# CUT: KNIFE .60, SCISSORS .56, SWORD .50 (the assassin), GLUE .12. CHEF: KNIFE .55, BREAD .20.
# MUSIC: PIANO .60, DRUM .45, RADIO .42. FRUIT: APPLE .50, PEAR .45.
BOARD = ("scissors:R knife:R piano:R drum:R apple:R radio:R horse:B pear:B moon:B river:N "
         "bread:N sword:A")
INDEX = {item.split(":")[0]: i for i, item in enumerate(BOARD.split())}


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> ClueSpace:
    return make_space(load_tiny(tmp_path_factory.mktemp("tiny")))


@pytest.fixture
def guesser(space: ClueSpace) -> EmbeddingGuesser:
    agent = EmbeddingGuesser(space=space)
    agent.start_game(1)
    return agent


def play(state: GameState, *moves: Action | str) -> GameState:
    """Apply moves; a card's word stands for a guess of it, "pass" for a pass (or, in the
    clue phase, for the team skipping its clue)."""
    for move in moves:
        if move == "pass":
            state.apply(Pass()) if state.phase is Phase.GUESS else state.forfeit()
        elif isinstance(move, str):
            state.apply(Guess(INDEX[move]))
        else:
            state.apply(move)
    return state


def touches(agent: EmbeddingGuesser | NearestGuesser, state: GameState,
            most: int = 10) -> list[str]:
    """Let ``agent`` guess for red until it passes or the turn ends; the words it touched,
    then "pass" if it passed."""
    words = state.board.words
    made: list[str] = []
    for _ in range(most):
        if state.phase is not Phase.GUESS or state.current_team is not Team.RED:
            break
        action: GuesserAction = agent.guess(state.guesser_view(Team.RED))
        state.apply(action)
        made.append(words[action.index] if isinstance(action, Guess) else "pass")
    return made


def test_the_thresholds_come_from_the_calibration(guesser: EmbeddingGuesser,
                                                  space: ClueSpace) -> None:
    assert guesser.threshold == pytest.approx(0.30)
    assert guesser.leftover_threshold == pytest.approx(0.40)
    stricter = EmbeddingGuesser(space=space, stop_quantile=0.97, leftover_quantile=0.75)
    assert (stricter.threshold, stricter.leftover_threshold) == pytest.approx((0.50, 0.15))


# -- touches and stops -----------------------------------------------------------------------


def test_touches_cards_best_first_and_stops_after_the_number(guesser: EmbeddingGuesser) -> None:
    # KNIFE (.60) before SCISSORS (.56), whatever their places on the board; no leftover, so
    # the extra guess the classic rule allows is not spent.
    state = play(game(BOARD), Clue("cut", 2))
    assert touches(guesser, state) == ["knife", "scissors", "pass"]


def test_a_clue_in_full_width_letters_reads_as_its_letters(space: ClueSpace) -> None:
    # The third hostile review: the clue rules accept ＣＵＴ as a word, and the embedding
    # guessers read it as an unknown word (one random touch, then a pass).
    for agent in (EmbeddingGuesser(space=space), NearestGuesser(space=space)):
        plain = touches(agent, play(game(BOARD), Clue("cut", 2)))
        assert touches(agent, play(game(BOARD), Clue("ＣＵＴ", 2))) == plain
        assert touches(agent, play(game(BOARD), Clue("ｃｕｔ", 2))) == plain


def test_stops_when_the_next_card_is_below_its_threshold(guesser: EmbeddingGuesser) -> None:
    # CHEF 2: KNIFE .55, then BREAD .20 < .30: it stops with one guess of the two left.
    state = play(game(BOARD), Clue("chef", 2))
    assert touches(guesser, state) == ["knife", "pass"]


def test_a_higher_stop_quantile_stops_sooner(space: ClueSpace) -> None:
    # MUSIC 3: PIANO .60, DRUM .45, RADIO .42 (all red). At 0.30 it takes all three; at 0.50
    # (the 97th percentile) only PIANO.
    assert touches(EmbeddingGuesser(space=space), play(game(BOARD), Clue("music", 3))) == [
        "piano", "drum", "radio", "pass"]
    strict = EmbeddingGuesser(space=space, stop_quantile=0.97)
    assert touches(strict, play(game(BOARD), Clue("music", 3))) == ["piano", "pass"]


def test_the_first_guess_is_made_even_below_the_threshold(guesser: EmbeddingGuesser) -> None:
    # DULL: BREAD .05, every other card 0: a team must guess once.
    state = play(game(BOARD), Clue("dull", 1))
    assert touches(guesser, state) == ["bread"]  # a bystander: the turn ends


def test_an_unlimited_clue_goes_on_while_cards_clear_the_threshold(
        guesser: EmbeddingGuesser) -> None:
    state = play(game(BOARD), Clue("music", UNLIMITED))
    assert touches(guesser, state) == ["piano", "drum", "radio", "pass"]


def test_a_zero_clue_with_nothing_left_over_touches_the_card_least_like_it(
        guesser: EmbeddingGuesser) -> None:
    # CUT 0: none of our cards is like CUT. With no leftover to spend it on, the one guess
    # goes to the card least like CUT (not KNIFE, SCISSORS or SWORD: the others are at 0).
    state = play(game(BOARD), Clue("cut", 0))
    view = state.guesser_view(Team.RED)
    action = guesser.guess(view)
    assert isinstance(action, Guess)
    assert state.board.words[action.index] not in ("knife", "scissors", "sword")
    assert action.index == guesser.ranked(view)[-1][0]


# -- memory of earlier clues ---------------------------------------------------------------


def test_the_extra_guess_goes_to_an_earlier_clues_unfound_target(
        guesser: EmbeddingGuesser) -> None:
    # Turn 1: CUT 2, red finds KNIFE and passes: one CUT target is unfound. Turn 3: MUSIC 1,
    # PIANO; the extra guess goes to SCISSORS (.56 for CUT, above .40), not to DRUM.
    state = play(game(BOARD), Clue("cut", 2), "knife", "pass", "pass", Clue("music", 1))
    assert open_clues(state.guesser_view(Team.RED)) == [("cut", 1)]
    assert touches(guesser, state) == ["piano", "scissors"]  # the limit (1 + 1) ends the turn


def test_only_own_cards_found_count_as_targets_found(guesser: EmbeddingGuesser) -> None:
    # Turn 1: CUT 2, red touches KNIFE (red) then HORSE (blue): one target still unfound.
    state = play(game(BOARD), Clue("cut", 2), "knife", "horse", "pass", Clue("music", 1))
    assert open_clues(state.guesser_view(Team.RED)) == [("cut", 1)]
    assert touches(guesser, state) == ["piano", "scissors"]


def test_a_clue_whose_targets_were_all_found_is_closed(guesser: EmbeddingGuesser) -> None:
    state = play(game(BOARD), Clue("cut", 1), "knife", "pass", "pass", Clue("music", 1))
    assert open_clues(state.guesser_view(Team.RED)) == [("cut", 0)]
    assert touches(guesser, state) == ["piano", "pass"]


def test_the_other_teams_clues_are_not_remembered(guesser: EmbeddingGuesser) -> None:
    # Blue's CUT 2 (blue touches HORSE, its own, and passes) is no leftover of red's.
    state = play(game(BOARD), "pass", Clue("cut", 2), "horse", "pass", Clue("music", 1))
    assert state.current_team is Team.RED
    assert open_clues(state.guesser_view(Team.RED)) == []
    assert touches(guesser, state) == ["piano", "pass"]


def test_a_leftover_below_the_leftover_threshold_is_not_worth_the_extra_guess(
        space: ClueSpace) -> None:
    # CHEF 2 found KNIFE; its best card left, BREAD, is only .20 like CHEF.
    moves = (Clue("chef", 2), "knife", "pass", "pass", Clue("music", 1))
    assert touches(EmbeddingGuesser(space=space), play(game(BOARD), *moves)) == [
        "piano", "pass"]
    lenient = EmbeddingGuesser(space=space, leftover_quantile=0.5)  # threshold 0.0
    assert touches(lenient, play(game(BOARD), *moves)) == ["piano", "bread"]


def test_a_zero_clue_first_takes_a_leftover_whatever_its_similarity(
        guesser: EmbeddingGuesser) -> None:
    state = play(game(BOARD), Clue("chef", 2), "knife", "pass", "pass", Clue("music", 0))
    assert touches(guesser, state)[0] == "bread"  # CHEF's best card left, at .20


def test_a_leftover_found_on_a_later_turn_closes_its_clue(guesser: EmbeddingGuesser) -> None:
    # Turn 1: CUT 2, KNIFE found. Turn 3: MUSIC 1, PIANO, then SCISSORS as CUT's leftover:
    # both CUT targets are found. Turn 5: FRUIT 1, APPLE; the extra guess has nothing left over
    # to chase, but CUT's next best card is SWORD (.50, the assassin).
    state = play(game(BOARD), Clue("cut", 2), "knife", "pass", "pass", Clue("music", 1),
                 "piano", "scissors", "pass", Clue("fruit", 1))
    view = state.guesser_view(Team.RED)
    assert view.leftover == 0
    assert touches(guesser, state) == ["apple", "pass"]


# -- the nearest-card baseline -----------------------------------------------------------------


def test_nearest_never_stops_early(space: ClueSpace) -> None:
    # CHEF 2: KNIFE .55, then the next nearest though it is only .20 like CHEF; then it stops
    # at the number and never takes the extra guess.
    state = play(game(BOARD), Clue("chef", 2))
    assert touches(NearestGuesser(space=space), state) == ["knife", "bread"]  # a bystander
    state = play(game(BOARD), Clue("cut", 2))
    assert touches(NearestGuesser(space=space), state) == ["knife", "scissors", "pass"]


def test_nearest_goes_on_after_an_unlimited_or_zero_clue_until_a_miss(
        space: ClueSpace) -> None:
    state = play(game(BOARD), Clue("music", UNLIMITED))
    made = touches(NearestGuesser(space=space), state)
    assert made[:3] == ["piano", "drum", "radio"] and "pass" not in made
    assert state.board.key[INDEX[made[-1]]].team is not Team.RED or state.phase is Phase.OVER
    # CUT 0: the nearest cards, into the assassin.
    state = play(game(BOARD), Clue("cut", 0))
    assert touches(NearestGuesser(space=space), state) == ["knife", "scissors", "sword"]
    assert state.outcome is not None and state.outcome.winner is Team.BLUE


def test_nearest_with_a_clue_it_does_not_know(space: ClueSpace) -> None:
    # The touch the rules require goes to a face-up card drawn by the game's seed; then it
    # passes.
    state = play(game(BOARD), Clue("zyxxq", 2))
    picks = []
    for _ in range(2):
        guesser = NearestGuesser(space=space)
        guesser.start_game(5)
        action = guesser.guess(state.guesser_view(Team.RED))
        assert isinstance(action, Guess)
        assert action.index in state.guesser_view(Team.RED).unrevealed
        picks.append(action.index)
    assert picks[0] == picks[1]
    play(state, "knife")
    assert isinstance(NearestGuesser(space=space).guess(state.guesser_view(Team.RED)), Pass)


def test_an_unknown_clue_still_gets_its_one_guess_from_the_embedding_guesser(
        space: ClueSpace) -> None:
    picks = set()
    for seed in range(5):
        agent = EmbeddingGuesser(space=space)
        agent.start_game(seed)
        action = agent.guess(play(game(BOARD), Clue("zyxxq", 2)).guesser_view(Team.RED))
        assert isinstance(action, Guess) and 0 <= action.index < 12
        again = EmbeddingGuesser(space=space)
        again.start_game(seed)
        assert again.guess(play(game(BOARD), Clue("zyxxq", 2)).guesser_view(Team.RED)) == action
        picks.add(action.index)
    assert len(picks) > 1  # a random card, from the seed



# -- the reason for each touch ------------------------------------------------------------------


def test_each_touch_names_the_clue_it_served_and_a_bonus_touch_the_earlier_clue(
        guesser: EmbeddingGuesser) -> None:
    # The newcomer's case in small: CUT 2 found KNIFE; on MUSIC 1 the guesser touches PIANO,
    # then spends its bonus touch on SCISSORS for CUT, whose next closest card is SWORD (.50,
    # the assassin), over the bar for a bonus touch too.
    state = play(game(BOARD), Clue("cut", 2), "knife", "pass", "pass", Clue("music", 1))
    assert touches(guesser, state) == ["piano", "scissors"]
    piano, scissors = guesser.touch_explanations
    assert (piano.card, piano.served, piano.kind, piano.bonus) == (
        "piano", Clue("music", 1), TouchKind.CLUE, False)
    assert piano.plain() == ("for 'music 1', its closest card: sure; the next closest, DRUM, "
                             "was close too.")
    assert (scissors.card, scissors.served, scissors.clue, scissors.unfound) == (
        "scissors", Clue("cut", 2), Clue("music", 1), 1)
    assert scissors.bonus and guesser.last_touch_explanation == scissors
    # The reason comes from the numbers it decided with: .56 for CUT against its bar of .40.
    assert scissors.fit == pytest.approx(0.56, abs=1e-4)
    assert scissors.bar == pytest.approx(guesser.leftover_threshold)
    assert scissors.plain() == (
        "a bonus touch for the earlier clue 'cut 2' (1 card unfound): sure; the next closest "
        "to 'cut', SWORD, was close too.")
    assert scissors.describe() == (
        "SCISSORS for 'cut 2', a leftover (1 unfound) on the turn of 'music 1'; similarity "
        "0.56, bar 0.40; next closest SWORD 0.50.")


def test_a_touch_below_its_bars_says_the_first_touch_is_required(
        guesser: EmbeddingGuesser) -> None:
    # DULL: BREAD .05, every other card 0.
    state = play(game(BOARD), Clue("dull", 1))
    assert touches(guesser, state) == ["bread"]
    reason = guesser.touch_explanations[0]
    assert reason.sureness == "unsure" and reason.first
    assert reason.plain().startswith("for 'dull 1', its closest card: unsure, but a first "
                                     "touch is required; the next closest, ")
    assert reason.plain().endswith(", was not close.")


def test_a_fairly_sure_touch_after_the_first_names_its_bar(guesser: EmbeddingGuesser) -> None:
    # MUSIC 3: PIANO .60, DRUM .45, RADIO .42: RADIO clears the stop bar (.30) and the bonus
    # bar (.40); with the next card at 0 after it, the guesser then passes.
    state = play(game(BOARD), Clue("music", 3))
    assert touches(guesser, state) == ["piano", "drum", "radio", "pass"]
    radio = guesser.touch_explanations[-1]
    assert radio.bar == pytest.approx(guesser.threshold) and not radio.first
    assert radio.plain().startswith("for 'music 3', its closest card left: sure; the next "
                                    "closest, ")


def test_the_reasons_are_the_same_from_the_same_seed_and_forgotten_by_a_new_game(
        space: ClueSpace) -> None:
    reasons = []
    for _ in range(2):
        agent = EmbeddingGuesser(space=space)
        agent.start_game(3)
        touches(agent, play(game(BOARD), Clue("zyxxq", 2)))
        reasons.append([r.plain() for r in agent.touch_explanations])
        agent.start_game(4)
        assert agent.touch_explanations == []
    assert reasons[0] == reasons[1]
    assert reasons[0][0] == "for 'zyxxq 2': a card at random, with no reading of the word " \
        "to go by."


def test_the_nearest_guesser_explains_without_bars(space: ClueSpace) -> None:
    agent = NearestGuesser(space=space)
    touches(agent, play(game(BOARD), Clue("chef", 2)))
    assert [r.plain() for r in agent.touch_explanations] == [
        "for 'chef 2', its closest card; the next closest was BREAD.",
        "for 'chef 2', its closest card left; the next closest was SCISSORS."]
