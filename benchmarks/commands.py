"""One warm ``codenames clue`` and ``codenames guess`` on a board you type in: the whole command,
start to answer, as a person at a physical table or a researcher's script runs it.

Run by hand: ``python -m benchmarks.commands [--runs 5] [--write-figures]``.

Four boards of 25 cards: the first 25 cards of the Words deck, and three boards of held-out
nouns (``benchmarks/heldout_nouns.txt``: cards in no shipped deck, so no deck table holds
them). For each board and command, one untimed run first (it prepares what the cache lacks:
the prepared lexicon, the clue words' legality), then ``--runs`` timed runs; prints the median
wall seconds and the largest peak memory (the process's maximum resident set, from ``wait4``
in a small launcher: ``firstrun.measured``) of the timed runs. Python's bytecode cache is
allowed (``PYTHONDONTWRITEBYTECODE`` is unset for the runs), as on an installed toolkit.
``--write-figures`` writes ``docs/figures/commands.json`` and the README's figures
(``benchmarks/figures.py``).

``--user-model N`` also measures a model of your own: a word2vec binary file of N words x 300
dimensions (GloVe's words first, then made-up ones; random vectors) is written to a temporary
folder, added with ``codenames models add`` into a temporary cache, and used by
``codenames clue --spymaster glove-ev-spymaster-v1 --model big``; prints the file's size and
each command's peak memory (``--user-model 1000000`` writes 1.2 GB and takes about a minute).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

import numpy as np

from . import figures
from .firstrun import codenames, measured
from .minds import heldout_deck

KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA"


def run(arguments: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One command: its wall seconds and peak MB (a failure ends the benchmark)."""
    seconds, peak, code, error = measured([codenames(), *arguments], env)
    if code != 0:
        raise SystemExit(f"commands: codenames {' '.join(arguments[:1])} failed: {error}")
    return seconds, peak


def boards() -> dict[str, list[str]]:
    from codenames_ai.decks import default_deck

    nouns = list(heldout_deck(None))
    return {"Words deck": list(default_deck("words")[:25]),
            **{f"held-out {n + 1}": nouns[25 * n:25 * n + 25] for n in range(3)}}


def commands(cards: list[str]) -> dict[str, list[str]]:
    board = ",".join(cards)
    return {"clue": ["clue", "--board", board, "--key", KEY, "--team", "red"],
            "guess": ["guess", "--board", board, "--clue", "animal", "--number", "2"]}


def measure(runs: int, env: dict[str, str]) -> dict[tuple[str, str], tuple[float, float]]:
    found = {}
    for name, cards in boards().items():
        for command, arguments in commands(cards).items():
            run(arguments, env)  # untimed: prepares what the cache lacks
            timed = [run(arguments, env) for _ in range(runs)]
            seconds = statistics.median(s for s, _ in timed)
            peak = max(mb for _, mb in timed)
            found[(name, command)] = (seconds, peak)
            print(f"  {command:6} {name:11} {seconds:6.2f} s {peak:6.0f} MB", flush=True)
    return found


def write_user_model(path: Path, rows: int, dimensions: int = 300) -> None:
    """A word2vec binary file: GloVe's words (real words, for the clue vocabulary), then
    made-up ones, each with a random vector (seeded)."""
    from codenames_ai.vectors import load_model

    words = load_model("glove-6b-50d").words[:rows]
    words += [f"zzword{i}" for i in range(rows - len(words))]
    rng = np.random.default_rng(0)
    with open(path, "wb") as out:
        out.write(f"{rows} {dimensions}\n".encode())
        for start in range(0, rows, 50_000):
            block = rng.normal(size=(min(50_000, rows - start), dimensions)).astype(np.float32)
            for word, vector in zip(words[start:start + len(block)], block, strict=True):
                out.write(word.encode() + b" " + vector.tobytes())


def user_model(rows: int, env: dict[str, str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.bin"
        write_user_model(path, rows)
        size = path.stat().st_size / 2**20
        local = {**env, "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        added, add_peak = run(["models", "add", "big", str(path), "--format", "word2vec-bin"],
                              local)
        path.unlink()  # the cache holds the model now
        cards = boards()["held-out 1"]
        arguments = [*commands(cards)["clue"], "--spymaster", "glove-ev-spymaster-v1",
                     "--model", "big"]
        first = run(arguments, local)
        warm = run(arguments, local)
    print(f"  a model of {rows:,} words x 300: file {size:,.0f} MB; add {added:.1f} s, peak "
          f"{add_peak:,.0f} MB; a clue with it: first {first[0]:.1f} s, {first[1]:,.0f} MB; "
          f"warm {warm[0]:.2f} s, {warm[1]:,.0f} MB")
    return {"size": size, "add_peak": add_peak, "first_peak": first[1], "warm": warm[0],
            "warm_peak": warm[1]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command")
    parser.add_argument("--user-model", type=int, default=0, metavar="N",
                        help="also measure a model of N words x 300 of your own")
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/commands.json and the README's figures")
    args = parser.parse_args(argv)
    if args.runs < 1:
        raise SystemExit("commands: --runs must be at least 1")
    commit = figures.git_commit()
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONDONTWRITEBYTECODE"}
    print(f"warm commands, median of {args.runs} runs (peak memory: the largest)")
    found = measure(args.runs, env)
    held = [found[(f"held-out {n}", "clue")] for n in (1, 2, 3)]
    held_guess = [found[(f"held-out {n}", "guess")] for n in (1, 2, 3)]
    text = {
        "clue_deck": "{:.2f} s and {:.0f} MB".format(*found[("Words deck", "clue")]),
        "guess_deck": "{:.2f} s and {:.0f} MB".format(*found[("Words deck", "guess")]),
        "clue_heldout": f"{min(s for s, _ in held):.2f} to {max(s for s, _ in held):.2f} s "
                        f"and at most {max(mb for _, mb in held):.0f} MB",
        "guess_heldout": f"{min(s for s, _ in held_guess):.2f} to "
                         f"{max(s for s, _ in held_guess):.2f} s and at most "
                         f"{max(mb for _, mb in held_guess):.0f} MB",
    }
    if args.user_model:
        model = user_model(args.user_model, env)
        text["user_model"] = (
            f"a {args.user_model:,}-word x 300 file of {model['size']:,.0f} MB: added at "
            f"{model['add_peak']:,.0f} MB peak, its first clue at {model['first_peak']:,.0f} "
            f"MB, a warm clue {model['warm']:.1f} s at {model['warm_peak']:,.0f} MB")
    if args.write_figures:
        import sys

        given = sys.argv[1:] if argv is None else argv
        figures.write("commands", figures.command_line("benchmarks.commands", given), text,
                      commit=commit)


if __name__ == "__main__":
    main()
