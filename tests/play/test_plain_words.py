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
