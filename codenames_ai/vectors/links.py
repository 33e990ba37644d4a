"""People's direct word associations, shipped in ``models/eat-links.npz``: for a cue and a
response, the share of the people shown the cue who answered with the response (the
Edinburgh Associative Thesaurus; pairs given by at least two people). Built by
``python models/build_eat_links.py``; read whole once per process (0.4 MB)."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core.errors import ModelError
from ..once import built_once
from .norms import word_key
from .shipped import models_dir

LINKS_FILE = "eat-links.npz"
BUILD_COMMAND = "python models/build_eat_links.py"


@dataclass(frozen=True)
class Links:
    """Cue -> response strengths: ``keys`` (cue index * words + response index, sorted) and
    their ``strengths``."""

    index: dict[str, int]
    keys: npt.NDArray[np.int64]
    strengths: npt.NDArray[np.float32]

    def strength(self, cue: str, response: str) -> float:
        """P(response | cue), 0 for a pair people did not give (or words the study lacks)."""
        c, r = self.index.get(word_key(cue) or ""), self.index.get(word_key(response) or "")
        if c is None or r is None:
            return 0.0
        key = c * len(self.index) + r
        at = int(np.searchsorted(self.keys, key))
        return float(self.strengths[at]) if at < len(self.keys) and self.keys[at] == key \
            else 0.0

    def both_ways(self, word: str, cards: Sequence[str]) -> tuple[npt.NDArray[np.float32],
                                                                  npt.NDArray[np.float32]]:
        """For each card, how often people shown ``word`` answered the card, and how often
        people shown the card answered ``word``."""
        forward = np.zeros(len(cards), dtype=np.float32)
        backward = np.zeros(len(cards), dtype=np.float32)
        cue = self.index.get(word_key(word) or "")
        if cue is None or not len(self.keys):
            return forward, backward
        found = np.array([self.index.get(word_key(card) or "", -1) for card in cards],
                         dtype=np.int64)
        known = np.flatnonzero(found >= 0)
        size = len(self.index)
        for out, keys in ((forward, cue * size + found[known]),
                          (backward, found[known] * size + cue)):
            at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
            out[known] = np.where(self.keys[at] == keys, self.strengths[at], 0.0)
        return forward, backward


@built_once()
def eat_links() -> Links:
    """The shipped links, read once."""
    return read_links(models_dir() / LINKS_FILE)


def read_links(path: Path) -> Links:
    try:
        with np.load(path, allow_pickle=False) as data:
            words = [str(w) for w in data["words"]]
            cues = data["cues"].astype(np.int64)
            responses = data["responses"].astype(np.int64)
            strengths = data["strengths"].astype(np.float32)
            json.loads(str(data["meta"]))
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise ModelError(f"{path}: not a readable links file ({exc}); restore it (git "
                         f"checkout models/ or reinstall codenames-ai) or rebuild it: "
                         f"{BUILD_COMMAND}") from None
    if not (len(cues) == len(responses) == len(strengths)) or (len(cues) and (
            max(int(cues.max()), int(responses.max())) >= len(words)
            or min(int(cues.min()), int(responses.min())) < 0)):
        raise ModelError(f"{path}: its links point outside its words; rebuild it: "
                         f"{BUILD_COMMAND}")
    keys = cues * len(words) + responses
    order = np.argsort(keys, kind="stable")
    return Links({w: i for i, w in enumerate(words)}, keys[order], strengths[order])
