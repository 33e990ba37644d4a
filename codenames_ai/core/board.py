"""Dealing: cards from a deck and a random valid key, both from one seed."""

from __future__ import annotations

import hashlib
import random
import re
import secrets
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Identity, Team
from .clues import MAX_WORD_LENGTH, normalize_word
from .errors import DeckError, RecordError
from .rules import Layout, RuleSet


def derive_seed(seed: int, label: str) -> int:
    """A 63-bit seed for one purpose (``"board"``, ``"red spymaster"``, ...) from a game seed.

    Stable across Python versions and platforms, so records stay reproducible.
    """
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Board:
    """The cards on the table (row-major) and the key that says what each one is."""

    words: tuple[str, ...]
    key: tuple[Identity, ...]
    starting_team: Team

    def __post_init__(self) -> None:
        if len(self.words) != len(self.key):
            raise DeckError(f"board has {len(self.words)} cards but the key has {len(self.key)}")

    def count(self, identity: Identity) -> int:
        return sum(1 for card in self.key if card is identity)

    def to_dict(self) -> dict[str, Any]:
        return {
            "words": list(self.words),
            "key": [card.value for card in self.key],
            "starting_team": self.starting_team.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Board:
        try:
            return cls(
                words=tuple(str(word) for word in data["words"]),
                key=tuple(Identity(card) for card in data["key"]),
                starting_team=Team(data["starting_team"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed board {data!r}: {exc}") from None

    def to_text(self, cols: int | None = None) -> str:
        """The board with its key as text, one ``name: value`` line each: its ``words``
        (comma-separated, as ``codenames clue --board`` takes them), its ``key`` (as
        ``format_key`` spells it; with ``cols``, a space between rows) and which team
        ``starts``. ``from_text`` reads it back."""
        for word in self.words:
            if "," in word or "\n" in word or word != word.strip():
                raise DeckError(f"card {word!r} has no text form: a comma, a line break or "
                                "spaces around it")
        return (f"words: {', '.join(self.words)}\nkey: {format_key(self.key, cols)}\n"
                f"starts: {self.starting_team.value}\n")

    @classmethod
    def from_text(cls, text: str, *, source: str = "board") -> Board:
        """The board ``to_text`` wrote. Without a ``starts`` line, the team with more agents
        starts (``starting_team_of``). ``DeckError`` naming ``source`` for anything else."""
        fields: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            name, colon, value = line.partition(":")
            name = name.strip().lower()
            if not colon or name not in ("words", "key", "starts") or name in fields:
                raise DeckError(f"{source}: line {number} is not one of 'words: ...', "
                                "'key: ...', 'starts: red|blue' (each once)")
            fields[name] = value.strip()
        if "words" not in fields or "key" not in fields:
            raise DeckError(f"{source}: give a 'words: ...' line and a 'key: ...' line")
        words = tuple(word.strip() for word in fields["words"].split(","))
        check_word_cards(words, len(words), source=f"{source}: the words")
        key = parse_key(fields["key"], len(words), source=f"{source}: the key")
        try:
            starts = Team(fields["starts"].lower()) if "starts" in fields \
                else starting_team_of(key)
        except ValueError:
            raise DeckError(f"{source}: starts {fields['starts']!r}; give red or blue") from None
        return cls(words=words, key=key, starting_team=starts)

    def check_fits(self, layout: Layout) -> None:
        """Raise ``DeckError`` unless this board and key are valid for ``layout``."""
        if len(self.words) != layout.cells:
            raise DeckError(
                f"board has {len(self.words)} cards; the layout needs {layout.cells}"
            )
        starting, other = self.starting_team, self.starting_team.other
        expected = {
            starting.agent: layout.starting_team_cards,
            other.agent: layout.second_team_agents,
            Identity.BYSTANDER: layout.bystanders,
            Identity.ASSASSIN: layout.assassins,
        }
        for identity, wanted in expected.items():
            if self.count(identity) != wanted:
                raise DeckError(
                    f"key has {self.count(identity)} {identity.value} cards; "
                    f"the layout needs {wanted}"
                )


def format_key(key: Sequence[Identity], cols: int | None = None) -> str:
    """The key as its letters, one per card in board order (``Identity.letter``: R, B, N,
    A), with ``cols`` a space between rows: ``RRRBB BBNNA ...``."""
    letters = "".join(identity.letter for identity in key)
    if not cols:
        return letters
    return " ".join(letters[i:i + cols] for i in range(0, len(letters), cols))


def parse_key(text: str, size: int | None = None, *, source: str = "key") -> tuple[Identity, ...]:
    """The key ``format_key`` spelled: one letter per card, any case, spaces anywhere (they may
    group the letters by rows). With ``size``, exactly that many. ``DeckError`` naming
    ``source`` otherwise."""
    letters = "".join(text.split()).upper()
    if size is not None and len(letters) != size:
        raise DeckError(f"{source} has {len(letters)} letters but the board has {size} cards; "
                        "give one letter per card in board order (R, B, N, A)")
    known = {identity.letter for identity in Identity}
    bad = sorted(set(letters) - known)
    if bad:
        shown = ", ".join(ch if ch.isprintable() else repr(ch) for ch in bad)
        raise DeckError(f"{source} has letters {shown}; use R (red), B (blue), N (bystander), "
                        "A (assassin)")
    return tuple(Identity.from_letter(ch) for ch in letters)


def starting_team_of(key: Sequence[Identity]) -> Team:
    """The team that starts on a board with this key: the one with more agents (red when
    both have as many, as on a custom layout without a double agent)."""
    red = sum(1 for identity in key if identity is Identity.RED)
    return Team.RED if red >= sum(1 for identity in key if identity is Identity.BLUE) \
        else Team.BLUE


def check_deck(deck: Sequence[str], needed: int, *, source: str = "deck") -> None:
    """Raise ``DeckError`` unless ``deck`` holds ``needed`` distinct, non-empty cards of at
    most ``MAX_NAME_LENGTH`` characters (a picture's file name; a word card is shorter)."""
    seen: dict[str, int] = {}
    for position, card in enumerate(deck, start=1):
        if not isinstance(card, str) or not card.strip():
            raise DeckError(f"{source}: card {position} is empty; remove blank entries")
        if len(card) > MAX_NAME_LENGTH:
            raise DeckError(f"{source}: card {position} has {len(card):,} characters; a card "
                            f"is at most {MAX_NAME_LENGTH}")
        normal = normalize_word(card)  # café typed either way is one card, as clues see it
        if normal in seen:
            raise DeckError(
                f"{source}: {card.strip()!r} appears twice (cards {seen[normal]} and "
                f"{position}); every card must be distinct"
            )
        seen[normal] = position
    if len(seen) < needed:
        raise DeckError(
            f"{source}: has {len(seen)} cards but a board needs {needed}; add more cards"
        )


# As long as the longest word: a card of a few words (ice cream, mother-in-law) fits in as
# many characters. Longer text is not a card, and the clue rules' analysis of a card (its
# pieces) grows with its length cubed.
MAX_CARD_LENGTH = MAX_WORD_LENGTH
MAX_NAME_LENGTH = 255  # any card, a picture's file name too (most file systems' limit)
_JOINS = re.compile(r"[ \-'\u2019]")  # a card's words are joined by one of these


def check_word_cards(cards: Sequence[str], needed: int, *, source: str = "deck") -> None:
    """``check_deck``, and each card is one or more words with a letter among them (``ice
    cream``, ``mother-in-law``, ``café``, ``r2-d2``; not ``!!!`` or ``1066``), at most
    ``MAX_CARD_LENGTH`` characters: ``DeckError`` naming the card."""
    for position, card in enumerate(cards, start=1):
        text = unicodedata.normalize("NFC", card.strip()) if isinstance(card, str) else ""
        if len(text) > MAX_CARD_LENGTH:
            raise DeckError(f"{source}: card {position} has {len(text):,} characters; a card "
                            f"is at most {MAX_CARD_LENGTH}")
        if text and not _is_word_card(text):
            raise DeckError(f"{source}: card {position} ({text!r}) is not a word; a card is "
                            "one or more words (letters, digits) joined by spaces, hyphens "
                            "or apostrophes")
    check_deck(cards, needed, source=source)


def _is_word_card(text: str) -> bool:
    """Words of letters (any script, with their marks) or digits, one join between two."""
    words = _JOINS.split(text)
    return any(ch.isalpha() for ch in text) and all(
        word and all(unicodedata.category(ch)[0] in "LMN" for ch in word) for word in words)


def random_key(layout: Layout, starting_team: Team, rng: random.Random) -> tuple[Identity, ...]:
    """A uniformly random valid key for ``layout`` with ``starting_team`` owning the double
    agent. Every permutation of the identities is equally likely (all four rotations of a
    square key are among them)."""
    identities = (
        [starting_team.agent] * layout.starting_team_cards
        + [starting_team.other.agent] * layout.second_team_agents
        + [Identity.BYSTANDER] * layout.bystanders
        + [Identity.ASSASSIN] * layout.assassins
    )
    rng.shuffle(identities)
    return tuple(identities)


# Seeds this toolkit gives out or accepts from people are at most this many bits: the web
# app deals from secrets.randbits(SEED_BITS), too many for a brute force from the board, and
# a record holds any of them as a plain JSON number.
SEED_BITS = 128


def secret_seed(randbits: Callable[[int], int] | None = None) -> int:
    """A new secret seed for a game with a person in it: ``SEED_BITS`` random bits.

    The seed deals the key, and anyone with this toolkit can deal every seed of a small range
    and match the board on screen (a million seeds took 101 s on one core), so every game a
    person plays, in the terminal or the browser, is dealt from too many bits to search.
    ``randbits``: the source of bits (default: ``secrets.randbits``, looked up at each call)."""
    return (randbits or secrets.randbits)(SEED_BITS)


def deal(rules: RuleSet, deck: Sequence[str], seed: int) -> Board:
    """Draw cards from ``deck`` and a random key; the same seed gives the same board.

    Raises ``DeckError`` if the deck is too small or has duplicates.
    """
    layout = rules.layout
    check_deck(deck, layout.cells)
    rng = random.Random(derive_seed(seed, "board"))
    words = tuple(card.strip() for card in rng.sample(list(deck), layout.cells))
    starting_team = rng.choice((Team.RED, Team.BLUE))
    return Board(words=words, key=random_key(layout, starting_team, rng),
                 starting_team=starting_team)
