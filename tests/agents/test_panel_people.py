"""The settings of panel-spymaster-v3 (``PEOPLE_CONFIG``) as units, on the tiny hand-built
minds of ``test_panel``: which mind is "the worst", the prior over minds, a clue for N cards
that must be read right, the price of words people seldom say or say in another form, and
the worth of cards no clue singles out."""

from __future__ import annotations

import numpy as np
import pytest

from codenames_ai.agents import make_agent
from codenames_ai.agents.panel import (
    PEOPLE_CONFIG,
    PEOPLE_MINDS,
    Panel,
    PanelConfig,
    PeoplePanelSpymaster,
)
from codenames_ai.agents.panel.minds import nounless_of
from codenames_ai.agents.registry import DEFAULT_SPYMASTER, LEVEL_SPYMASTER, REGISTRY
from codenames_ai.core import Team

from .test_panel import mind, panel, scores, spymaster, state

WORDS = ("cut", "blade", "fruit", "water")


def three_minds(c_blade: tuple[float, ...]) -> Panel:
    """Minds a and c think BLADE points at the cutting cards; b sees GLUE (the assassin) in
    it; how c reads BLADE is the argument."""
    a = mind("a", {"blade": (1, 0, 0.05, 0)})
    b = mind("b", {"blade": (0.55, 0, 0.85, 0)})
    c = mind("c", {"blade": c_blade})
    return Panel([a, b, c], WORDS)


def test_worst_rank_one_lets_a_single_worried_mind_be_outvoted() -> None:
    both_safe = three_minds((1, 0, 0.05, 0))
    vetoed = scores(spymaster(both_safe, pessimism=1.0))
    outvoted = scores(spymaster(both_safe, pessimism=1.0, worst_rank=1))
    assert vetoed["blade"] < 0 < outvoted["blade"]
    # Two worried minds of three still veto it at rank 1.
    two_worried = three_minds((0.55, 0, 0.85, 0))
    assert scores(spymaster(two_worried, pessimism=1.0, worst_rank=1))["blade"] < 0


def test_the_prior_weighs_the_named_mind_before_any_touch() -> None:
    view = state().spymaster_view(Team.RED)
    alike = spymaster(panel(), weight_floor=0.0).read_partner(view).weights
    assert alike == pytest.approx([0.5, 0.5])
    leaning = spymaster(panel(), weight_floor=0.0, prior=(("b", 3.0),)).read_partner(view)
    assert leaning.weights == pytest.approx([0.25, 0.75])


def test_a_clue_for_two_must_be_read_right_by_the_mixture() -> None:
    view = state().spymaster_view(Team.RED)
    agent = spymaster(panel())
    assert agent.give_clue(view).number == 2  # cut: 2, KNIFE and SCISSORS
    # No simulated guesser finds both with certainty, so a bar of 1 leaves only 1-clues.
    strict = spymaster(panel(), read_right=1.0)
    assert strict.give_clue(view).number == 1


@pytest.mark.parametrize(("said", "cost"), [(0.0, 1.0), (9.0, 0.5), (99.0, 0.0), (500.0, 0.0)])
def test_a_word_people_seldom_say_costs_more(said: float, cost: float) -> None:
    counts = np.array([said, 100.0, 100.0, 100.0])
    free = scores(spymaster(Panel(panel().minds, WORDS, said=counts)))
    priced = scores(spymaster(Panel(panel().minds, WORDS, said=counts), said_cost=1.0))
    assert free["cut"] - priced["cut"] == pytest.approx(cost)


def test_a_derived_form_costs_more_than_its_base() -> None:
    derived = np.array([True, False, False, False])
    free = scores(spymaster(Panel(panel().minds, WORDS, derived=derived)))
    priced = scores(spymaster(Panel(panel().minds, WORDS, derived=derived), derived_cost=0.3))
    assert free["cut"] - priced["cut"] == pytest.approx(0.3)


def test_a_word_with_no_noun_reading_costs_more() -> None:
    nounless = np.array([False, True, False, False])  # as if 'blade' were an adjective
    free = scores(spymaster(Panel(panel().minds, WORDS, nounless=nounless)))
    priced = scores(spymaster(Panel(panel().minds, WORDS, nounless=nounless),
                              nounless_cost=0.3))
    assert free["blade"] - priced["blade"] == pytest.approx(0.3)
    assert free["cut"] == pytest.approx(priced["cut"])
    assert list(nounless_of(("cut", "pathetic", "fruit", "hilarious"))) == [
        False, True, False, True]


def test_hardness_makes_a_card_no_clue_singles_out_worth_more() -> None:
    agent = spymaster(panel(), hardness=2.0)
    agent.give_clue(state().spymaster_view(Team.RED))  # prepares the board's work
    work = agent._board
    assert work is not None
    legal = np.ones(len(WORDS), dtype=bool)
    own = np.array([0, 1, 2])  # KNIFE and SCISSORS share CUT; APPLE's FRUIT is near PEAR
    bad = work.high[[3, 4, 5]].max(axis=0)
    worth = agent._worth(work, own, bad, legal)
    assert worth is not None and worth.min() == pytest.approx(1.0)
    assert worth[2] > worth[0]
    assert spymaster(panel())._worth(work, own, bad, legal) is None  # off by default


def test_v3_is_the_people_panel_and_the_levels_keep_theirs() -> None:
    assert DEFAULT_SPYMASTER == "panel-spymaster-v4" and LEVEL_SPYMASTER == "panel-spymaster-v2"
    assert REGISTRY["panel-spymaster-v3"].role is REGISTRY["panel-spymaster-v2"].role
    assert PEOPLE_MINDS[-1] == "eat-associations" and len(PEOPLE_MINDS) == 4
    assert dict(PEOPLE_CONFIG.prior) == {"eat-associations": 3.0}
    assert PEOPLE_CONFIG.read_right > 0 and PEOPLE_CONFIG.worst_rank == 1
    assert PEOPLE_CONFIG.single_out > 0 and PEOPLE_CONFIG.nounless_cost > 0
    agent = make_agent("panel-spymaster-v3")
    assert isinstance(agent, PeoplePanelSpymaster) and agent.config == PEOPLE_CONFIG
    assert agent.panel.names == PEOPLE_MINDS
    older = make_agent("panel-spymaster-v2")
    assert not isinstance(older, PeoplePanelSpymaster) and older.config == PanelConfig()


def test_a_clue_for_one_card_must_single_it_out() -> None:
    # FRUIT points at APPLE (ours) and PEAR (a bystander) almost alike: a coin flip.
    def fruit(**config: object) -> tuple[int, float]:
        agent = spymaster(panel(), **config)
        agent.give_clue(state().spymaster_view(Team.RED))
        explanation = agent.last_explanation
        assert explanation is not None
        best = next(a for a in explanation.alternatives if a.clue.word == "fruit")
        assert isinstance(best.clue.number, int)
        return best.clue.number, best.score

    assert fruit() == (1, pytest.approx(fruit()[1])) and fruit()[1] > 0
    number, score = fruit(single_out=0.5)
    assert number == 2 and score < 0  # fruit: 1 is refused; only a weaker fruit: 2 remains


def test_when_no_clue_reads_right_the_rules_give_way_instead_of_failing() -> None:
    view = state().spymaster_view(Team.RED)
    clue = spymaster(panel(), single_out=99.0, read_right=1.0).give_clue(view)
    assert (clue.word, clue.number) == ("cut", 2)  # the clue with no such rule
