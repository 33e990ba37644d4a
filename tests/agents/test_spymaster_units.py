"""The embedding spymasters as units, on the tiny hand-built space of ``tiny_space``: what
clue and number each gives on boards where the right answer can be read off the table of
cosines, what its explanation says, which card it covers, and that it never names a card.

Each EV assertion holds on several seeds: the EV spymaster simulates a noisy guesser, so one
seed could pass by luck."""

from __future__ import annotations

import pytest

from codenames_ai.agents.space import Calibration, ClueSpace
from codenames_ai.agents.spymasters import (
    EVConfig,
    EVSpymaster,
    GapSpymaster,
    ThresholdSpymaster,
)
from codenames_ai.core import Clue, Cover, GameState, Guess, Phase, Team, Variant
from codenames_ai.vectors import WordVectors

from .tiny_space import CARDS, game, load_tiny, make_space

SEEDS = range(6)
# The EV boards' clue words, and every card word (a face-up card's own word is the perfect
# clue for it, and illegal).
EV_WORDS = ("cut", "chef", "music", "saddle", "fruit", "water", "paste") + CARDS
# Red (to play) has KNIFE, SCISSORS, APPLE, PIANO; CUT points at KNIFE (0.60) and SCISSORS
# (0.56) and at no other card above 0.12 (GLUE, the assassin).
BOARD_A = ("knife:R scissors:R apple:R piano:R pear:B horse:B drum:B river:N bread:N "
           "radio:N moon:N glue:A")
# The same, but the assassin is SWORD, which CUT points at too (0.50).
BOARD_B = BOARD_A.replace("glue:A", "sword:A")
# MUSIC: PIANO 0.60 and DRUM 0.45 (red), RADIO 0.42 (blue): a second target with little margin.
# SADDLE: HORSE 0.50, nothing else; FRUIT: APPLE 0.50, PEAR 0.45 (blue).
BOARD_C = ("piano:R drum:R apple:R horse:R radio:B pear:B moon:B river:N bread:N glue:N "
           "lemon:N sword:A")


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> WordVectors:
    return load_tiny(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(scope="module")
def ev_space(model: WordVectors) -> ClueSpace:
    return make_space(model, EV_WORDS)


def give(agent: EVSpymaster | ThresholdSpymaster | GapSpymaster, state: GameState,
         seed: int = 0) -> Clue:
    """The agent's clue for red; always legal on this board."""
    agent.start_game(seed)
    clue = agent.give_clue(state.spymaster_view(Team.RED))
    assert state.check_clue(clue) is None, clue
    assert clue.word not in state.spymaster_view(Team.RED).visible_words
    return clue


def ev_clues(space: ClueSpace, layout: str, **options: object) -> list[tuple[str, int]]:
    clues = []
    for seed in SEEDS:
        clue = give(EVSpymaster(space=space, **options), game(layout), seed)  # type: ignore[arg-type]
        assert isinstance(clue.number, int)
        clues.append((clue.word, clue.number))
    return clues


# -- the expected-value spymaster ------------------------------------------------------------


def test_ev_gives_the_word_close_to_two_own_cards_and_far_from_the_rest_for_two(
        ev_space: ClueSpace) -> None:
    assert set(ev_clues(ev_space, BOARD_A)) == {("cut", 2)}


def test_ev_avoids_the_pair_clue_when_it_also_points_at_the_assassin(
        ev_space: ClueSpace) -> None:
    # Only the assassin changed from board A: CUT is still the only word for the pair.
    clues = ev_clues(ev_space, BOARD_B)
    assert all(word != "cut" for word, _ in clues), clues
    assert set(clues) == {("chef", 1)}  # KNIFE alone, with nothing dangerous near it
    agent = EVSpymaster(space=ev_space)
    give(agent, game(BOARD_B))
    explanation = agent.last_explanation
    assert explanation is not None
    rejected = {a.clue.word: a for a in explanation.alternatives}
    # Considered, at 1 card (never 2), and worth less than a sure card (about 2 on board A).
    assert rejected["cut"].clue.number == 1 and rejected["cut"].score < explanation.score


def test_its_explanation_names_the_targets_and_the_feared_card(ev_space: ClueSpace) -> None:
    agent = EVSpymaster(space=ev_space)
    give(agent, game(BOARD_A))
    explanation = agent.last_explanation
    assert explanation is not None and agent.explanations == [explanation]
    assert [t.word for t in explanation.targets] == ["knife", "scissors"]
    assert [round(t.similarity, 2) for t in explanation.targets] == [0.60, 0.56]
    assert explanation.danger is not None and explanation.danger.word == "glue"
    assert explanation.danger.similarity == pytest.approx(0.12, abs=1e-3)
    assert explanation.margin == pytest.approx(0.56 - 0.12, abs=1e-3)
    assert 1.5 < explanation.score <= 2.0  # expected own cards this turn, at most 2
    text = explanation.describe()
    assert "KNIFE" in text and "SCISSORS" in text and "Most feared: GLUE" in text
    assert len(explanation.alternatives) == 3
    assert all(a.score <= explanation.score for a in explanation.alternatives)


def test_bold_gives_the_risky_second_card_and_cautious_does_not(ev_space: ClueSpace) -> None:
    assert set(ev_clues(ev_space, BOARD_C, risk="bold")) == {("music", 2)}
    cautious = ev_clues(ev_space, BOARD_C, risk="cautious")
    assert {number for _, number in cautious} == {1}, cautious


def test_a_larger_risk_factor_never_raises_the_number(ev_space: ClueSpace) -> None:
    # Same seed, same simulated guessers: only the costs differ.
    bold = ev_clues(ev_space, BOARD_C, config=EVConfig(risk=0.25))
    careful = ev_clues(ev_space, BOARD_C, config=EVConfig(risk=4.0))
    assert all(b[1] >= c[1] for b, c in zip(bold, careful, strict=True)), (bold, careful)
    assert {number for _, number in bold} == {2}
    assert sum(c[1] == 1 for c in careful) >= len(SEEDS) - 1, careful


def test_the_simulated_guessers_stop_is_in_calibration_units(model: WordVectors) -> None:
    # In a model whose 95th percentile of unrelated cosines is 0.90, a guesser would stop after
    # its first card: KNIFE (.60) and SCISSORS (.56) are far below it, so a second card is
    # never reached and CUT is worth 1. A guesser that always tries the full number
    # (stop_quantile None) makes it CUT 2 again.
    wide = Calibration(0.0, 0.2, (0.0, 0.5, 0.8, 0.9, 0.95))
    space = make_space(model, EV_WORDS, wide)
    assert set(ev_clues(space, BOARD_A)) == {("cut", 1)}
    assert set(ev_clues(space, BOARD_A, config=EVConfig(stop_quantile=None))) == {("cut", 2)}


def test_the_opponents_last_card_is_feared_like_the_assassin(ev_space: ClueSpace) -> None:
    # RADIO is a blue card in both boards; with blue's other agents made bystanders, it is
    # blue's last one, and touching it would lose the game.
    assert set(ev_clues(ev_space, BOARD_C)) == {("music", 2)}
    last = BOARD_C.replace("pear:B", "pear:N").replace("moon:B", "moon:N")
    assert {number for _, number in ev_clues(ev_space, last)} == {1}


def test_ev_never_names_a_face_up_card_even_when_it_is_the_perfect_clue(
        model: WordVectors) -> None:
    # Only card words: each face-up card's own word is illegal; KNIVES (KNIFE 0.70, SCISSORS
    # 0.70) is legal under the basic rules, and a form of KNIFE under the classic ones.
    space = make_space(model, ("knives",) + CARDS)
    basic = give(EVSpymaster(space=space), game(BOARD_A))
    assert (basic.word, basic.number) == ("knives", 2)
    classic = give(EVSpymaster(space=space), game(BOARD_A, clue_rules="classic"))
    assert classic.word != "knives"
    assert classic.word not in [item.split(":")[0] for item in BOARD_A.split()]


def test_a_revealed_card_word_becomes_a_legal_clue(model: WordVectors) -> None:
    # GHOST is close to MOON (0.70): a clue only once the GHOST card is no longer face up.
    layout = "moon:R knife:R ghost:N horse:B drum:B glue:A"
    space = make_space(model, ("ghost", "dull"))
    state = game(layout)
    assert give(EVSpymaster(space=space), state).word == "dull"
    state.apply(Clue("dull", 1))
    state.apply(Guess(2))  # GHOST, a bystander: red's turn ends
    state.forfeit()  # blue passes
    assert state.is_revealed(2) and state.phase is Phase.CLUE
    assert give(EVSpymaster(space=space), state) == Clue("ghost", 1)


# -- covers --------------------------------------------------------------------------------------


def test_a_penalty_cover_takes_the_own_agent_most_like_a_dangerous_card(
        ev_space: ClueSpace) -> None:
    # Blue's agents: HORSE, DRUM, MOON; MOON looks like GHOST (0.70), a bystander.
    state = game("knife:R scissors:R apple:R horse:B drum:B moon:B ghost:N glue:A")
    state.apply(Clue("knife", 1))  # red names a face-up card: blue covers one of its agents
    assert state.phase is Phase.COVER and state.current_team is Team.BLUE
    view = state.spymaster_view(Team.BLUE)
    assert set(view.cover_candidates) == {3, 4, 5}
    assert EVSpymaster(space=ev_space).choose_cover(view) == Cover(5)
    # Without GHOST on the board nothing looks like anything: the lowest index.
    plain = game("knife:R scissors:R apple:R horse:B drum:B moon:B river:N glue:A")
    plain.apply(Clue("knife", 1))
    assert EVSpymaster(space=ev_space).choose_cover(plain.spymaster_view(Team.BLUE)) == Cover(3)


def test_a_coop_cover_takes_the_virtual_agent_most_like_our_own(ev_space: ClueSpace) -> None:
    # Red plays with the virtual blue team; after red's turn red's spymaster covers a blue
    # agent: MOON, which looks like GHOST, one of red's own.
    state = game("ghost:R knife:R apple:R horse:B drum:B moon:B river:N glue:A",
                 variant=Variant.COOP)
    state.apply(Clue("chef", 1))
    state.apply(Guess(6))  # RIVER, a bystander
    assert state.phase is Phase.COVER and state.current_team is Team.RED
    view = state.spymaster_view(Team.RED)
    assert set(view.cover_candidates) == {3, 4, 5}
    assert EVSpymaster(space=ev_space).choose_cover(view) == Cover(5)


# -- the threshold baseline (AIIDE 2019) ---------------------------------------------------------

RULE_WORDS = ("trio", "pair", "nearly", "risky", "faint", "dull")
# TRIO: APPLE .55, HORSE .55, TIGER .52 (distances .45 .45 .48); PAIR: PIANO .70, DRUM .68
# (distances .30 .32); NEARLY: like TRIO but TIGER .48 (distance .52); RIVER .10 for all three.
BOARD_T = ("apple:R horse:R tiger:R piano:R drum:R river:N bread:B lemon:B pear:N glue:A")


def threshold_clue(model: WordVectors, layout: str, words: tuple[str, ...] = RULE_WORDS,
                   threshold: float = 0.5) -> tuple[str, int]:
    agent = ThresholdSpymaster(space=make_space(model, words + CARDS), threshold=threshold)
    clue = give(agent, game(layout))
    assert isinstance(clue.number, int)
    return clue.word, clue.number


def test_threshold_prefers_the_largest_group_under_the_threshold(model: WordVectors) -> None:
    # TRIO's group of 3 (worst distance .48) beats PAIR's tighter group of 2 (.32).
    assert threshold_clue(model, BOARD_T) == ("trio", 3)


def test_threshold_a_group_member_past_the_threshold_does_not_count(model: WordVectors) -> None:
    # Without TRIO, NEARLY's third card is at distance .52 >= .5: groups of 2 compete, and
    # PAIR's worst distance .32 beats NEARLY's .45. A looser threshold admits NEARLY's 3.
    words = tuple(w for w in RULE_WORDS if w != "trio")
    assert threshold_clue(model, BOARD_T, words) == ("pair", 2)
    assert threshold_clue(model, BOARD_T, words, threshold=0.55) == ("nearly", 3)


def test_threshold_ties_in_size_go_to_the_smaller_worst_distance(model: WordVectors) -> None:
    # TIGER a bystander: TRIO's pair (worst .45, TIGER at .48) and PAIR's (.32) are both 2.
    board = BOARD_T.replace("tiger:R", "tiger:N").replace("pear:N", "pear:R")
    assert threshold_clue(model, board) == ("pair", 2)


def test_threshold_a_group_must_be_nearer_than_every_other_card(model: WordVectors) -> None:
    # RISKY: LEMON .60 and PEAR .55 (red), RADIO .57 (blue): the pair's worst distance .45 is
    # farther than RADIO's .43, so only LEMON (.40) qualifies.
    board = "lemon:R pear:R knife:R radio:B horse:B river:N glue:A"
    assert threshold_clue(model, board, ("risky", "dull")) == ("risky", 1)


def test_threshold_with_no_qualifying_group_gives_the_safest_single_card(
        model: WordVectors) -> None:
    # FAINT: LEMON .30 (distance .70), TIGER .10 (blue; .90): margin -.20. DULL: BREAD .05
    # (.95) with every other card at 1.0: margin -.05. The smaller margin wins.
    board = "lemon:R bread:R knife:R tiger:B horse:B river:N glue:A"
    agent = ThresholdSpymaster(space=make_space(model, ("faint", "dull")))
    clue = give(agent, game(board))
    assert (clue.word, clue.number) == ("faint", 1)
    assert agent.last_explanation is not None
    assert "no group qualifies" in agent.last_explanation.notes


# -- the gap baseline ------------------------------------------------------------------------


def gap_clue(model: WordVectors, layout: str, exponent: float = 0.6
             ) -> tuple[str, int, float]:
    agent = GapSpymaster(space=make_space(model, RULE_WORDS + CARDS), exponent=exponent)
    clue = give(agent, game(layout))
    assert isinstance(clue.number, int) and agent.last_explanation is not None
    return clue.word, clue.number, agent.last_explanation.score


def test_gap_scores_the_nth_target_minus_the_best_non_target_times_n_to_the_06(
        model: WordVectors) -> None:
    # PAIR 2: (.68 - .10) x 2^0.6 = .879 beats TRIO 3: (.52 - .10) x 3^0.6 = .812, PAIR 1
    # (.60) and TRIO 2 (.45 x 2^0.6 = .682): unlike the threshold rule, which takes TRIO 3.
    word, number, score = gap_clue(model, BOARD_T)
    assert (word, number) == ("pair", 2)
    assert score == pytest.approx((0.68 - 0.10) * 2 ** 0.6, abs=1e-4)


def test_gap_a_larger_exponent_rewards_larger_groups(model: WordVectors) -> None:
    # With n^1: TRIO 3 scores .42 x 3 = 1.26, PAIR 2 .58 x 2 = 1.16.
    word, number, score = gap_clue(model, BOARD_T, exponent=1.0)
    assert (word, number) == ("trio", 3)
    assert score == pytest.approx(0.42 * 3, abs=1e-4)


def test_gap_the_best_non_target_may_be_any_other_card(model: WordVectors) -> None:
    # RISKY with RADIO (blue) at .57: 1 card scores .60 - .57 = .03; DULL (no card) 0.
    board = "lemon:R pear:R knife:R radio:B horse:B river:N glue:A"
    agent = GapSpymaster(space=make_space(model, ("risky", "dull")))
    clue = give(agent, game(board))
    assert (clue.word, clue.number) == ("risky", 1)
    assert agent.last_explanation is not None
    assert agent.last_explanation.score == pytest.approx(0.03, abs=1e-4)
    assert agent.last_explanation.danger is not None
    assert agent.last_explanation.danger.word == "radio"
