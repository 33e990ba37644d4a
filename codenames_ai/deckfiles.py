"""Where deck files are and how their text is read, for the word decks (``decks``) and the
picture decks (``pictures``) alike."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .core.errors import DeckError
from .files import read_bounded

# The most read from a deck or captions file: a deck of 100,000 cards is about 1 MB.
MAX_DECK_BYTES = 16 << 20


def wordlists_dir() -> Path:
    """The shipped ``wordlists/`` folder (inside the wheel, or at the top of a checkout)."""
    candidates = [
        Path(str(resources.files("codenames_ai"))) / "wordlists",  # installed wheel
        Path(__file__).resolve().parent.parent / "wordlists",  # editable install / checkout
    ]
    for folder in candidates:
        if folder.is_dir():
            return folder
    raise DeckError("the shipped wordlists/ folder is missing; reinstall codenames-ai")


def read_deck_text(path: Path, what: str) -> str:
    """A deck file's text; ``DeckError`` names the file for a missing, unreadable or too
    large one (over ``MAX_DECK_BYTES``: ``/dev/zero`` is refused, not read for ever)."""
    try:
        return read_bounded(path, MAX_DECK_BYTES).decode("utf-8-sig")  # a BOM is no card
    except FileNotFoundError:
        raise DeckError(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"{path}: cannot read the {what} ({exc})") from None
