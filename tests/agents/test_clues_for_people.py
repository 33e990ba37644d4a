"""The spymaster that clues for people (``panel-spymaster-v4``) and the priced bonus touch of
``people-guesser-v2``, as units on tiny hand-built minds.

Axes of the toy vectors: 0 cutting, 1 fruit, 2 sticky, 3 water, 4 rock, 5 metal. The cards:
KNIFE, APPLE and STONE are red's; GLUE is the assassin, RIVER and SAND blue's. The
words are real, but the toy minds give them made-up meanings; people's answers (the shipped
EAT) are switched off (``direct`` 0) so only the toy minds speak.
"""

from __future__ import annotations

import numpy as np
import pytest

from codenames_ai.agents.panel import (
    ListenerConfig,
    Mind,
    Panel,
    PeopleGuesser,
    PeopleSpymaster,
    PricedBonusGuesser,
    ReadingWeights,
)
from codenames_ai.agents.space import Calibration
from codenames_ai.core import Board, Clue, GameState, Guess, Identity, Layout, Pass, Team, custom
from codenames_ai.vectors import WordVectors

from .test_people_guesser import PANEL as GUESSER_PANEL
from .test_people_guesser import game as guesser_game
from .test_people_guesser import touches

CARDS = ("knife", "apple", "stone", "glue", "river", "sand")
KEY = (Identity.RED, Identity.RED, Identity.RED, Identity.ASSASSIN, Identity.BLUE,
       Identity.BLUE)
COMMON = {
    "knife": (1, 0, 0.1, 0, 0, 0.5), "apple": (0, 1, 0, 0, 0, 0), "stone": (0, 0, 0, 0, 1, 0),
    "glue": (0, 0, 1, 0, 0, 0), "river": (0, 0, 0, 1, 0, 0), "sand": (0, 0, 0, 0.6, 0.8, 0),
    "water": (0, 0, 0, 1, 0, 0), "cut": (1, 0, 0, 0, 0, 0), "slash": (0.98, 0, 0, 0, 0, 0.2),
    "steel": (0.3, 0, 0, 0, 0, 1), "blade": (1, 0, 0, 0, 0, 0),
}
RULES = custom(Layout(rows=2, cols=3, first_team_agents=3, second_team_agents=2,
                      double_agent=False, bystanders=0, assassins=1), clue_rules="basic")
CALIBRATION = Calibration(0.0, 0.25, (0.0, 0.17, 0.32, 0.41, 0.58))
# Only the toy minds, alike, in both directions.
TOY_READING = ReadingWeights(minds=(), direct=0.0)
# The toy's fits are a few units wide: a margin of 1 where real boards need 3.
TOY_LISTENER = ListenerConfig(people_margin=1.0)


def mind(name: str, extra: dict[str, tuple[float, ...]]) -> Mind:
    table = {**COMMON, **extra}
    words = list(table)
    return Mind(name, WordVectors(name, words, np.array([table[w] for w in words],
                                                        dtype=np.float32)), CALIBRATION)


def spymaster(minds: list[Mind], candidates: tuple[str, ...], **listener: object
              ) -> PeopleSpymaster:
    config = ListenerConfig(**{**TOY_LISTENER.__dict__, **listener})  # type: ignore[arg-type]
    agent = PeopleSpymaster(panel=Panel(minds, candidates), listener=config,
                            reading=TOY_READING, min_zipf=None)
    agent.start_game(1)
    return agent


def state() -> GameState:
    return GameState(RULES, Board(CARDS, KEY, Team.RED))


def test_a_second_target_linked_by_one_mind_alone_is_not_aimed_at() -> None:
    # SLICE is KNIFE's in every mind; only mind "a" also sees APPLE in it (diesel -> TOY).
    slice_a = {"slice": (0.7, 0.7, 0, 0, 0, 0)}
    slice_bc = {"slice": (1, 0, 0, 0, 0, 0)}
    minds = [mind("a", slice_a), mind("b", slice_bc), mind("c", slice_bc)]
    view = state().spymaster_view(Team.RED)
    loose = spymaster(minds, ("slice", "water"), link_minds=1)
    assert loose.give_clue(view) == Clue("slice", 2)
    explanation = loose.last_explanation
    assert explanation is not None
    assert {t.word for t in explanation.targets} == {"knife", "apple"}
    assert spymaster(minds, ("slice", "water")).give_clue(view) == Clue("slice", 1)


def test_a_danger_one_mind_sees_refuses_the_clue() -> None:
    # BLADE and CUT are the same word to minds "a" and "b"; mind "c" sees GLUE, the assassin,
    # in a blade. Without "c" BLADE is as good as CUT; with it, BLADE is never given.
    sticky = {"blade": (0.55, 0, 0.85, 0, 0, 0)}
    without_c = spymaster([mind("a", {}), mind("b", {})], ("blade", "cut"))
    clue = without_c.give_clue(state().spymaster_view(Team.RED))
    explanation = without_c.last_explanation
    assert explanation is not None
    offered = {clue.word, *(a.clue.word for a in explanation.alternatives)}
    assert "blade" in offered
    with_c = spymaster([mind("a", {}), mind("b", {}), mind("c", sticky)], ("blade", "cut"))
    clue = with_c.give_clue(state().spymaster_view(Team.RED))
    explanation = with_c.last_explanation
    assert explanation is not None
    assert clue.word == "cut"
    assert "blade" not in {a.clue.word for a in explanation.alternatives}


def test_after_a_clue_fails_the_next_for_its_card_is_another_kind_of_link() -> None:
    # CUT 1 for KNIFE fails (the guesser touches SAND, blue's). SLASH is CUT's near twin: a second
    # vague neighbour. STEEL links KNIFE another way (metal): it is the next clue.
    minds = [mind("a", {}), mind("b", {})]
    agent = spymaster(minds, ("cut", "slash", "steel"))
    game = state()
    first = agent.give_clue(game.spymaster_view(Team.RED))
    assert first == Clue("cut", 1)
    game.apply(first)
    game.apply(Guess(CARDS.index("sand")))
    game.forfeit()  # blue gives no clue
    view = game.spymaster_view(Team.RED)
    assert agent.give_clue(view).word == "steel"
    explanation = agent.last_explanation
    assert explanation is not None and "nor a word close to it" in explanation.notes
    # with neighbours allowed, SLASH (closer to KNIFE than STEEL) would come next
    allowing = spymaster(minds, ("cut", "slash", "steel"), neighbour_z=99.0)
    allowing.give_clue(game.spymaster_view(Team.RED))
    assert allowing.give_clue(view).word == "slash"


def test_the_explanation_names_people_s_reading_and_the_minds() -> None:
    agent = spymaster([mind("a", {}), mind("b", {})], ("cut", "water"))
    agent.give_clue(state().spymaster_view(Team.RED))
    explanation = agent.last_explanation
    assert explanation is not None
    assert explanation.targets[0].word == "knife"
    assert 0 < explanation.targets[0].similarity < 1  # the chance people find it
    assert explanation.reasons[0] == "linked to 'cut' by a and b"
    assert explanation.reasons[-1].startswith("people find it first about ")


def _bonus_game(key: str) -> GameState:
    """QCLUE 2 found QONE; red's next clue is QFAR 1, with QTWO still QCLUE's."""
    cards = ("qone", "qtwo", "qfarther", "qa", "qnone", "car", "airport", "qhub")
    game = guesser_game(cards, key)
    game.apply(Clue("qclue", 2))
    game.apply(Guess(0))
    game.apply(Pass())
    game.forfeit()  # blue skips its clue
    game.apply(Clue("qfar", 1))
    return game


@pytest.mark.parametrize("assassin", [True, False])
def test_the_bonus_touch_is_priced_against_the_assassin(assassin: bool) -> None:
    key = "RRRRBNBA" if assassin else "RRRRBNBN"
    v1 = PeopleGuesser(panel=GUESSER_PANEL, weights=(), leftover_z=1.0)
    v1.start_game(1)
    assert touches(v1, _bonus_game(key)) == ["qfarther", "qtwo"]  # v1: over its bar
    v2 = PricedBonusGuesser(panel=GUESSER_PANEL, weights=(), bonus_worth=0.25)
    v2.start_game(1)
    made = touches(v2, _bonus_game(key))
    assert made[0] == "qfarther"
    qfarther = v2.touch_explanations[0]
    view = _bonus_game(key)
    view.apply(Guess(2))
    after = view.guesser_view(Team.RED)
    leftover = v2.leftover(after)
    assert leftover is not None and leftover.index == 1  # QTWO, for QCLUE
    chance = v2.find_chance(leftover.fit)
    if assassin:  # the assassin among four cards not ours: the +1 is not worth it
        assert made == ["qfarther", "pass"]
        assert leftover.fit < v2.leftover_bar(after)
    else:
        assert made == ["qfarther", "qtwo"]
        qtwo = v2.touch_explanations[1]
        assert qtwo.bonus and qtwo.chance == pytest.approx(chance)
        assert qtwo.bar == pytest.approx(v2.leftover_bar(after))
        assert qtwo.plain().startswith(f"a bonus touch for the earlier clue 'qclue 2' (1 card "
                                       f"unfound): {chance:.0%} sure")
    assert not qfarther.bonus


def test_the_spymaster_s_fit_of_a_candidate_is_the_guesser_s() -> None:
    # One model both ways: the board's fit of every candidate (the spymaster's) is, for each
    # candidate, the fit the guesser computes for that clue, people's answers included.
    from codenames_ai.agents.panel import PeopleReading
    from codenames_ai.pictures import NO_PICTURES
    from codenames_ai.vectors.model import DEFAULT_PICTURE_MEANING

    panel = Panel([mind("a", {}), mind("b", {"blade": (0.55, 0, 0.85, 0, 0, 0)})],
                  ("cut", "blade", "water", "steel"))
    reading = PeopleReading(panel, ReadingWeights(minds=(("a", 2.0),)))
    board = reading.board_fit(CARDS, DEFAULT_PICTURE_MEANING, NO_PICTURES)
    ordered = reading.ordered_rows(CARDS, DEFAULT_PICTURE_MEANING, NO_PICTURES)
    for column, word in enumerate(panel.words):
        z = panel.clue_z(word, list(CARDS))
        rank = reading.backward_rank(z, range(len(CARDS)))
        for m, j in zip(*np.nonzero(~np.isnan(z)), strict=True):  # one search of each row
            left = np.searchsorted(ordered[m, j], np.float16(z[m, j]))
            assert rank[m, j] == (ordered.shape[-1] - left) / ordered.shape[-1]
        guesser = reading.clue_fit(word, list(CARDS), z, rank)
        assert guesser == pytest.approx(board[:, column], abs=1e-5), word
    assert reading.candidate_links(("knife",))[0].shape == (1, len(panel.words))


def test_a_card_aimed_at_without_being_found_is_aimed_at_again_only_clearly() -> None:
    # On a 2x4 board with a bystander (PAPER), CUT 1 (or SLASH 1) for KNIFE fails on PAPER.
    # The other of the two (neighbours are not refused here) aims at KNIFE again; once a
    # card is "tired" (aimed at once, with a bar no clue reaches), the next clue aims at
    # another card: STONE, by ROCK.
    cards = (*CARDS, "tree", "paper")
    key = (*KEY, Identity.BLUE, Identity.BYSTANDER)
    rules = custom(Layout(rows=2, cols=4, first_team_agents=3, second_team_agents=3,
                          double_agent=False, bystanders=1, assassins=1), clue_rules="basic")
    extra = {"rock": (0, 0, 0, 0, 1, 0), "tree": (0, 0.3, 0, 0.95, 0, 0),
             "paper": (0, 0, 0.3, 0, 0, 0.95)}
    minds = [mind("a", extra), mind("b", extra)]

    def two_clues(**listener: object) -> tuple[Clue, Clue]:
        agent = spymaster(minds, ("cut", "slash", "rock"), neighbour_z=99.0, **listener)
        game = GameState(rules, Board(cards, key, Team.RED))
        first = agent.give_clue(game.spymaster_view(Team.RED))
        game.apply(first)
        game.apply(Guess(cards.index("paper")))
        game.forfeit()
        return first, agent.give_clue(game.spymaster_view(Team.RED))

    first, second = two_clues()
    assert {first.word, second.word} == {"cut", "slash"}  # KNIFE, then KNIFE again
    assert two_clues(tired_after=1, tired_bar=0.99)[1].word == "rock"
    assert two_clues(tired_after=1, tired_bar=0.0)[1] == second


def test_the_clarity_bar_comes_down_to_the_clearest_clue_left() -> None:
    # With a bar no clue reaches, the spymaster still clues: the bar comes down step by step.
    agent = spymaster([mind("a", {}), mind("b", {})], ("cut", "water"), clear_bar=0.99)
    assert agent.give_clue(state().spymaster_view(Team.RED)).word == "cut"


def test_the_board_s_people_fit_is_prepared_before_the_game() -> None:
    # prepare_board does the work a first clue would (so a timed move is the agent's own):
    # each card's fit row is kept with the panel's rows; an empty board prepares nothing.
    agent = spymaster([mind("a", {}), mind("b", {})], ("cut", "water"))
    agent.prepare_board("basic", ())
    assert len(agent.panel.derived_rows) == 0
    agent.prepare_board("basic", CARDS)
    keys = [("people-fit", agent.reading.weights, card, (), agent.picture_meaning)
            for card in CARDS]
    assert all(agent.panel.derived_rows.get(key) is not None for key in keys)
