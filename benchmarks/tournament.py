"""Tournament throughput: games per second by backend and worker count.

Run by hand: ``python -m benchmarks.tournament [--games 400] [--repeats 3] [--no-ray]
[--write-figures]``.
Each row is a whole ``run_tournament`` into a fresh results folder (workers started, every
game played, written and fsync'd, the summary computed), the median of ``--repeats`` runs,
with its speed-up over the serial backend measured in this same process.

Two agent pairs: a cheap one (the random baselines: what the harness itself costs) and the
default embedding agents (GloVe EV spymaster and guesser, self-play). ``--write-figures``
writes both pairs' rates to ``docs/figures/tournament.json`` and puts them in the README
(``benchmarks/figures.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from codenames_ai import __version__
from codenames_ai.harness.backends import Backend, PoolBackend, SerialBackend
from codenames_ai.harness.run import run_tournament
from codenames_ai.harness.spec import TournamentSpec

from . import figures

PAIRS = {
    "random baselines": (["random-spymaster-v1"], ["random-guesser-v1"]),
    "default embedding agents": (["glove-ev-spymaster-v1"], ["glove-guesser-v1"]),
}


def games_per_second(spec: TournamentSpec, backend: Backend, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            run_tournament(spec, Path(folder), backend, quiet=True)
            rates.append(spec.games / (time.perf_counter() - started))
    return statistics.median(rates)


def rates_text(rates: dict[str, float]) -> str:
    """A pair's rates as the README says them: ``64 games/s serial, 73 with one pool worker,
    115 with two (x1.80), 73 on a local Ray``."""
    serial = rates["serial"]
    parts = [f"{serial:.0f} games/s serial"]
    for name, rate in rates.items():
        if name.startswith("pool"):
            workers = int(name.split()[1])
            said = {1: "one pool worker", 2: "two"}.get(workers, f"{workers}")
            parts.append(f"{rate:.0f} with {said}" + (f" (x{rate / serial:.2f})"
                                                      if workers > 1 else ""))
        elif name.startswith("ray"):
            parts.append(f"{rate:.0f} on a local Ray")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray rows")
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/tournament.json and the README's figures")
    args = parser.parse_args(argv)
    commit = figures.git_commit()  # the code measured, before anything changes
    cores = os.cpu_count() or 1
    print(f"codenames-ai {__version__}, Python {platform.python_version()}, {cores} cores, "
          f"{args.games} games per run, median of {args.repeats}")
    backends: list[tuple[str, Backend]] = [("serial", SerialBackend())]
    backends += [(f"pool {n} worker(s)", PoolBackend(n, args.batch_size))
                 for n in sorted({1, cores})]
    if not args.no_ray:
        try:
            from codenames_ai.harness.ray_backend import RayBackend

            backends.append((f"ray {cores} CPUs", RayBackend(None, cores, args.batch_size)))
        except Exception as exc:  # the extra is optional
            print(f"(no Ray rows: {exc})")
    measured: dict[str, dict[str, float]] = {}
    for pair, (spymasters, guessers) in PAIRS.items():
        spec = TournamentSpec.from_options(spymasters=spymasters, guessers=guessers,
                                           games=args.games, seed=1)
        print(f"\n{pair}")
        print(f"  {'backend':22} {'games/s':>9} {'vs serial':>10}")
        baseline = None
        for name, backend in backends:
            rate = games_per_second(spec, backend, args.repeats)
            measured.setdefault(pair, {})[name] = rate
            baseline = baseline or rate
            print(f"  {name:22} {rate:9.1f} {rate / baseline:9.2f}x", flush=True)
    if args.write_figures:
        given = sys.argv[1:] if argv is None else argv
        figures.write("tournament", figures.command_line("benchmarks.tournament", given), {
            "embedding": rates_text(measured["default embedding agents"]),
            "random": rates_text(measured["random baselines"])}, commit=commit)


if __name__ == "__main__":
    main()
