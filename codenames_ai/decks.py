"""Word decks on disk: the shipped ``wordlists/`` and a user's own files."""

from __future__ import annotations

from pathlib import Path

from .core.board import check_deck, check_word_cards
from .deckfiles import MAX_DECK_BYTES, read_deck_text, wordlists_dir

__all__ = ["DEFAULT_DECKS", "MAX_DECK_BYTES", "WORD_DECKS", "default_deck", "read_deck",
           "read_deck_text", "read_word_list", "word_deck", "wordlists_dir"]

DEFAULT_DECKS = {"words": "words.txt", "pictures": "pictures.tsv"}
# The shipped word decks by name (the web offers each; the panels keep tables of each).
WORD_DECKS = {"words": "words.txt", "words-large": "words-large.txt"}
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
