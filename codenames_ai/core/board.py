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
