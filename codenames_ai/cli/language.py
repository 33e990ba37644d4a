"""The language data the clue rules read, prepared before a command checks words of any board."""
from __future__ import annotations

import typer


def prepare_language_data() -> None:
    """Open the prepared lexicon, preparing it first when the cache lacks it (once per
    version, about 20 s, shown on standard error): then a card or a clue outside the decks is
    checked without loading the language packages' tables (``legality/prepared.py``)."""
    from ..legality.language import ensure_prepared

    shown = False

    def progress(done: int, total: int) -> None:
        nonlocal shown
        if not shown:
            typer.echo("Preparing the language data the clue rules read (once, about 20 s) "
                       "... ", err=True, nl=False)
            shown = True
        if done == total:
            typer.echo("done", err=True)

    ensure_prepared(progress=progress)
