"""ClueExplanation.plain: a clue's reasons in a player's words, without scores."""

from __future__ import annotations

from codenames_ai.agents.explain import Alternative, ClueExplanation, ScoredCard
from codenames_ai.core import Clue, Guess, Team
from tests.agents.test_panel import CARDS, panel, spymaster, state


def explanation(targets: tuple[str, ...], danger: str | None, notes: str = "",
                reasons: tuple[str, ...] = ()) -> ClueExplanation:
    return ClueExplanation(
        Clue("cut", len(targets)), tuple(ScoredCard(w, 0.61) for w in targets),
        None if danger is None else ScoredCard(danger, 0.42), 0.19, 1.37,
        (Alternative(Clue("blade", 1), 0.88),), notes, reasons)


def test_without_notes_it_names_the_targets_and_the_feared_card() -> None:
    assert (explanation(("scissors", "knife"), "glue").plain()
            == "aimed at SCISSORS and KNIFE; kept away from GLUE.")
    assert (explanation(("scissors", "knife", "axe"), None).plain()
            == "aimed at SCISSORS, KNIFE and AXE.")
    assert (explanation((), "glue").plain()
            == "aimed at no card in particular; kept away from GLUE.")


def test_notes_are_left_to_describe() -> None:
    technical = explanation(("knife",), "glue", "expected cards this turn (guesser noise 0.120)")
    assert technical.plain() == "aimed at KNIFE; kept away from GLUE."
    assert "guesser noise" in technical.describe()


def test_reasons_follow_the_targets_listed_as_a_sentence_lists_them() -> None:
    reasons = ("linked to 'water' by meaning", "kept away from GLASS (a bystander)")
    assert explanation(("pond", "wand", "bank"), "glass", "aimed at POND", reasons).plain() == (
        "aimed at POND, WAND and BANK; linked to 'water' by meaning; kept away from GLASS "
        "(a bystander).")


def test_a_real_panel_explanation_reads_without_numbers() -> None:
    game = state()
    agent = spymaster(panel())
    game.apply(agent.give_clue(game.spymaster_view(Team.RED)))  # cut 2
    first = agent.last_explanation
    assert first is not None
    assert first.plain() == ("aimed at KNIFE and SCISSORS; linked to 'cut' by a and b; "
                             "kept away from PEAR (a bystander).")
    game.apply(Guess(CARDS.index("pear")))  # a bystander: the clue failed
    game.forfeit()
    agent.give_clue(game.spymaster_view(Team.RED))
    second = agent.last_explanation
    assert second is not None
    assert "your touches" in second.notes
    assert second.plain() == ("aimed at APPLE; linked to 'fruit' by a and b; kept away from "
                              "RIVER (the other team's); not repeating cut, which did not work.")
    assert not any(ch.isdigit() for ch in second.plain())


def test_a_card_closer_than_a_target_is_never_said_to_be_kept_away() -> None:
    # Issue 29: "button -> aimed at LOCK; kept away from PLUG" beside a margin of -0.25.
    risky = ClueExplanation(Clue("button", 1), (ScoredCard("lock", 0.40),),
                            ScoredCard("plug", 0.65), -0.25, 0.9, ())
    assert risky.plain() == "aimed at LOCK; a risk: PLUG is close to 'button' too."
    assert "kept away" not in risky.plain()


def test_the_panel_names_the_risk_when_its_margin_is_not_positive() -> None:
    # KNIFE and SCISSORS found, APPLE left: FRUIT is the clue, and PEAR (a bystander)
    # scores about as high as APPLE for the most worried mind.
    game = state()
    game.apply(Clue("cut", 2))
    game.apply(Guess(CARDS.index("knife")))
    game.apply(Guess(CARDS.index("scissors")))
    game.forfeit()  # red stops; blue passes
    game.forfeit()
    agent = spymaster(panel())
    agent.give_clue(game.spymaster_view(Team.RED))
    explained = agent.last_explanation
    assert explained is not None and explained.margin <= 0
    assert explained.plain() == ("aimed at APPLE; linked to 'fruit' by a and b; a risk: PEAR "
                                 "(a bystander) is close to 'fruit' too.")
