"""First run and later runs of ``codenames play``: the start-up the README's Quickstart quotes.

Run by hand: ``python -m benchmarks.firstrun [--first 3] [--later 3] [--write-figures]``.

Each first run is ``codenames play < /dev/null`` with an empty cache of its own
(``XDG_CACHE_HOME`` a new temporary folder): it converts the four models into the cache,
chooses the clue words, deals, shows the board and stops at the first prompt, as on a fresh
install. The later runs repeat the command on the last first run's cache. Prints each run's wall
time and peak memory (the process's maximum resident set, from ``wait4`` in a small launcher:
``measured``);
``--write-figures`` writes them to ``docs/figures/firstrun.json`` and puts them in the README
(``benchmarks/figures.py``). Give the runs the machine: other work slows a first run most.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from . import figures


def codenames() -> str:
    """The installed ``codenames`` script beside this Python, else the one on the path."""
    beside = Path(sys.executable).parent / "codenames"
    found = str(beside) if beside.exists() else shutil.which("codenames")
    if found is None:
        raise SystemExit("firstrun: the codenames command is not installed (pip install -e .)")
    return found


# A small Python that starts the command and reports its child's time and peak memory. A
# process forked from this benchmark would count this benchmark's memory as its own (Linux
# keeps the larger of the memory before and after ``exec``), so the command is started from a
# process that holds next to nothing, as /usr/bin/time does.
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\\n{time.perf_counter() - start} {usage.ru_maxrss} "
                 f"{os.waitstatus_to_exitcode(status)}\\n")
"""


def measured(argv: list[str], env: dict[str, str]) -> tuple[float, float, int, str]:
    """Run ``argv`` (stdin empty, stdout discarded): its wall seconds, peak MB (the maximum
    resident set), exit code and standard error."""
    with open(os.devnull, "rb") as stdin:
        done = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, *argv], stdin=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                              check=False)
    error, _, last = done.stderr.decode().rstrip("\n").rpartition("\n")
    seconds, peak_kb, code = last.split()
    return float(seconds), int(peak_kb) / 1024, int(code), error  # kB on Linux


def run_play(cache: Path, data: Path) -> tuple[float, float, str]:
    """One ``codenames play < /dev/null`` on ``cache``: its wall seconds, peak MB and what it
    said on standard error (what it prepared)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_DATA_HOME": str(data)}
    seconds, peak, code, error = measured([codenames(), "play"], env)
    if code != 0:
        raise SystemExit(f"firstrun: codenames play failed ({code}): {error}")
    return seconds, peak, error


def listed(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def span(values: list[float], fmt: str, unit: str) -> str:
    low, high = format(min(values), fmt), format(max(values), fmt)
    return f"{low} {unit}" if low == high else f"{low} to {high} {unit}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=3, help="first runs, each on a new cache")
    parser.add_argument("--later", type=int, default=3, help="later runs on the last cache")
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/firstrun.json and the README's figures")
    args = parser.parse_args(argv)
    if args.first < 1 or args.later < 1:
        raise SystemExit("firstrun: --first and --later must be at least 1")
    commit = figures.git_commit()  # the code measured, before anything changes
    with tempfile.TemporaryDirectory() as folder:
        firsts, laters = [], []
        for n in range(args.first):
            cache = Path(folder) / f"cache-{n}"
            firsts.append(run_play(cache, Path(folder) / "data"))
            print(f"first run {n + 1}: {firsts[-1][0]:.1f} s, {firsts[-1][1]:.0f} MB")
        for n in range(args.later):
            laters.append(run_play(cache, Path(folder) / "data"))
            said = laters[-1][2].strip().splitlines()
            print(f"later run {n + 1}: {laters[-1][0]:.2f} s, {laters[-1][1]:.0f} MB"
                  + (f" (it prepared again: {said[0]})" if said else ""))
    first_seconds = [s for s, _, _ in firsts]
    later_seconds, later_mb = [s for s, _, _ in laters], [mb for _, mb, _ in laters]
    if args.write_figures:
        given = sys.argv[1:] if argv is None else argv
        figures.write("firstrun", figures.command_line("benchmarks.firstrun", given), {
            "first_run": f"{statistics.median(first_seconds):.0f} s",
            "first_runs": listed([f"{s:.1f}" for s in first_seconds]) + " s",
            "later_runs": span(later_seconds, ".1f", "s"),
            "later_memory": span(later_mb, ".0f", "MB"),
        }, commit=commit)


if __name__ == "__main__":
    main()
