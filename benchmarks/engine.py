"""Rules-core throughput: games per second, and the cost of agents, records and replay.

Run by hand: ``python -m benchmarks.engine [--games 500] [--repeats 5]``. Prints the median
of repeated runs for each stage and its ratio to the bare engine, all in this one process.

- bare engine: ``GameState`` driven with random legal moves, no views, no agents;
- runner: ``play_game`` with the random baseline agents (views built for every move);
- record: ``to_jsonl`` + ``from_jsonl`` of the finished game;
- replay: ``replay`` of the parsed record (every event re-checked).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from codenames_ai import __version__
from codenames_ai.agents import RandomGuesser, RandomSpymaster
from codenames_ai.core import (
    WORDS,
    Clue,
    Cover,
    GameRecord,
    GameState,
    Guess,
    Pass,
    Phase,
    Seats,
    deal,
    play_game,
    replay,
)
from codenames_ai.decks import default_deck

DECK = default_deck("words")


def bare_game(seed: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(WORDS, deal(WORDS, DECK, seed))
    while not state.is_over:
        if state.phase is Phase.CLUE:
            state.apply(Clue(f"clue{state.turn}", rng.randint(1, 2)))
        elif state.phase is Phase.COVER:
            state.apply(Cover(rng.choice(state.cover_candidates())))
        else:
            moves = state.legal_actions()
            if Pass() in moves and rng.random() < 0.2:
                state.apply(Pass())
            else:
                state.apply(rng.choice([m for m in moves if isinstance(m, Guess)]))
    return state


def runner_game(seed: int) -> GameRecord:
    seats = Seats.standard(
        red_spymaster=RandomSpymaster(DECK), red_guesser=RandomGuesser(stop_probability=0.2),
        blue_spymaster=RandomSpymaster(DECK), blue_guesser=RandomGuesser(stop_probability=0.2))
    return play_game(WORDS, seats, seed=seed, deck=DECK)


def timed(stage: Callable[[int], object], games: int, repeats: int) -> float:
    """Median seconds per game over ``repeats`` runs of ``games`` games."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for seed in range(games):
            stage(seed)
        runs.append((time.perf_counter() - start) / games)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    records = [runner_game(seed) for seed in range(args.games)]
    texts = [r.to_jsonl() for r in records]
    parsed = [GameRecord.from_jsonl(t) for t in texts]
    stages: dict[str, Callable[[int], object]] = {
        "bare engine": bare_game,
        "runner + random agents": runner_game,
        "record write + parse": lambda i: GameRecord.from_jsonl(records[i].to_jsonl()),
        "replay": lambda i: replay(parsed[i]),
    }
    print(f"codenames-ai {__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}; Words edition, {args.games} games x {args.repeats} repeats")
    baseline = None
    for name, stage in stages.items():
        seconds = timed(stage, args.games, args.repeats)
        baseline = baseline or seconds
        print(f"{name:<24} {seconds * 1e3:8.3f} ms/game  {1 / seconds:9.0f} games/s  "
              f"x{seconds / baseline:5.2f} of bare engine")


if __name__ == "__main__":
    main()
