"""The people guesser as a unit, on two tiny hand-built minds and the shipped links of people's
answers (the EAT): it reads a clue in both directions, trusts a person's number, stops on real
doubt, and credits a leftover to its own clue.

Axes of the toy vectors: 0 the clue's own sense, 1 a broad sense many words share, 2 and 3
unrelated senses. The minds' words are made up (``q...``), so the shipped links know none of
them; the tests of people's answers use real words the links know, on cards the minds cannot
tell apart.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from codenames_ai.agents.guessers import open_clues
from codenames_ai.agents.panel import Mind, Panel, PanelGuesser, PeopleGuesser
from codenames_ai.agents.space import Calibration
from codenames_ai.core import (
    Board,
    Clue,
    GameState,
    Guess,
    GuesserAction,
    Identity,
    Layout,
    Pass,
    Phase,
    Team,
    custom,
    parse_key,
)
from codenames_ai.vectors import WordVectors
from codenames_ai.vectors.links import eat_links

CALIBRATION = Calibration(0.0, 0.25, (0.0, 0.17, 0.32, 0.41, 0.58))
VECTORS = {
    "qclue": (1, 0, 0, 0),
    # QHUB is close to QCLUE, but closer still to three other words: the clue is not what it
    # brings to mind. QEXACT is a little further from QCLUE, and QCLUE is its nearest word.
    "qhub": (0.7, 0.7, 0.1, 0), "qexact": (0.6, 0, 0, 0.8),
    "qa": (0.6, 0.8, 0, 0), "qb": (0.5, 0.85, 0.1, 0), "qc": (0.65, 0.75, 0.05, 0),
    "qfar": (0, 0, 1, 0), "qfarther": (0, 0.1, 0.9, 0.4),
    # for a three: QONE and QTWO are plainly the clue's, QTHREE less so, QNONE not at all
    "qthree": (0.35, 0, 0.3, 0.9), "qone": (0.95, 0, 0, 0.3), "qtwo": (0.9, 0.1, 0, 0.4),
    "qnone": (0, 0.2, 0.3, 0.9),
    # real words the minds cannot tell apart (the same vector): only people's answers can
    "car": (0, 0, 0.6, 0.8), "qtwin": (0, 0, 0.6, 0.8), "accident": (0, 0, 0.6, 0.8),
    "airport": (0, 0, 0.8, 0.6), "qtwin2": (0, 0, 0.8, 0.6), "plane": (0, 0, 0.8, 0.6),
}
CANDIDATES = ("qclue", "qa", "qb", "qc", "qfar", "accident", "plane")


def mind(name: str) -> Mind:
    words = list(VECTORS)
    return Mind(name, WordVectors(name, words, np.array([VECTORS[w] for w in words],
                                                        dtype=np.float32)), CALIBRATION)


PANEL = Panel([mind("a"), mind("b")], CANDIDATES)


def game(cards: tuple[str, ...], key: str) -> GameState:
    """A 2x4 game, red to guess: ``key`` one letter per card (``parse_key``: R, B, N, A)."""
    keyed = parse_key(key)
    layout = Layout(rows=2, cols=4, first_team_agents=keyed.count(Identity.RED),
                    second_team_agents=keyed.count(Identity.BLUE), double_agent=False,
                    bystanders=keyed.count(Identity.BYSTANDER),
                    assassins=keyed.count(Identity.ASSASSIN))
    # basic clue rules: the made-up clue words are no dictionary's
    return GameState(custom(layout, clue_rules="basic"), Board(cards, keyed, Team.RED))


def touches(agent: PanelGuesser, state: GameState) -> list[str]:
    """What ``agent`` touches for red until it passes or the turn ends ("pass" if it passed)."""
    made: list[str] = []
    while state.phase is Phase.GUESS and state.current_team is Team.RED:
        action: GuesserAction = agent.guess(state.guesser_view(Team.RED))
        state.apply(action)
        made.append(state.board.words[action.index] if isinstance(action, Guess) else "pass")
    return made


def people() -> PeopleGuesser:
    agent = PeopleGuesser(panel=PANEL, weights=(), direct=0.6)
    agent.start_game(1)
    return agent


def test_a_card_the_clue_brings_to_mind_but_that_does_not_bring_the_clue_to_mind_loses() -> None:
    # Forward alone, QHUB (cosine .70) beats QEXACT (.60): the panel guesser touches it. Read
    # both ways, QEXACT wins: QCLUE is the word nearest to it, while three words sit nearer
    # to QHUB than QCLUE does.
    cards = ("qhub", "qexact", "qfar", "qfarther", "qa", "qb", "qc", "qnone")
    assert touches(PanelGuesser(panel=PANEL), _again(cards, "BRNNBNNA", Clue("qclue", 1)))[0] \
        == "qhub"
    assert touches(people(), _again(cards, "BRNNBNNA", Clue("qclue", 1)))[0] == "qexact"


def _again(cards: tuple[str, ...], key: str, clue: Clue) -> GameState:
    state = game(cards, key)
    state.apply(clue)
    return state


def test_people_s_answers_count_in_both_directions() -> None:
    # The minds see CAR and QTWIN alike; people shown ACCIDENT answered CAR (forward).
    # The minds see AIRPORT and QTWIN2 alike; people shown AIRPORT answered PLANE (backward:
    # the card brings the clue to mind), while none shown PLANE answered AIRPORT.
    links = eat_links()
    assert links.strength("accident", "car") > 0 and links.strength("car", "accident") == 0
    assert links.strength("airport", "plane") > 0 and links.strength("plane", "airport") == 0
    for clue, card, twin in (("accident", "car", "qtwin"), ("plane", "airport", "qtwin2")):
        for cards in ((card, twin, "qfar", "qnone", "qa", "qb", "qc", "qhub"),
                      (twin, card, "qfar", "qnone", "qa", "qb", "qc", "qhub")):
            key = "RRNNNNBA"
            assert touches(people(), _again(cards, key, Clue(clue, 1)))[0] == card
            # without people's answers the two tie and the first card on the board wins
            plain = PeopleGuesser(panel=PANEL, weights=(), direct=0.0)
            assert touches(plain, _again(cards, key, Clue(clue, 1)))[0] == cards[0]


def test_a_person_s_number_is_trusted_where_the_panel_guesser_stops() -> None:
    # QONE and QTWO are plainly the clue's; QTHREE fits less (cosine about .35). The panel
    # guesser stops before it; the people guesser, told 3, touches it.
    cards = ("qone", "qtwo", "qthree", "qfar", "qnone", "car", "airport", "qfarther")
    key = "RRRNBNBA"
    assert touches(PanelGuesser(panel=PANEL, stop_z=1.6),
                   _again(cards, key, Clue("qclue", 3))) == ["qone", "qtwo", "pass"]
    assert touches(people(), _again(cards, key, Clue("qclue", 3)))[:3] == \
        ["qone", "qtwo", "qthree"]


def test_real_doubt_stops_it_before_the_number_and_the_assassin_is_priced_in() -> None:
    # Told 3 with only two cards near the clue, the third touch would be a guess among cards
    # that fit it no better than chance: with the assassin among them, it passes.
    cards = ("qone", "qtwo", "qnone", "qfar", "qfarther", "car", "airport", "qtwin")
    state = _again(cards, "RRRNBNBA", Clue("qclue", 3))
    assert touches(people(), state) == ["qone", "qtwo", "pass"]
    agent = people()
    view = _again(cards, "RRRNBNBA", Clue("qclue", 3)).guesser_view(Team.RED)
    # a fit at which a find is one chance in three: not worth the assassin's risk, worth a
    # touch when no assassin is left to fear
    doubtful = agent.centre - agent.width * math.log(2.0)
    assert agent.touch_worth(doubtful, view) < 0
    agent.assassin_cost = 0.0
    assert agent.touch_worth(doubtful, view) > 0


def test_a_leftover_is_credited_to_the_oldest_clue_still_open() -> None:
    # QCLUE 2 found QONE (one left); QC 1 found QA, then QTWO past its number: that was
    # QCLUE's leftover, so on red's next turn both clues are closed.
    cards = ("qone", "qtwo", "qa", "qthree", "qfar", "qb", "qhub", "qnone")
    state = game(cards, "RRRRBNBA")
    state.apply(Clue("qclue", 2))
    state.apply(Guess(0))
    state.apply(Pass())
    state.forfeit()  # blue skips its clue
    state.apply(Clue("qc", 1))
    state.apply(Guess(2))
    view = state.guesser_view(Team.RED)
    assert open_clues(view) == [("qclue", 1)]
    state.apply(Guess(1))  # past QC's number: QCLUE's leftover; the turn's two guesses are used
    state.forfeit()  # blue skips its clue
    state.apply(Clue("accident", 1))
    assert open_clues(state.guesser_view(Team.RED)) == [("qclue", 0), ("qc", 0)]


def test_a_clue_in_full_width_letters_or_with_a_ligature_reads_as_its_letters() -> None:
    # Third review, finding 2: the clue rules accept ＦＬＡＭＥ and ﬂame as words, and the
    # guessers read them as unknown words (a random touch).
    cards = ("qhub", "qexact", "qfar", "qfarther", "qa", "qb", "qc", "qnone")
    for agent in (people, lambda: PanelGuesser(panel=PANEL)):
        plain = touches(agent(), _again(cards, "BRNNBNNA", Clue("qclue", 1)))
        for typed in ("ＱＣＬＵＥ", "Ｑclue"):
            assert touches(agent(), _again(cards, "BRNNBNNA", Clue(typed, 1))) == plain
    from codenames_ai.agents.panel.guesser import _forms

    assert "flame" in list(_forms("ﬂame")) and "flame" in list(_forms("ＦＬＡＭＥ"))


def test_a_touch_after_the_first_is_explained_with_the_chance_it_decided_with() -> None:
    # QCLUE 3: QONE and QTWO are plainly the clue's; the third touch, QTHREE, is taken because
    # touch_worth says it is worth it: its reason gives the chance of a find behind that.
    cards = ("qone", "qtwo", "qthree", "qfar", "qnone", "car", "airport", "qfarther")
    state = _again(cards, "RRRNBNBA", Clue("qclue", 3))
    agent = people()
    views = []
    while state.phase is Phase.GUESS and state.current_team is Team.RED:
        views.append(state.guesser_view(Team.RED))
        action = agent.guess(views[-1])
        state.apply(action)
        if not isinstance(action, Guess):
            break
    first, _, third = agent.touch_explanations
    assert first.chance is None and first.first  # the first touch is required: no chance
    assert third.card == "qthree" and third.served == Clue("qclue", 3)
    assert third.fit is not None and third.chance == agent.find_chance(third.fit)
    assert third.bar is not None and third.fit > third.bar  # worth it: over touch_worth's 0
    assert agent.touch_worth(third.bar, views[2]) == pytest.approx(0.0, abs=1e-9)
    assert third.plain().startswith(f"for 'qclue 3', its closest card left: "
                                    f"{third.chance:.0%} sure; the next closest, ")


def test_the_panel_guesser_explains_a_bonus_touch_with_the_earlier_clue() -> None:
    # QCLUE 2 found QONE; on QFAR 1 the panel guesser touches QFARTHER, then spends the
    # bonus touch on QTWO for QCLUE.
    cards = ("qone", "qtwo", "qfarther", "qa", "qnone", "car", "airport", "qhub")
    state = game(cards, "RRRRBNBA")
    state.apply(Clue("qclue", 2))
    state.apply(Guess(0))
    state.apply(Pass())
    state.forfeit()  # blue skips its clue
    state.apply(Clue("qfar", 1))
    agent = PanelGuesser(panel=PANEL, leftover_z=1.0)
    assert touches(agent, state) == ["qfarther", "qtwo"]
    qfarther, qtwo = agent.touch_explanations
    assert qfarther.served == Clue("qfar", 1) and not qfarther.bonus
    assert qtwo.bonus and qtwo.served == Clue("qclue", 2) and qtwo.clue == Clue("qfar", 1)
    assert qtwo.plain().startswith("a bonus touch for the earlier clue 'qclue 2' (1 card "
                                   "unfound): sure; the next closest to 'qclue', ")
