"""``python -m benchmarks``: the whole benchmark suite (see ``benchmarks/suite.py``)."""

from .suite import main

main()
