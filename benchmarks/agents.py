"""Agent strength and speed: every spymaster x guesser pair on the same seeded boards.

Run by hand: ``python -m benchmarks.agents [--boards 500] [--cache-dir DIR] [--workers 2]
[--edition words|pictures|both]``. For each pair, on Words and on Pictures boards (the shipped
emoji deck), it prints the single-team race (the team plays alone, as in the AIIDE
competition): win rate with a 95% Wilson interval, mean turns to clear its cards (wins only),
assassin losses per 100 games, clue precision (targets found / clue number) and mean clue
number. Pairs on different models are the cross-model figures (they need the MiniLM model:
``codenames models build minilm``). Then two-team games of the expected-value spymaster against
each baseline spymaster with the same guesser (sides alternate), and the EV spymaster's clue
latency over vocabularies of 10k, 25k and 50k words.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from codenames_ai import __version__
from codenames_ai.agents import REGISTRY, make_agent
from codenames_ai.agents.evaluation import GameFigures, single_team, two_team
from codenames_ai.core import EDITIONS, WORDS, GameState, Seats, Team, deal
from codenames_ai.decks import default_deck
from codenames_ai.harness.summary import wilson
from codenames_ai.vectors import ModelStore

SPYMASTERS = ["glove-ev-spymaster-v1", "glove-threshold-spymaster-v1", "glove-gap-spymaster-v1",
              "minilm-ev-spymaster-v1", "ensemble-ev-spymaster-v1"]
GUESSERS = ["glove-guesser-v1", "glove-nearest-guesser-v1", "minilm-guesser-v1",
            "minilm-nearest-guesser-v1"]


def agent(agent_id: str, cache_dir: str | None, vocabulary: int) -> Any:
    return make_agent(agent_id, cache_dir=cache_dir, vocabulary_size=vocabulary)


def run_pair(job: tuple[str, str, int, str | None, int, str]
             ) -> tuple[str, str, list[GameFigures], float]:
    spymaster_id, guesser_id, boards, cache_dir, vocabulary, edition = job
    spymaster = agent(spymaster_id, cache_dir, vocabulary)
    guesser = agent(guesser_id, cache_dir, vocabulary)
    rules = EDITIONS[edition]
    deck = default_deck(edition)
    start = time.perf_counter()
    figures = [single_team(rules, deck, seed, spymaster, guesser) for seed in range(boards)]
    return spymaster_id, guesser_id, figures, time.perf_counter() - start


def run_duel(job: tuple[str, str, int, str | None, int]) -> tuple[str, str, list[bool]]:
    baseline_id, guesser_id, games, cache_dir, vocabulary = job
    ev = agent("glove-ev-spymaster-v1", cache_dir, vocabulary)
    baseline = agent(baseline_id, cache_dir, vocabulary)
    red_guesser = agent(guesser_id, cache_dir, vocabulary)
    blue_guesser = agent(guesser_id, cache_dir, vocabulary)
    deck = default_deck("words")
    wins = []
    for seed in range(games):
        ev_team = Team.RED if seed % 2 == 0 else Team.BLUE
        red, blue = (ev, baseline) if ev_team is Team.RED else (baseline, ev)
        seats = Seats.standard(red_spymaster=red, red_guesser=red_guesser,
                               blue_spymaster=blue, blue_guesser=blue_guesser)
        wins.append(two_team(WORDS, deck, seed, seats, ev_team).won)
    return baseline_id, guesser_id, wins


def summary(figures: list[GameFigures]) -> str:
    n = len(figures)
    won = sum(f.won for f in figures)
    low, high = wilson(won, n)
    turns = [f.turns for f in figures if f.won]
    numbers = sum(sum(f.clue_numbers) for f in figures)
    found = sum(sum(f.targets_found) for f in figures)
    clues = sum(len(f.clue_numbers) for f in figures)
    return (f"{won / n:6.1%} [{low:.1%}, {high:.1%}]  "
            f"{statistics.mean(turns) if turns else float('nan'):5.2f}  "
            f"{100 * sum(f.assassin for f in figures) / n:6.1f}  "
            f"{found / max(numbers, 1):6.2f}  {numbers / max(clues, 1):5.2f}")


def latency(cache_dir: str | None, boards: int, *, show: bool = True) -> dict[str, float]:
    """Median and 95th-percentile ms per EV clue at vocabularies of 10k, 25k and 50k words."""
    figures: dict[str, float] = {}
    deck = default_deck("words")
    for size in (10_000, 25_000, 50_000):
        spymaster = agent("glove-ev-spymaster-v1", cache_dir, size)
        views = []
        for seed in range(boards):
            state = GameState(WORDS, deal(WORDS, deck, seed))
            views.append(state.spymaster_view(state.current_team))
        spymaster.give_clue(views[0])  # first call builds the legality index
        times = []
        for view in views:
            start = time.perf_counter()
            spymaster.give_clue(view)
            times.append(time.perf_counter() - start)
        figures[f"EV clue ms median @{size}"] = 1e3 * statistics.median(times)
        figures[f"EV clue ms p95 @{size}"] = 1e3 * float(np.quantile(times, 0.95))
        if show:
            print(f"  vocabulary {len(spymaster.space.words):>6,}: median "
                  f"{1e3 * statistics.median(times):6.2f} ms, p95 "
                  f"{1e3 * float(np.quantile(times, 0.95)):6.2f} ms ({boards} boards)")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--duels", type=int, default=500)
    parser.add_argument("--vocabulary", type=int, default=25_000)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--latency-boards", type=int, default=200)
    parser.add_argument("--edition", choices=("words", "pictures", "both"), default="both",
                        help="the boards of the single-team races")
    args = parser.parse_args()
    store = ModelStore(args.cache_dir)
    minilm = store.has("minilm")
    # The registry knows which agents need a model this install has not built.
    spymasters = [s for s in SPYMASTERS if REGISTRY[s].available]
    guessers = [g for g in GUESSERS if REGISTRY[g].available]
    print(f"codenames-ai {__version__}, Python {platform.python_version()}, {platform.machine()}"
          f"; {args.boards} boards (seeds 0..{args.boards - 1}) per edition, vocabulary "
          f"{args.vocabulary:,}{'' if minilm else '; MiniLM not built: same-model pairs only'}")
    editions = ("words", "pictures") if args.edition == "both" else (args.edition,)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for edition in editions:
            print(f"single-team race, {edition.capitalize():<8}                      win [95% CI]"
                  "          turns  ass/100  prec  number")
            jobs = [(s, g, args.boards, args.cache_dir, args.vocabulary, edition)
                    for s in spymasters for g in guessers]
            for spymaster_id, guesser_id, figures, seconds in pool.map(run_pair, jobs):
                print(f"{spymaster_id:<30} {guesser_id:<26} {summary(figures)}  "
                      f"({seconds:.0f} s)", flush=True)
        print("two-team: EV spymaster against a baseline, same guesser on both teams")
        duels = [(b, g, args.duels, args.cache_dir, args.vocabulary)
                 for b in ("glove-threshold-spymaster-v1", "glove-gap-spymaster-v1")
                 for g in ("glove-guesser-v1",) + (("minilm-guesser-v1",) if minilm else ())]
        for baseline_id, guesser_id, wins in pool.map(run_duel, duels):
            low, high = wilson(sum(wins), len(wins))
            print(f"  EV vs {baseline_id:<28} ({guesser_id}): EV wins {sum(wins) / len(wins):.1%}"
                  f" [{low:.1%}, {high:.1%}] of {len(wins)}", flush=True)
    print("EV spymaster clue latency (one process, one core):")
    latency(args.cache_dir, args.latency_boards)


if __name__ == "__main__":
    main()
