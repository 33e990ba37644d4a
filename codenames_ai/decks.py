"""Word decks on disk: the shipped ``wordlists/`` and a user's own files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .core.board import check_deck, check_word_cards
from .core.errors import DeckError
from .files import read_bounded

DEFAULT_DECKS = {"words": "words.txt", "pictures": "pictures.tsv"}
# The shipped word decks by name (the web offers each; the panels keep tables of each).
WORD_DECKS = {"words": "words.txt", "words-large": "words-large.txt"}
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


def read_word_list(path: str | Path, *, needed: int = 1) -> tuple[str, ...]:
    """Read a word list: one card per line, blank lines and ``#`` comments ignored.

    Raises ``DeckError`` naming the file for a missing or unreadable file, a card that is not
    words of letters (``core.board.check_word_cards``), duplicates, or fewer than ``needed``
    cards.
    """
    path = Path(path)
    text = read_deck_text(path, "word list")
    words = tuple(line.strip() for line in text.splitlines()
                  if line.strip() and not line.lstrip().startswith("#"))
    check_word_cards(words, needed, source=str(path))
    return words


def default_deck(edition: str = "words", *, needed: int = 1) -> tuple[str, ...]:
    """The deck shipped for ``edition``: the emoji picture deck for Pictures (card names are
    the pictures), the word deck for Words and custom layouts."""
    if edition == "pictures":
        from .pictures import shipped_deck

        names = shipped_deck().names
        check_deck(names, needed, source=DEFAULT_DECKS["pictures"])
        return names
    return read_word_list(wordlists_dir() / DEFAULT_DECKS["words"], needed=needed)


def word_deck(name: str, *, needed: int = 1) -> tuple[str, ...]:
    """A shipped word deck by its name in ``WORD_DECKS``."""
    return read_word_list(wordlists_dir() / WORD_DECKS[name], needed=needed)


def read_deck(path: str | Path, *, needed: int = 1) -> tuple[str, ...]:
    """A user's deck: a word list (``.txt``), an emoji picture deck (``.tsv``), or a folder of
    images with a captions file. Only the card names: a caller that plays a picture deck
    reads it with ``pictures.load_deck`` and passes its ``captions`` on."""
    path = Path(path)
    if path.is_dir() or path.suffix.lower() == ".tsv":
        from .pictures import load_deck

        return load_deck(path, needed=needed).names
    return read_word_list(path, needed=needed)
