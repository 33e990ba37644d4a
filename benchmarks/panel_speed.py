"""Speed of the default pair beside the v1 agents: clue latency and tournament throughput.

Run by hand: ``python -m benchmarks.panel_speed [--boards 200] [--games 400] [--repeats 3]``.
Clue latency: the median (and 95th percentile) ms of a spymaster's clue on fresh boards (the
board's similarity matrix included), BLAS held to one thread, at the panel's own familiar
vocabulary and at 25k and 50k candidates (for those the familiarity filter is off, to reach
the size), beside the GloVe EV spymaster (v1) at 25k and 50k. Throughput: whole
``run_tournament`` runs on the process-pool backend with two workers, median of repeats, for
the default pair (panel spymaster and guesser) and the v1 pair (GloVe EV spymaster and
guesser).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from codenames_ai import __version__
from codenames_ai.agents import make_agent
from codenames_ai.agents.panel import PanelSpymaster
from codenames_ai.core import WORDS, GameState, deal
from codenames_ai.decks import default_deck
from codenames_ai.harness.backends import PoolBackend
from codenames_ai.harness.spec import TournamentSpec

from .tournament import games_per_second


def clue_ms(spymaster: Any, boards: int) -> tuple[float, float, int]:
    deck = default_deck("words")
    views = []
    for seed in range(boards):
        state = GameState(WORDS, deal(WORDS, deck, seed))
        views.append(state.spymaster_view(state.current_team))
    spymaster.give_clue(views[-1])  # the first call builds the legality index
    times = []
    for view in views:
        start = time.perf_counter()
        spymaster.give_clue(view)
        times.append(time.perf_counter() - start)
    size = len(spymaster.panel.words if hasattr(spymaster, "panel") else spymaster.space.words)
    return 1e3 * statistics.median(times), 1e3 * float(np.quantile(times, 0.95)), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"codenames-ai {__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}; {args.boards} fresh Words boards per row, one BLAS thread")
    rows: list[tuple[str, Any]] = [("panel-spymaster-v2 (familiar words)", PanelSpymaster())]
    for size in (25_000, 50_000):
        rows.append((f"panel-spymaster-v2 @{size // 1000}k", PanelSpymaster(
            vocabulary_size=size, min_zipf=None)))
    for size in (25_000, 50_000):
        rows.append((f"glove-ev-spymaster-v1 @{size // 1000}k",
                     make_agent("glove-ev-spymaster-v1", vocabulary_size=size)))
    print(f"  {'spymaster':40} {'candidates':>10} {'median ms':>10} {'p95 ms':>8}")
    with threadpool_limits(1):
        for label, agent in rows:
            median, p95, size = clue_ms(agent, args.boards)
            print(f"  {label:40} {size:10,} {median:10.2f} {p95:8.2f}", flush=True)
    print(f"tournament throughput, pool backend, 2 workers, {args.games} games, median of "
          f"{args.repeats}")
    for spymaster, guesser in (("panel-spymaster-v2", "panel-guesser-v2"),
                               ("glove-ev-spymaster-v1", "glove-guesser-v1")):
        spec = TournamentSpec.from_options(spymasters=[spymaster], guessers=[guesser],
                                           games=args.games, seed=1)
        rate = games_per_second(spec, PoolBackend(2, 16), args.repeats)
        print(f"  {spymaster} + {guesser}: {rate:.1f} games/s", flush=True)


if __name__ == "__main__":
    main()
