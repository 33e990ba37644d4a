"""How a picture's tags should make its meaning: every spymaster meaning x guesser meaning.

Run by hand: ``python -m benchmarks.pictures [--boards 300] [--cache-dir DIR] [--workers 2]``.
Single-team races (the AIIDE format) on Pictures boards dealt from the shipped emoji deck,
the GloVe EV spymaster with each picture meaning (``mean``, ``weighted``, ``max``) against the
GloVe guesser with each meaning. A guesser reading pictures another way stands in for a
different mind looking at the same picture; with the MiniLM model built (``codenames models
build minilm``) the MiniLM guesser is a different model too. Same figures as
``benchmarks.agents``: win rate [95% CI], mean turns of wins, assassin losses per 100, clue
precision, mean clue number.
"""

from __future__ import annotations

import argparse
import platform
from concurrent.futures import ProcessPoolExecutor

from codenames_ai import __version__
from codenames_ai.agents import make_agent
from codenames_ai.agents.evaluation import GameFigures, single_team
from codenames_ai.core import PICTURES
from codenames_ai.decks import default_deck
from codenames_ai.vectors import ModelStore
from codenames_ai.vectors.model import PICTURE_MEANINGS

from .agents import summary


def run(job: tuple[str, str, str, int, str | None]) -> tuple[str, str, str, list[GameFigures]]:
    spymaster_meaning, guesser_id, guesser_meaning, boards, cache_dir = job
    spymaster = make_agent("glove-ev-spymaster-v1", cache_dir=cache_dir,
                           picture_meaning=spymaster_meaning)
    guesser = make_agent(guesser_id, cache_dir=cache_dir, picture_meaning=guesser_meaning)
    deck = default_deck("pictures")
    figures = [single_team(PICTURES, deck, seed, spymaster, guesser) for seed in range(boards)]
    return spymaster_meaning, guesser_id, guesser_meaning, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    guessers = ["glove-guesser-v1"]
    if ModelStore(args.cache_dir).has("minilm"):
        guessers.append("minilm-guesser-v1")
    print(f"codenames-ai {__version__}, Python {platform.python_version()}; {args.boards} "
          f"Pictures boards (seeds 0..{args.boards - 1}), {len(default_deck('pictures'))} "
          "shipped pictures; spymaster glove-ev-spymaster-v1")
    print(f"{'spymaster meaning':<18} {'guesser':<20} {'meaning':<9} win [95% CI]"
          "          turns  ass/100  prec  number")
    jobs = [(s, g, m, args.boards, args.cache_dir)
            for g in guessers for s in PICTURE_MEANINGS for m in PICTURE_MEANINGS]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for spymaster_meaning, guesser_id, guesser_meaning, figures in pool.map(run, jobs):
            print(f"{spymaster_meaning:<18} {guesser_id:<20} {guesser_meaning:<9} "
                  f"{summary(figures)}", flush=True)


if __name__ == "__main__":
    main()
