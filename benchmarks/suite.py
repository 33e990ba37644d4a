"""Every benchmark of the project in one run: ``python -m benchmarks [--quick]``.

Sections: ``engine`` (games per second of the rules core), ``legality`` (filtering a
vocabulary against a board), ``models`` (loading the default model), ``latency`` (EV clue
time and its scaling with the vocabulary), ``strength`` (single-team races same-model and
cross-model, Words and Pictures), ``tournament`` (games per second by backend). It prints one
table and writes a JSON of every figure with the machine, versions, seeds and commit
(``--json FILE``, default ``benchmarks/results/<date>.json``); ``--compare OLD.json`` prints
each figure beside the old one. ``--quick`` takes a few minutes; the full run takes longer.
Times are medians of repeated runs; nothing here is a test and nothing asserts a speed.
``--write-figures`` writes the whole run's wall time to ``docs/figures/quick.json`` (with
``--quick``; ``benchmarks/figures.py``) and puts it in the README.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

FORMAT = "codenames-ai/benchmarks"
SEED = 0  # boards are seeds 0..n-1 in every section
RESULTS = Path(__file__).resolve().parent / "results"
# (figure name fragment, better): how to read a change
LOWER_IS_BETTER = ("ms", " s", "assassin")
CACHE_DIR: list[str | None] = [None]  # the model cache (--cache-dir), for MiniLM pairs


def engine(quick: bool) -> dict[str, float]:
    from codenames_ai.core import GameRecord, replay

    from .engine import bare_game, runner_game, timed

    games, repeats = (150, 3) if quick else (500, 5)
    records = [runner_game(seed) for seed in range(games)]
    parsed = [GameRecord.from_jsonl(r.to_jsonl()) for r in records]
    return {
        "bare engine ms/game": 1e3 * timed(bare_game, games, repeats),
        "runner + random agents ms/game": 1e3 * timed(runner_game, games, repeats),
        "record write + parse ms/game": 1e3 * timed(
            lambda i: GameRecord.from_jsonl(records[i].to_jsonl()), games, repeats),
        "replay ms/game": 1e3 * timed(lambda i: replay(parsed[i]), games, repeats),
    }


def legality(quick: bool) -> dict[str, float]:
    from .legality import filter_figures

    figures = filter_figures(10_000 if quick else 50_000, 10 if quick else 20,
                             1 if quick else 2, show=False)
    del figures["language data load s"]  # loaded by an earlier section: not measured here
    return figures


def models(quick: bool) -> dict[str, float]:
    from .models import load_figures

    return load_figures(2 if quick else 5)


def latency(quick: bool) -> dict[str, float]:
    from .agents import latency as clue_latency

    return clue_latency(CACHE_DIR[0], 20 if quick else 100, show=False)


def strength(quick: bool) -> dict[str, float]:
    """Single-team race win rate and assassin losses per 100, per pair and edition."""
    from codenames_ai.vectors import ModelStore

    from .agents import run_pair

    boards = 30 if quick else 200
    pairs = [("glove-ev-spymaster-v1", "glove-guesser-v1"),
             ("glove-threshold-spymaster-v1", "glove-guesser-v1")]
    if ModelStore(CACHE_DIR[0]).has("minilm"):  # cross-model pairs need the MiniLM model
        pairs += [("glove-ev-spymaster-v1", "minilm-guesser-v1"),
                  ("ensemble-ev-spymaster-v1", "minilm-guesser-v1")]
    figures: dict[str, float] = {}
    for edition in ("words", "pictures"):
        for spymaster, guesser in pairs:
            _, _, games, _ = run_pair((spymaster, guesser, boards, CACHE_DIR[0], 25_000,
                                       edition))
            name = f"{edition} {spymaster} + {guesser}"
            figures[f"{name} win %"] = 100 * sum(g.won for g in games) / len(games)
            figures[f"{name} assassin /100"] = 100 * sum(g.assassin for g in games) / len(games)
    return figures


def tournament(quick: bool) -> dict[str, float]:
    from codenames_ai.harness import PoolBackend, SerialBackend, TournamentSpec

    from .tournament import PAIRS, games_per_second

    games, repeats = (100, 1) if quick else (400, 3)
    workers = os.cpu_count() or 1
    figures: dict[str, float] = {}
    for pair, (spymasters, guessers) in PAIRS.items():
        spec = TournamentSpec.from_options(spymasters=spymasters, guessers=guessers,
                                           games=games, seed=1)
        figures[f"{pair} serial games/s"] = games_per_second(spec, SerialBackend(), repeats)
        figures[f"{pair} pool x{workers} games/s"] = games_per_second(
            spec, PoolBackend(workers), repeats)
    return figures


SECTIONS: dict[str, Callable[[bool], dict[str, float]]] = {
    "engine": engine, "legality": legality, "models": models, "latency": latency,
    "strength": strength, "tournament": tournament,
}


def better(name: str) -> str:
    return "lower" if any(token in name for token in LOWER_IS_BETTER) else "higher"


def environment() -> dict[str, Any]:
    versions = {}
    for package in ("codenames-ai", "numpy", "gensim", "ray", "fastapi", "pettingzoo"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {"machine": {"platform": platform.platform(), "machine": platform.machine(),
                        "cpus": os.cpu_count(), "python": platform.python_version()},
            "versions": versions, "commit": commit, "seeds": {"boards": f"{SEED}..n-1"}}


def run(sections: list[str], quick: bool) -> dict[str, Any]:
    document: dict[str, Any] = {"format": FORMAT, "version": 1,
                                "created": datetime.now(UTC).isoformat(),
                                "quick": quick, **environment(), "figures": {}, "seconds": {}}
    for section in sections:
        started = time.perf_counter()
        print(f"running {section} ...", file=sys.stderr, flush=True)
        figures = SECTIONS[section](quick)
        document["figures"][section] = {name: round(value, 4) for name, value in figures.items()}
        document["seconds"][section] = round(time.perf_counter() - started, 1)
    return document


def table(document: dict[str, Any], old: dict[str, Any] | None = None) -> str:
    lines = [f"codenames-ai {document['versions'].get('codenames-ai')} at "
             f"{(document['commit'] or 'no commit')[:10]}, {document['machine']['platform']}, "
             f"{document['machine']['cpus']} cpus, Python {document['machine']['python']}"
             f"{', quick' if document['quick'] else ''}"]
    header = f"{'figure':<72} {'value':>10}"
    if old is not None:
        header += f" {'before':>10} {'change':>8}"
    for section, figures in document["figures"].items():
        lines += ["", f"{section} ({document['seconds'][section]} s)", header]
        for name, value in figures.items():
            row = f"{name:<72} {value:>10.3f}"
            previous = (old or {}).get("figures", {}).get(section, {}).get(name)
            if old is not None:
                if previous is None:
                    row += f" {'-':>10} {'new':>8}"
                else:
                    change = (value - previous) / previous * 100 if previous else 0.0
                    good = (change < 0) == (better(name) == "lower") or change == 0
                    row += f" {previous:>10.3f} {change:>+7.1f}%{'' if good else ' worse'}"
            lines.append(row)
    return "\n".join(lines)


def load(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"error: {path}: cannot read benchmark figures ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SystemExit(f"error: {path} is not a benchmark file of this suite")
    return document


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a few minutes")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections ({', '.join(SECTIONS)})")
    parser.add_argument("--json", type=Path, default=None, help="where to write the figures")
    parser.add_argument("--compare", type=Path, default=None, help="an earlier run's JSON")
    parser.add_argument("--cache-dir", default=None,
                        help="model cache; with MiniLM built there, cross-model pairs run too")
    parser.add_argument("--write-figures", action="store_true",
                        help="write the run's time to docs/figures/quick.json and the README")
    args = parser.parse_args(argv)
    from . import figures as doc_figures

    if args.write_figures and not args.quick:
        raise SystemExit("error: --write-figures times the --quick run the README quotes")
    commit = doc_figures.git_commit()  # the code measured, before anything changes
    started = time.perf_counter()
    CACHE_DIR[0] = args.cache_dir
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise SystemExit(f"error: unknown section(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(SECTIONS)}")
    old = load(args.compare) if args.compare else None
    document = run(sections, args.quick)
    print(table(document, old))
    path = args.json or RESULTS / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"\nfigures written to {path}")
    if args.write_figures:
        given = sys.argv[1:] if argv is None else argv
        doc_figures.write("quick", doc_figures.command_line("benchmarks", given),
                          {"time": doc_figures.seconds_text(time.perf_counter() - started)},
                          commit=commit)
