"""Picture decks for the Pictures edition: the shipped emoji deck and a user's image folder.

A picture card sits on the board under a name: the emoji themselves for the shipped deck
("🐒🧑‍🚀"), the file name for a user's image ("beach-dog.jpg"). Its meaning is its caption
tags, most important first ("monkey astronaut helmet space ape"). Whoever plays with a deck
passes its ``captions`` (card name -> tags) to the word vectors, the clue rules and the
agents, so two decks with a card of the same name never mix.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.board import MAX_CARD_LENGTH, check_deck
from .core.errors import DeckError
from .core.jsonlimits import JSONRefused, load_limited
from .deckfiles import MAX_DECK_BYTES, read_deck_text, wordlists_dir
from .files import read_bounded

SHIPPED_DECK = "pictures.tsv"
MIN_TAGS, MAX_TAGS = 3, 8
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp"})
CAPTION_FILES = ("captions.csv", "captions.json")
_TAG = re.compile(r"^[a-z][a-z'\-]*$")


@dataclass(frozen=True)
class PictureCard:
    """One picture: its board ``name``, caption ``tags`` (most important first), and the
    image file for a user's deck (None for an emoji card, whose name is the picture)."""

    name: str
    tags: tuple[str, ...]
    image: Path | None = None

    @property
    def emoji(self) -> str | None:
        return None if self.image is not None else self.name


# The picture cards in play: card name -> caption tags, most important first. Word cards are
# not in it.
Captions = Mapping[str, tuple[str, ...]]
NO_PICTURES: Captions = {}  # a plain dict (read-only by type): decks and agents pickle


@dataclass(frozen=True)
class PictureDeck:
    source: str
    cards: tuple[PictureCard, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(card.name for card in self.cards)

    @functools.cached_property
    def captions(self) -> Captions:
        """Each card's tags by card name: what vectors, clue rules and agents are given."""
        return {card.name: card.tags for card in self.cards}

    def card(self, name: str) -> PictureCard | None:
        return self._by_name.get(name)

    @functools.cached_property
    def _by_name(self) -> Mapping[str, PictureCard]:
        return {card.name: card for card in self.cards}


def shipped_captions() -> Captions:
    """The captions of the shipped emoji deck: what agents, clue rules and rendering use when
    they are given no deck (a game on another picture deck passes that deck's captions)."""
    return _shipped_or_none().captions


def shipped_picture(name: str) -> PictureCard | None:
    """The shipped deck's card called ``name`` (``None`` for a word or another deck's card)."""
    return _shipped_or_none().card(name)


@functools.cache
def _shipped_or_none() -> PictureDeck:
    # A word game must not fail on a damaged picture deck; Pictures games load it through
    # default_deck, which reports the problem.
    with contextlib.suppress(DeckError):
        return shipped_deck()
    return PictureDeck(SHIPPED_DECK, ())


@functools.cache
def shipped_deck() -> PictureDeck:
    """The emoji picture deck shipped in ``wordlists/pictures.tsv``."""
    return read_picture_deck(wordlists_dir() / SHIPPED_DECK)


def read_picture_deck(path: Path, *, needed: int = 1) -> PictureDeck:
    """An emoji deck file: ``picture<TAB>tag tag tag`` per line, ``#`` comments."""
    text = read_deck_text(path, "picture deck")
    cards = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, tab, tags = line.partition("\t")
        where = f"{path}: line {number}"
        if not tab or not name.strip():
            raise DeckError(f"{where}: expected 'picture<TAB>tags', got {line!r}")
        cards.append(PictureCard(name.strip(), _tags(tags.split(), where)))
    return _checked(str(path), cards, needed)


def load_image_deck(folder: Path, *, needed: int = 1) -> PictureDeck:
    """A user's picture deck: a folder of image files and a captions file (``captions.csv``
    with columns ``file,tags`` or ``captions.json`` mapping file name to tags, tags as a list
    or a space-separated string). ``DeckError`` names the file, the entry and what to
    change."""
    if not folder.is_dir():
        raise DeckError(f"{folder}: not a folder of pictures")
    present = [folder / name for name in CAPTION_FILES if (folder / name).exists()]
    if not present:
        raise DeckError(f"{folder}: no captions file; add captions.csv (columns file,tags) or "
                        "captions.json ({\"file.png\": [\"tag\", ...]}) beside the images")
    if len(present) > 1:
        raise DeckError(f"{folder}: both captions.csv and captions.json; keep one")
    captions = present[0]
    entries = _read_csv(captions) if captions.suffix == ".csv" else _read_json(captions)
    cards: list[PictureCard] = []
    seen: dict[str, str] = {}
    for where, file_name, tags in entries:
        at = f"{captions}: {where}"
        if not file_name:
            raise DeckError(f"{at}: the file name is empty")
        if file_name.lower() in seen:
            raise DeckError(f"{at}: {file_name!r} is captioned twice (also at "
                            f"{seen[file_name.lower()]})")
        seen[file_name.lower()] = where
        image = folder / file_name
        if Path(file_name).name != file_name:
            raise DeckError(f"{at}: {file_name!r} must be a file name in {folder}, not a path")
        if image.suffix.lower() not in IMAGE_SUFFIXES:
            raise DeckError(f"{at}: {file_name!r} is not an image "
                            f"({', '.join(sorted(IMAGE_SUFFIXES))})")
        if not image.is_file():
            raise DeckError(f"{at}: {file_name!r} is not in {folder}")
        cards.append(PictureCard(file_name, _tags(tags, at), image))
    uncaptioned = sorted(p.name for p in folder.iterdir()
                         if p.suffix.lower() in IMAGE_SUFFIXES and p.name.lower() not in seen)
    if uncaptioned:
        raise DeckError(f"{captions}: no tags for {', '.join(uncaptioned[:5])}"
                        f"{' ...' if len(uncaptioned) > 5 else ''}; caption every image")
    return _checked(str(folder), cards, needed)


def load_deck(path: Path, *, needed: int = 1) -> PictureDeck:
    """A picture deck from an image folder or an emoji deck file."""
    if path.is_dir():
        return load_image_deck(path, needed=needed)
    return read_picture_deck(path, needed=needed)


def _tags(raw: list[str], where: str) -> tuple[str, ...]:
    tags = tuple(t.strip().lower() for t in raw if t.strip())
    if not tags:
        raise DeckError(f"{where}: no tags; give {MIN_TAGS}-{MAX_TAGS} words saying what the "
                        "picture shows")
    if not MIN_TAGS <= len(tags) <= MAX_TAGS:
        raise DeckError(f"{where}: {len(tags)} tags; give {MIN_TAGS}-{MAX_TAGS}")
    longest = max(len(t) for t in tags)
    if longest > MAX_CARD_LENGTH:  # a tag is a word, as a card is (a 100,000-letter one
        # held the clue rules' checks of a game for 53 s)
        raise DeckError(f"{where}: a tag has {longest:,} characters; a tag is at most "
                        f"{MAX_CARD_LENGTH}")
    bad = [t for t in tags if not _TAG.match(t)]
    if bad:
        raise DeckError(f"{where}: tags must be single words, got {', '.join(map(repr, bad))}")
    if len(set(tags)) != len(tags):
        raise DeckError(f"{where}: a tag is repeated in {' '.join(tags)}")
    return tags


def _checked(source: str, cards: list[PictureCard], needed: int) -> PictureDeck:
    check_deck(tuple(card.name for card in cards), needed, source=source)
    return PictureDeck(source, tuple(cards))


def _read_csv(path: Path) -> list[tuple[str, str, list[str]]]:
    try:
        text = read_bounded(path, MAX_DECK_BYTES).decode("utf-8-sig")  # a BOM is no file name
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DeckError(f"{path}: cannot read the captions ({exc})") from None
    if rows and [c.strip().lower() for c in rows[0][:2]] == ["file", "tags"]:
        rows = rows[1:]
        first = 2
    else:
        first = 1
    entries = []
    for number, row in enumerate(rows, start=first):
        if not row or not "".join(row).strip():
            continue
        if len(row) < 2:
            raise DeckError(f"{path}: line {number}: expected 'file,tags', got {row!r}")
        # Tags in one column (space-separated) or spread over the remaining columns.
        tags = [t for cell in row[1:] for t in cell.replace(";", " ").split()]
        entries.append((f"line {number}", row[0].strip(), tags))
    return entries


def _read_json(path: Path) -> list[tuple[str, str, list[str]]]:
    try:
        data: Any = load_limited(read_bounded(path, MAX_DECK_BYTES))
    except OSError as exc:
        raise DeckError(f"{path}: cannot read the captions ({exc})") from None
    except JSONRefused as exc:
        raise DeckError(f"{path}: {exc}") from None
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list) and all(isinstance(d, dict) for d in data):
        items = [(d.get("file", ""), d.get("tags", [])) for d in data]
    else:
        raise DeckError(f"{path}: expected an object {{\"file.png\": [\"tag\", ...]}} or a list "
                        "of {\"file\": ..., \"tags\": [...]}")
    entries = []
    for file_name, tags in items:
        if isinstance(tags, str):
            tags = tags.split()
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise DeckError(f"{path}: entry {file_name!r}: tags must be a list of words or a "
                            "string")
        entries.append((f"entry {file_name!r}", str(file_name).strip(), tags))
    return entries
