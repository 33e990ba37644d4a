"""Leave one mind out: does a spymaster's clue carry to a mind it does not contain?

Run by hand: ``python -m benchmarks.minds [--boards 200] [--workers 2] [--cache-dir DIR]
[--only LABELS]``. For every mind M of a panel, the panel spymaster *without* M gives clues to
a guesser that thinks only with M (the nearest-card guesser: it touches the clue's number of
most similar cards, never stopping early); it keeps the full panel's clue vocabulary and
settings, so only the judging loses M. ``v3-without-M`` is the default panel-spymaster-v3
(four minds, people's associations among them), ``v2-without-M`` panel-spymaster-v2 (three).
The full panels and two v1 spymasters play every mind's guesser in the same table. Single-team
races (9 own, 8 opponent, 7 bystanders, 1 assassin, 25 turns) on boards dealt from
``benchmarks/heldout_nouns.txt``: nouns in none of the shipped decks, kept to those every mind
can read. A guesser whose mind lacks the clue word touches a random face-up card. Prints win
rate with a 95% Wilson interval, assassin losses per 100 games, clue precision (own cards found
in a clue's turn, up to its number, over numbers given), turns per win, mean clue number and,
over won games, the median of clue turns from the turn that found the 8th agent to the one
that found the 9th (the endgame: 0 when one turn found both).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from codenames_ai.agents import make_agent
from codenames_ai.agents.evaluation import GameFigures, single_team
from codenames_ai.agents.panel import (
    DEFAULT_MINDS,
    PEOPLE_MINDS,
    PanelSpymaster,
    PeoplePanelSpymaster,
    PeopleSpymaster,
)
from codenames_ai.core import WORDS, Guess, GuesserAction, GuesserView, Pass
from codenames_ai.core.errors import ModelError
from codenames_ai.harness.summary import wilson
from codenames_ai.vectors import load_model

HELDOUT = Path(__file__).resolve().parent / "heldout_nouns.txt"
GUESSER_OF = {"glove-6b-50d": "glove-nearest-guesser-v1",
              "minilm-l6-words": "minilm-words-nearest-guesser-v1",
              "wordnet-3.0": "wordnet-nearest-guesser-v1",
              "eat-associations": "eat-nearest-guesser-v1"}
V1_SPYMASTERS = ("glove-ev-spymaster-v1", "glove-gap-spymaster-v1")


def heldout_deck(cache_dir: str | None, minds: tuple[str, ...] = PEOPLE_MINDS) -> list[str]:
    """The held-out nouns every one of ``minds`` can read."""
    words = [w.strip() for w in HELDOUT.read_text(encoding="utf-8").splitlines()
             if w.strip() and not w.startswith("#")]
    models = [load_model(m, cache_dir=cache_dir) for m in minds]
    return [w for w in words if all(w in m for m in models)]


# A held-out label's panel: its spymaster class and its full minds.
PANELS: dict[str, tuple[type[PanelSpymaster], tuple[str, ...]]] = {
    "v4": (PeopleSpymaster, PEOPLE_MINDS),
    "v3": (PeoplePanelSpymaster, PEOPLE_MINDS), "v2": (PanelSpymaster, DEFAULT_MINDS)}


def held_out(label: str) -> str | None:
    """The mind a ``vN-without-MIND`` label leaves out (None for a registered id)."""
    version, sep, mind = label.partition("-without-")
    return mind if sep and version in PANELS else None


def spymaster(label: str, cache_dir: str | None) -> Any:
    left_out = held_out(label)
    if left_out is not None:
        kind, minds = PANELS[label.partition("-without-")[0]]
        # The full panel's familiar vocabulary: only the judging loses the mind.
        return kind(minds=tuple(m for m in minds if m != left_out), cache_dir=cache_dir,
                    known_by=minds)
    return make_agent(label, cache_dir=cache_dir)


class UnknownClueGuesser:
    """A guesser on one mind, as a person would be: a clue word its mind does not know is
    no reason to stop the game; it touches a face-up card at random (seeded per game)."""

    def __init__(self, guesser: Any) -> None:
        self.guesser = guesser
        self._rng = random.Random(0)

    def start_game(self, seed: int) -> None:
        self.guesser.start_game(seed)
        self._rng = random.Random(seed)

    def guess(self, view: GuesserView) -> GuesserAction:
        try:
            action: GuesserAction = self.guesser.guess(view)
        except ModelError:
            if view.guesses_made and view.can_pass:
                return Pass()
            return Guess(self._rng.choice(view.unrevealed))
        return action


def run_cell(job: tuple[str, str, int, str | None]) -> tuple[str, str, list[GameFigures], float]:
    label, mind, boards, cache_dir = job
    deck = heldout_deck(cache_dir)
    clue_giver = spymaster(label, cache_dir)
    guesser = UnknownClueGuesser(make_agent(GUESSER_OF[mind], cache_dir=cache_dir))
    start = time.perf_counter()
    figures = [single_team(WORDS, deck, seed, clue_giver, guesser) for seed in range(boards)]
    return label, mind, figures, time.perf_counter() - start


def figures_of(games: list[GameFigures]) -> dict[str, float]:
    wins = [g for g in games if g.won]
    low, high = wilson(len(wins), len(games))
    asked = sum(sum(g.clue_numbers) for g in games)
    found = sum(sum(g.targets_found) for g in games)
    numbers = [n for g in games for n in g.clue_numbers]
    endgame = [turns for g in wins if (turns := g.turns_between(8, 9)) is not None]
    return {"games": len(games), "win": len(wins) / len(games), "win_low": low,
            "win_high": high, "assassin_per_100": 100 * sum(g.assassin for g in games)
            / len(games), "precision": found / asked if asked else 0.0,
            "turns_per_win": sum(g.turns for g in wins) / len(wins) if wins else 0.0,
            "mean_number": sum(numbers) / len(numbers) if numbers else 0.0,
            "eighth_to_ninth": statistics.median(endgame) if endgame else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--only", default=None,
                        help="comma-separated spymaster labels (default: all)")
    args = parser.parse_args()
    labels = [f"{version}-without-{m}" for version, (_, minds) in PANELS.items()
              for m in minds] + ["panel-spymaster-v4", "panel-spymaster-v3",
                                          "panel-spymaster-v2", *V1_SPYMASTERS]
    if args.only:
        labels = [label for label in labels if label in args.only.split(",")]
    deck = heldout_deck(args.cache_dir)
    print(f"leave one mind out: {args.boards} boards per cell from {len(deck)} held-out "
          f"nouns; guessers touch the clue's N nearest cards in one mind")
    # A panel without M plays only M's guesser (with the others it is not held out).
    jobs = [(label, mind, args.boards, args.cache_dir) for label in labels
            for mind in PEOPLE_MINDS if held_out(label) in (None, mind)]
    results: dict[tuple[str, str], dict[str, float]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for label, mind, games, seconds in pool.map(run_cell, jobs):
            results[(label, mind)] = {**figures_of(games), "seconds": seconds}
    header = f"{'spymaster':36} {'guesser mind':16} {'win % [95% CI]':>18} {'assassin':>8} " \
             f"{'precision':>9} {'turns/win':>9} {'mean N':>6} {'8th->9th':>8}"
    print(header)
    print("-" * len(header))
    for (label, mind), f in results.items():
        mark = " (held out)" if held_out(label) == mind else ""
        print(f"{label:36} {mind + mark:16} {100 * f['win']:5.1f} [{100 * f['win_low']:4.1f}-"
              f"{100 * f['win_high']:5.1f}] {f['assassin_per_100']:8.1f} "
              f"{f['precision']:9.2f} {f['turns_per_win']:9.2f} {f['mean_number']:6.2f} "
              f"{f['eighth_to_ninth']:8.1f}")
    if args.json:
        args.json.write_text(json.dumps({f"{k[0]} | {k[1]}": v for k, v in results.items()},
                                        indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
