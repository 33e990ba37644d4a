"""The panel spymaster and guesser as units, on two tiny hand-built minds.

Axes of the toy vectors: 0 cutting, 1 fruit, 2 sticky, 3 water. Mind "a" and mind "b" agree
that CUT points at KNIFE and SCISSORS; only mind "a" thinks BLADE is safe: in mind "b" a blade
is close to GLUE, the assassin.
"""

from __future__ import annotations

import numpy as np
import pytest

from codenames_ai.agents.panel import Mind, Panel, PanelConfig, PanelGuesser, PanelSpymaster
from codenames_ai.agents.space import Calibration
from codenames_ai.core import Board, GameState, Guess, Identity, Layout, Pass, Team, custom
from codenames_ai.core.errors import ModelError
from codenames_ai.vectors import WordVectors

CARDS = ("knife", "scissors", "apple", "glue", "river", "pear")
KEY = (Identity.RED, Identity.RED, Identity.RED, Identity.ASSASSIN, Identity.BLUE,
       Identity.BYSTANDER)
COMMON = {
    "knife": (1, 0, 0.1, 0), "scissors": (0.9, 0, 0.2, 0), "apple": (0, 1, 0, 0),
    "glue": (0, 0, 1, 0), "river": (0, 0, 0, 1), "pear": (0.05, 0.95, 0, 0.1),
    "cut": (1, 0, 0, 0), "fruit": (0, 1, 0, 0.3), "water": (0, 0, 0, 1),
}
RULES = custom(Layout(rows=2, cols=3, first_team_agents=3, second_team_agents=1,
                      double_agent=False, bystanders=1, assassins=1))
CALIBRATION = Calibration(0.0, 0.25, (0.0, 0.17, 0.32, 0.41, 0.58))


def mind(name: str, extra: dict[str, tuple[float, ...]], drop: tuple[str, ...] = ()) -> Mind:
    table = {**COMMON, **extra}
    words = [w for w in table if w not in drop]
    return Mind(name, WordVectors(name, words, np.array([table[w] for w in words],
                                                        dtype=np.float32)), CALIBRATION)


def panel(*, drop_b: tuple[str, ...] = ()) -> Panel:
    a = mind("a", {"blade": (1, 0, 0.05, 0)})
    b = mind("b", {"blade": (0.55, 0, 0.85, 0)}, drop_b)
    return Panel([a, b], ("cut", "blade", "fruit", "water"))


def state() -> GameState:
    return GameState(RULES, Board(CARDS, KEY, Team.RED))


def spymaster(p: Panel, **config: object) -> PanelSpymaster:
    agent = PanelSpymaster(panel=p, config=PanelConfig(**config))  # type: ignore[arg-type]
    agent.start_game(1)
    return agent


def test_the_clue_both_minds_agree_on_wins_over_one_only_one_mind_thinks_safe() -> None:
    game = state()
    agent = spymaster(panel())
    clue = agent.give_clue(game.spymaster_view(Team.RED))
    assert (clue.word, clue.number) == ("cut", 2)
    explanation = agent.last_explanation
    assert explanation is not None
    assert {t.word for t in explanation.targets} == {"knife", "scissors"}
    assert "KNIFE" in explanation.notes and "a and b" in explanation.notes


def scores(agent: PanelSpymaster) -> dict[str, float]:
    agent.give_clue(state().spymaster_view(Team.RED))
    explanation = agent.last_explanation
    assert explanation is not None
    return {explanation.clue.word: explanation.score,
            **{a.clue.word: a.score for a in explanation.alternatives}}


def test_the_most_worried_mind_decides_danger() -> None:
    # Mind "a" alone values BLADE almost as CUT; with mind "b", which sees GLUE (the
    # assassin) in a blade, BLADE is worth less than nothing.
    alone = scores(spymaster(Panel([mind("a", {"blade": (1, 0, 0.05, 0)})],
                                   ("cut", "blade", "fruit", "water"))))
    assert alone["blade"] > alone["cut"] - 0.2
    together = scores(spymaster(panel()))
    assert together["blade"] < 0 < together["cut"]


def test_a_mind_that_lacks_a_card_abstains_and_none_reading_it_is_a_clear_error() -> None:
    p = panel(drop_b=("pear",))
    clue = spymaster(p).give_clue(state().spymaster_view(Team.RED))
    assert clue.word == "cut"
    unreadable = GameState(RULES, Board(CARDS[:5] + ("zyxxq",), KEY, Team.RED))
    with pytest.raises(ModelError, match="zyxxq"):
        spymaster(p).give_clue(unreadable.spymaster_view(Team.RED))


def test_a_failed_clue_is_never_given_again_and_the_partner_is_read() -> None:
    game = state()
    agent = spymaster(panel())
    game.apply(agent.give_clue(game.spymaster_view(Team.RED)))  # cut 2
    game.apply(Guess(CARDS.index("pear")))  # a bystander: the clue failed
    assert game.current_team is Team.BLUE
    game.forfeit()  # blue passes
    view = game.spymaster_view(Team.RED)
    partner = agent.read_partner(view)
    assert partner.failed == frozenset({"cut"})
    assert partner.touches == 1
    again = agent.give_clue(view)
    assert again.word != "cut"


def test_the_guesser_follows_the_panel_and_stops_when_unsure() -> None:
    game = state()
    game.apply(spymaster(panel()).give_clue(game.spymaster_view(Team.RED)))
    guesser = PanelGuesser(panel=panel(), stop_z=1.6)
    first = guesser.guess(game.guesser_view(Team.RED))
    assert isinstance(first, Guess) and CARDS[first.index] in {"knife", "scissors"}
    game.apply(first)
    second = guesser.guess(game.guesser_view(Team.RED))
    assert isinstance(second, Guess) and CARDS[second.index] in {"knife", "scissors"}
    game.apply(second)
    # Past the number, the extra guess needs a clear leftover: there is none.
    assert isinstance(guesser.guess(game.guesser_view(Team.RED)), Pass)


def test_the_guesser_reads_a_clue_through_its_base_form() -> None:
    game = state()
    from codenames_ai.core import Clue

    game.apply(Clue("cuts", 1))
    action = PanelGuesser(panel=panel()).guess(game.guesser_view(Team.RED))
    assert isinstance(action, Guess) and CARDS[action.index] in {"knife", "scissors"}
