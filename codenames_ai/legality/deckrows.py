"""A legality filter's answers for the cards of a deck, kept on disk, and the rows made in
this process, which the rules core's validator reads for an AI's candidate on a deck board
(so a game between AIs never loads the language data to check their clues)."""

from __future__ import annotations

import io
import threading
import zipfile
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from .rules import ClueRules, clue_rules
from .stored import open_npz

CardKey = tuple[str, tuple[str, ...]]


class DeckLegality:
    """A filter's answers for the cards of one deck, kept on disk: the candidates legal on an
    empty board, and which candidates each card blocks while it is visible. A board of these
    cards needs no language data."""

    def __init__(self, deck: Sequence[CardKey],
                 intrinsic_ok: npt.NDArray[np.bool_],
                 blocked: Sequence[npt.NDArray[np.intp]]) -> None:
        self.deck = tuple(deck)
        self.intrinsic_ok = intrinsic_ok
        self.blocked = tuple(blocked)
        self._rows = {key: i for i, key in enumerate(self.deck)}

    def covers(self, keys: Iterable[CardKey]) -> bool:
        return all(key in self._rows for key in keys)

    def legal_mask(self, keys: Iterable[CardKey]
                   ) -> npt.NDArray[np.bool_]:
        """As ``CandidateFilter.legal_mask`` for these (card, tags) visible."""
        mask = self.intrinsic_ok.copy()
        for key in keys:
            mask[self.blocked[self._rows[key]]] = False
        mask.flags.writeable = False
        return mask

    def legal(self, candidate: int, keys: Iterable[CardKey]) -> bool:
        """Whether one candidate is legal with these (card, tags) visible."""
        return bool(self.intrinsic_ok[candidate]) and not any(
            (self.blocked[self._rows[key]] == candidate).any() for key in keys)

    def dumps(self, signature: str) -> bytes:
        sizes = np.array([len(b) for b in self.blocked], dtype=np.int64)
        flat = (np.concatenate(self.blocked) if self.blocked else np.zeros(0)).astype(np.int64)
        buffer = io.BytesIO()
        np.savez(buffer, signature=np.array(signature), intrinsic_ok=self.intrinsic_ok,
                 sizes=sizes, blocked=flat)
        return buffer.getvalue()

    @classmethod
    def loads(cls, data: bytes, signature: str, deck: Sequence[CardKey]
              ) -> DeckLegality | None:
        """The stored answers, or ``None`` when they were made for other rules, another
        vocabulary or toolkit version, or cannot be read (then build them again)."""
        try:
            with open_npz(data) as stored:
                if str(stored["signature"]) != signature:
                    return None
                ok = np.asarray(stored["intrinsic_ok"], dtype=bool)
                sizes = np.asarray(stored["sizes"], dtype=np.int64)
                flat = np.asarray(stored["blocked"], dtype=np.intp)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            return None
        if len(sizes) != len(deck) or sizes.sum() != len(flat) or \
                (len(flat) and (flat.min() < 0 or flat.max() >= len(ok))):
            return None
        ok.flags.writeable = False
        return cls(deck, ok, np.split(flat, np.cumsum(sizes)[:-1]) if len(deck) else [])


# Deck rows made in this process, by rule set: (the rule set's name, candidate index, rows).
# The validator answers from them for a candidate on a board of their deck's cards, so a
# game between AIs never loads the language data to check their clues.
_KNOWN: list[tuple[str, dict[str, int], DeckLegality]] = []
_KNOWN_LOCK = threading.Lock()


def remember(rules: ClueRules | str, vocabulary: Sequence[str], rows: DeckLegality) -> None:
    """Let ``known_legal`` answer from ``rows`` (a filter's answers for ``vocabulary``)."""
    name = (clue_rules(rules) if isinstance(rules, str) else rules).name
    with _KNOWN_LOCK:
        if not any(known is rows for _, _, known in _KNOWN):
            _KNOWN.append((name, {w: i for i, w in enumerate(vocabulary)}, rows))
            del _KNOWN[:-8]  # the newest few: a process plays with a handful of rule sets


def known_legal(rules_name: str, word: str, keys: Sequence[CardKey]
                ) -> bool:
    """True when stored deck rows show ``word`` (exactly as a filter's candidate) legal
    with these (card, caption tags) visible under the rule set; False when they do not know
    (then the validator analyses the word)."""
    with _KNOWN_LOCK:
        known = list(_KNOWN)
    for name, index, rows in known:
        i = index.get(word)
        if name == rules_name and i is not None and rows.covers(keys):
            return rows.legal(i, keys)
    return False
