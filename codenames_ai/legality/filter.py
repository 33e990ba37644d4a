"""The vectorized legality filter for spymasters: which of a candidate vocabulary are legal
clues on a board, as one boolean mask.

Each vocabulary word is analysed once (stems, lemmas, pronunciations, compound splits); an
inverted index maps every key to the words that carry it. Filtering a board then costs a few
dictionary lookups per card, not a pass over the vocabulary.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .. import __version__
from ..core.clues import fold_word
from ..files import atomic_write
from ..pictures import Captions, shipped_captions
from .analysis import analyze, analyze_card, normalize
from .rules import INTRINSIC_RULES, RELATIONAL_RULES, ClueRules, clue_rules
from .stored import open_npz
from .validator import keys

# Bumped whenever the analysis changes, so that answers kept on disk (a saved filter, a deck's
# legality rows) made by an older analysis are never used: 2: derivations, -ing, compounds;
# 3: names no longer read off GCIDE's capitals (seahorse); 4: compounds with a two-letter
# particle (to|night), a doubled consonant heard once (team|mate), merged vowels and corrected
# CMU entries (rain|forest), inflected forms judged by their lemma (painting is not pain+ting).
# 6: proper names that lemminflect also lists as nouns (Cinderella, cinderella) are names.
# 7: a card blocks the candidates that are it but for accents (CAFE blocks café).
FILTER_FORMAT = 7


class CandidateFilter:
    """Legal clues among ``vocabulary`` under ``rules``.

    ``legal_mask(visible_words, pictures)`` returns a read-only boolean array of shape
    ``(V,)``, aligned with ``self.words``; it agrees with ``LegalityValidator.check_against``
    word for word (and with the core's basic checks: a visible board word is never legal).
    """

    def __init__(self, vocabulary: Iterable[str], rules: ClueRules | str = "classic") -> None:
        self.rules = clue_rules(rules) if isinstance(rules, str) else rules
        self.words: tuple[str, ...] = tuple(dict.fromkeys(w.strip() for w in vocabulary
                                                          if w.strip()))
        self._ids = {normalize(w): i for i, w in enumerate(self.words)}
        self._folded = _folded_ids(self.words)
        intrinsic = [r for r in INTRINSIC_RULES if r in self.rules.checks]
        self._relational = [(RELATIONAL_RULES[r][0], RELATIONAL_RULES[r][1])
                            for r in RELATIONAL_RULES if r in self.rules.checks]
        clue_kinds = {clue_kind for clue_kind, _ in self._relational} - {"self"}
        ok = np.ones(len(self.words), dtype=bool)
        index: dict[str, defaultdict[str, list[int]]] = {k: defaultdict(list) for k in clue_kinds}
        for i, word in enumerate(self.words):
            analysis = analyze(word)
            if any(rule in intrinsic for rule, _ in analysis.intrinsic):
                ok[i] = False
                continue
            for kind in clue_kinds:
                for key in keys(analysis, kind):
                    index[kind][key].append(i)
        self._intrinsic_ok = ok
        self._index = {kind: {key: np.asarray(ids, dtype=np.intp) for key, ids in table.items()}
                       for kind, table in index.items()}

    def dumps(self) -> bytes:
        """The analysed vocabulary as bytes, so the next process can skip analysing: a NumPy
        ``.npz`` of plain arrays (no pickle: loading it runs nothing). Each kind's keys are
        one JSON list; the candidates under them are one flat array cut by ``sizes``."""
        kinds = sorted(self._index)
        arrays: dict[str, npt.NDArray[np.generic]] = {}
        keys_by_kind: dict[str, list[str]] = {}
        for number, kind in enumerate(kinds):
            table = self._index[kind]
            keys_by_kind[kind] = list(table)
            arrays[f"sizes-{number}"] = np.array([len(ids) for ids in table.values()],
                                                 dtype=np.int64)
            arrays[f"ids-{number}"] = np.concatenate(
                [np.zeros(0, dtype=np.int64), *table.values()]).astype(np.int64)
        text = json.dumps({"kinds": kinds, "keys": keys_by_kind}, ensure_ascii=False)
        buffer = io.BytesIO()
        arrays["signature"] = np.array(filter_signature(self.rules, self.words))
        arrays["intrinsic_ok"] = self._intrinsic_ok
        arrays["keys"] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
        np.savez(buffer, allow_pickle=False, **arrays)
        return buffer.getvalue()

    def save(self, path: Path) -> None:
        """``dumps`` written to ``path`` atomically."""
        atomic_write(path, self.dumps())

    @classmethod
    def loads(cls, data: bytes, vocabulary: Iterable[str], rules: ClueRules | str
              ) -> CandidateFilter | None:
        """A filter from ``dumps`` of the same vocabulary, rules and toolkit version, or
        ``None`` (then build one), also for bytes that are not such a file. Arrays only,
        read with ``allow_pickle=False``: whatever the bytes, loading runs no code."""
        wanted = clue_rules(rules) if isinstance(rules, str) else rules
        words = tuple(dict.fromkeys(w.strip() for w in vocabulary if w.strip()))
        try:
            with open_npz(data) as stored:
                if str(stored["signature"]) != filter_signature(wanted, words):
                    return None  # another vocabulary, or rules that changed since it was saved
                ok = np.asarray(stored["intrinsic_ok"], dtype=bool)
                index = _read_index(stored, len(words))
        except (OSError, ValueError, KeyError, TypeError, EOFError, RecursionError,
                zipfile.BadZipFile):
            return None
        if index is None or ok.shape != (len(words),):
            return None
        loaded = cls.__new__(cls)
        loaded.rules, loaded.words = wanted, words
        loaded._ids = {normalize(w): i for i, w in enumerate(words)}
        loaded._folded = _folded_ids(words)
        loaded._relational = [(RELATIONAL_RULES[r][0], RELATIONAL_RULES[r][1])
                              for r in RELATIONAL_RULES if r in wanted.checks]
        loaded._intrinsic_ok, loaded._index = ok, index
        return loaded

    @classmethod
    def load(cls, path: Path, vocabulary: Iterable[str], rules: ClueRules | str
             ) -> CandidateFilter | None:
        """``loads`` of the file at ``path``; ``None`` if it cannot be read."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return cls.loads(data, vocabulary, rules)

    def __len__(self) -> int:
        return len(self.words)

    def legal_mask(self, visible_words: Sequence[str], pictures: Captions | None = None
                   ) -> npt.NDArray[np.bool_]:
        """``mask[i]`` is true when ``self.words[i]`` is a legal clue with these cards visible.
        ``pictures`` are the captions of the picture deck in play (default: the shipped emoji
        deck, ``pictures.shipped_captions``)."""
        captions = shipped_captions() if pictures is None else pictures
        mask = self._intrinsic_ok.copy()
        for card in visible_words:
            mask[self.blocked_by(card, captions.get(card, ()))] = False
        mask.flags.writeable = False
        return mask

    def blocked_by(self, card: str, tags: tuple[str, ...] = ()) -> npt.NDArray[np.intp]:
        """The candidates that ``card`` (a picture when it has caption ``tags``) makes illegal
        while it is visible (remembered: a card is looked up once, then every later board that
        shows it costs one index)."""
        cache: dict[tuple[str, tuple[str, ...]], npt.NDArray[np.intp]] = \
            self.__dict__.setdefault("_blocked", {})
        found = cache.get((card, tags))
        if found is not None:
            return found
        analysis = analyze_card(card, tags)
        ids: list[npt.NDArray[np.intp] | list[int]] = []
        ids.append(self._folded.get(fold_word(card), []))  # the card itself, accents aside
        for clue_kind, card_kind in self._relational:
            card_keys = keys(analysis, card_kind)
            if clue_kind == "self":
                ids.append([self._ids[k] for k in card_keys if k in self._ids])
                continue
            table = self._index[clue_kind]
            ids.extend(table[key] for key in card_keys if key in table)
        blocked = np.unique(np.concatenate([np.asarray(i, dtype=np.intp) for i in ids])
                            if ids else np.zeros(0, dtype=np.intp))
        blocked.flags.writeable = False
        cache[(card, tags)] = blocked
        return blocked

    def intrinsic_mask(self) -> npt.NDArray[np.bool_]:
        """The candidates legal on an empty board (their own form passes every rule)."""
        mask = self._intrinsic_ok.copy()
        mask.flags.writeable = False
        return mask

    def legal_words(self, visible_words: Sequence[str], pictures: Captions | None = None
                    ) -> tuple[str, ...]:
        mask = self.legal_mask(visible_words, pictures)
        return tuple(w for w, ok in zip(self.words, mask, strict=True) if ok)


def _read_index(stored: np.lib.npyio.NpzFile, size: int
                ) -> dict[str, dict[str, npt.NDArray[np.intp]]] | None:
    """The inverted index ``dumps`` wrote, or ``None`` if its parts do not fit together
    (``ValueError`` and friends for parts that cannot be read)."""
    document = json.loads(bytes(np.asarray(stored["keys"], dtype=np.uint8)).decode("utf-8"))
    kinds, keys_by_kind = document["kinds"], document["keys"]
    index: dict[str, dict[str, npt.NDArray[np.intp]]] = {}
    for number, kind in enumerate(kinds):
        keys = keys_by_kind[kind]
        sizes = np.asarray(stored[f"sizes-{number}"], dtype=np.int64)
        flat = np.asarray(stored[f"ids-{number}"], dtype=np.intp)
        if not isinstance(keys, list) or len(keys) != len(sizes) or sizes.sum() != len(flat) \
                or (len(flat) and (flat.min() < 0 or flat.max() >= size)) \
                or (len(sizes) and sizes.min() < 0):
            return None
        index[str(kind)] = dict(zip(map(str, keys), np.split(flat, np.cumsum(sizes)[:-1])
                                    if len(keys) else [], strict=True))
    return index


def _folded_ids(words: Sequence[str]) -> dict[str, list[int]]:
    """The candidates under each accent-free form (café and cafe under 'cafe')."""
    found: defaultdict[str, list[int]] = defaultdict(list)
    for i, word in enumerate(words):
        found[fold_word(word)].append(i)
    return dict(found)


def filter_signature(rules: ClueRules | str, vocabulary: Sequence[str]) -> str:
    """What a filter's answers depend on, as one string: the analysis format, the toolkit
    version, the rules and the vocabulary (a stored answer for another is never used)."""
    wanted = clue_rules(rules) if isinstance(rules, str) else rules
    text = repr((FILTER_FORMAT, __version__, _signature(wanted), tuple(vocabulary)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _signature(rules: ClueRules) -> tuple[object, ...]:
    """What a saved filter depends on: the rule switches and how each relational rule
    relates clue and card (a rule added to a preset must not meet a filter saved before)."""
    return (rules.name, tuple(sorted(rules.checks)),
            tuple((r, RELATIONAL_RULES[r][:2]) for r in sorted(rules.checks)
                  if r in RELATIONAL_RULES))
