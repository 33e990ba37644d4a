"""Which lexicon the clue rules read: the prepared one in the cache once it exists
(``prepared.py``: opened in milliseconds), else the language packages' own tables
(``lexicon.py``: about 2 s and 300 MB to load)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from ..files import default_cache_dir
from ..once import built_once
from .lexicon import Lexicon, WordLookups
from .prepared import PreparedLexicon, Progress, find_prepared, prepare_in_cache

log = logging.getLogger(__name__)


@built_once()
def lexicon() -> WordLookups:
    """The process-wide lexicon: the prepared one when it has been prepared
    (``ensure_prepared``), else the packages' tables (loaded once)."""
    found = find_prepared()
    return found if found is not None else Lexicon()


def ensure_prepared(cache_root: Path | None = None, *,
                    progress: Progress | None = None) -> PreparedLexicon | None:
    """The prepared lexicon, prepared first when the cache lacks it (``prepare_in_cache``);
    ``lexicon()`` answers from it from then on. ``None`` when the cache cannot be written (a
    read-only mount): the packages' tables are read as before."""
    root = cache_root or default_cache_dir()
    found = find_prepared(root)
    if found is None:
        try:
            found = prepare_in_cache(root, progress)
        except OSError as exc:
            log.warning("cannot prepare the lexicon in %s (%s); reading the packages' tables",
                        root, exc)
            return None
    if cache_root is None and not isinstance(lexicon(), PreparedLexicon):
        lexicon.cache_clear()  # the tables loaded before are let go
    return found


def main() -> int:
    """``python -m codenames_ai.legality.language``: prepare the lexicon now, with progress."""
    import time

    started = time.perf_counter()
    prepared = ensure_prepared(progress=lambda done, total: print(
        f"\r  {done:,}/{total:,} words", end="", file=sys.stderr, flush=True))
    if prepared is None:
        print("the cache folder cannot be written; see the warning above", file=sys.stderr)
        return 1
    print(f"\n{prepared.path} ready in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
