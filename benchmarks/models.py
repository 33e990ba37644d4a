"""Model loading: first conversion of the default model, then cold starts from the cache.

Run by hand: ``python -m benchmarks.models [--repeats 5] [--write-figures]``. Each cold start
is a fresh Python process that opens the cached model (word list + memory-mapped vectors) and
computes its unit vectors. Baselines, run the same way: gensim's own
``KeyedVectors.load(mmap="r")`` of the same vectors saved in gensim's native format (which must
import all of gensim, and unpickles: the cache keeps no such file, so one is written beside it
for this), and the conversion from the shipped files (what every start would cost without the
cache). ``--write-figures`` writes the cold start and the conversion to
``docs/figures/models.json`` and puts them in the README (``benchmarks/figures.py``).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from codenames_ai import __version__

from . import figures as doc_figures

COLD_START = """
import time; start = time.perf_counter()
from codenames_ai.vectors import load_model
model = load_model(cache_dir={cache!r}); model.unit_matrix
print(time.perf_counter() - start)
"""
GENSIM_LOAD = """
import time; start = time.perf_counter()
from gensim.models import KeyedVectors
vectors = KeyedVectors.load({path!r}, mmap="r"); vectors.get_normed_vectors()
print(time.perf_counter() - start)
"""
SAVE_GENSIM = """
from codenames_ai.vectors import ModelStore
ModelStore({cache!r}).load("glove-6b-50d").save({path!r}, sep_limit=0)
"""
CONVERT = """
import time; start = time.perf_counter()
from codenames_ai.vectors.default import build_glove_6b_50d
build_glove_6b_50d()
print(time.perf_counter() - start)
"""


def in_fresh_process(code: str, repeats: int) -> float:
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(runs)


def load_figures(repeats: int) -> dict[str, float]:
    """Seconds: first use (convert + cache), cold start from the cache, and the two baselines."""
    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", COLD_START.format(cache=cache)], check=True,
                       capture_output=True)
        first = time.perf_counter() - start
        cold = in_fresh_process(COLD_START.format(cache=cache), repeats)
        kv_path = f"{cache}/glove-6b-50d.kv"
        subprocess.run([sys.executable, "-c", SAVE_GENSIM.format(cache=cache, path=kv_path)],
                       check=True, capture_output=True)
        gensim_load = in_fresh_process(GENSIM_LOAD.format(path=kv_path), repeats)
    convert = in_fresh_process(CONVERT, max(1, repeats // 2))
    return {"first use s": first, "cold start s": cold, "gensim load baseline s": gensim_load,
            "convert baseline s": convert}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write-figures", action="store_true",
                        help="write docs/figures/models.json and the README's figures")
    args = parser.parse_args(argv)
    commit = doc_figures.git_commit()  # the code measured, before anything changes
    print(f"codenames-ai {__version__}, Python {platform.python_version()}, {platform.machine()}")
    figures = load_figures(args.repeats)
    first, cold = figures["first use s"], figures["cold start s"]
    gensim_load, convert = figures["gensim load baseline s"], figures["convert baseline s"]
    print(f"first use (convert + cache, whole process)  {first:6.2f} s")
    print(f"cold start from the cache (median of {args.repeats})     {cold:6.2f} s")
    print(f"  baseline: gensim KeyedVectors.load(mmap) {gensim_load:6.2f} s "
          f"(x{gensim_load / cold:.1f} slower)")
    print(f"  baseline: convert from shipped files      {convert:6.2f} s "
          f"(cache is x{convert / cold:.1f} faster)")
    if args.write_figures:
        given = sys.argv[1:] if argv is None else argv
        doc_figures.write("models", doc_figures.command_line("benchmarks.models", given), {
            "cold_start": f"{cold:.2f} s", "repeats": str(args.repeats),
            "convert": f"{convert:.1f} s"}, commit=commit)


if __name__ == "__main__":
    main()
