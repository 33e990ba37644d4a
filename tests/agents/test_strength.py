"""A strength floor: the default agents, on the shipped default model (glove-6b-50d, built by
the project from shipped data) and the shipped minds, win seeded single-team races and
two-team games against the random baseline. Floors sit well under the measured figures, so
only a real loss of strength fails them.

Measured on seeds 0-29 (``python -m tests.agents.test_strength 30``, which prints these):

- glove-ev-spymaster-v1 + glove-guesser-v1: races 30/30 won, 3.87 turns, 0 assassin;
  duels against the random pair 30/30 won
- panel-spymaster-v2 + panel-guesser-v2: races 30/30 won, 8.63 turns, 0 assassin; duels 30/30
- random-spymaster-v1 + random-guesser-v1 (the baseline): races 4/30 won, 8.87 turns,
  23 assassin
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import pytest

from codenames_ai.agents import make_agent
from codenames_ai.agents.evaluation import GameFigures, single_team, two_team
from codenames_ai.core import WORDS, Seats, Team
from codenames_ai.decks import default_deck

EV_PAIR = ("glove-ev-spymaster-v1", "glove-guesser-v1")
PANEL_PAIR = ("panel-spymaster-v2", "panel-guesser-v2")
RANDOM_PAIR = ("random-spymaster-v1", "random-guesser-v1")


def pair(ids: tuple[str, str]) -> tuple[Any, Any]:
    return make_agent(ids[0]), make_agent(ids[1])


def races(ids: tuple[str, str], seeds: Sequence[int]) -> list[GameFigures]:
    """Single-team races: the pair's team plays alone."""
    spymaster, guesser = pair(ids)
    deck = default_deck("words")
    return [single_team(WORDS, deck, seed, spymaster, guesser) for seed in seeds]


def duels(ids: tuple[str, str], seeds: Sequence[int]) -> list[GameFigures]:
    """Two-team games against the random baseline, the pair red on even seeds, blue on odd."""
    spymaster, guesser = pair(ids)
    deck = default_deck("words")
    figures = []
    for seed in seeds:
        other_spymaster, other_guesser = pair(RANDOM_PAIR)
        team = Team.RED if seed % 2 == 0 else Team.BLUE
        ours = {"spymaster": spymaster, "guesser": guesser}
        theirs = {"spymaster": other_spymaster, "guesser": other_guesser}
        red, blue = (ours, theirs) if team is Team.RED else (theirs, ours)
        seats = Seats.standard(red_spymaster=red["spymaster"], red_guesser=red["guesser"],
                               blue_spymaster=blue["spymaster"], blue_guesser=blue["guesser"])
        figures.append(two_team(WORDS, deck, seed, seats, team))
    return figures


def summary(figures: list[GameFigures]) -> tuple[int, float, int]:
    """(games won, mean own clue turns, games lost on the assassin)"""
    return (sum(f.won for f in figures), sum(f.turns for f in figures) / len(figures),
            sum(f.assassin for f in figures))


@pytest.mark.parametrize(("ids", "most_turns"), [(EV_PAIR, 6.0), (PANEL_PAIR, 11.0)],
                         ids=["glove-ev", "panel"])
def test_the_default_pairs_win_single_team_races(ids: tuple[str, str],
                                                 most_turns: float) -> None:
    # Measured: 30/30 won, 3.87 (EV) and 8.63 (panel) turns; the random pair wins 4/30.
    won, turns, assassins = summary(races(ids, range(5)))
    assert won >= 4, (won, turns, assassins)
    assert turns <= most_turns, (won, turns, assassins)
    assert assassins <= 1


@pytest.mark.parametrize("ids", [EV_PAIR, PANEL_PAIR], ids=["glove-ev", "panel"])
def test_the_default_pairs_beat_the_random_baseline(ids: tuple[str, str]) -> None:
    # Measured: 30/30 won for both pairs.
    won, _, assassins = summary(duels(ids, range(4)))
    assert won >= 3 and assassins == 0


def main(argv: list[str]) -> None:
    """Print the figures above: python -m tests.agents.test_strength [games]"""
    games = int(argv[0]) if argv else 30
    for ids in (EV_PAIR, PANEL_PAIR, RANDOM_PAIR):
        won, turns, assassins = summary(races(ids, range(games)))
        line = (f"{' + '.join(ids)}: races {won}/{games} won, {turns:.2f} turns, "
                f"{assassins} assassin")
        if ids != RANDOM_PAIR:
            line += f"; duels {summary(duels(ids, range(games)))[0]}/{games} won"
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
