"""The plugin walkthrough of ``docs/api.md``, timed as a reader runs it.

Run by hand: ``python -m benchmarks.walkthrough [--repeats 1] [--write-figures]``.

Writes the page's ``my_spymaster.py`` (its Python block that starts with that name) into a new
folder and times ``python my_spymaster.py`` there: a 200-game tournament on the process pool,
one worker per core. Prints each run's wall time; ``--write-figures`` writes the median to
``docs/figures/walkthrough.json`` and puts it in the page (``benchmarks/figures.py``). What the
script's tournament gives is checked by a test (``tests/test_readme_samples.py`` runs the
page's sample), not here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import figures

PAGE = figures.ROOT / "docs" / "api.md"
SCRIPT = "my_spymaster.py"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/walkthrough.json and the page's figure")
    args = parser.parse_args(argv)
    commit = figures.git_commit()  # the code measured, before anything changes
    script = figures.named_blocks(PAGE)[SCRIPT]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    times = []
    for n in range(args.repeats):
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / SCRIPT).write_text(script, encoding="utf-8")
            start = time.perf_counter()
            subprocess.run([sys.executable, SCRIPT], cwd=folder, env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        print(f"run {n + 1}: python {SCRIPT} took {times[-1]:.1f} s")
    if args.write_figures:
        given = sys.argv[1:] if argv is None else argv
        figures.write("walkthrough", figures.command_line("benchmarks.walkthrough", given),
                      {"time": figures.seconds_text(statistics.median(times))}, commit=commit)


if __name__ == "__main__":
    main()
