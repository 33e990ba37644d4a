"""Per-deck tables: every candidate's similarity to every card of a shipped deck in each mind,
computed once per panel, deck and picture meaning and kept on disk beside the panel's other
files (memory-mapped when read back). A board of deck cards is then a gather of its cards'
rows; a clue the guesser reads, a gather of one column.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...decks import WORD_DECKS, word_deck
from ...pictures import Captions, shipped_captions
from ...vectors.manifest import CheckedFolder, map_array
from ..lru import OwnLock
from ..space import CardKey, deck_digest

FloatArray = npt.NDArray[np.float32]
TABLE_FORMAT = 2  # 2: each card's least convinced and most worried mind


def fill_abstentions(z: FloatArray) -> FloatArray:
    """Where a mind cannot read a card (shape (minds, cards, ...)), it takes the mean of the
    minds that can, so it neither vetoes nor favours that card. A mind abstains on a card's
    whole row, so its first column tells."""
    if not np.isnan(z[:, :, :1]).any():
        return z
    unread = np.isnan(z)
    count = (~unread).sum(axis=0, keepdims=True)
    total = np.where(unread, np.float32(0), z).sum(axis=0, keepdims=True)
    # The mean of the minds that read the card (NaN where none does: such a card is refused).
    mean = np.divide(total, count, out=np.full(total.shape, np.nan, dtype=np.float32),
                     where=count > 0)
    return np.where(unread, mean, z).astype(np.float32)


def shipped_decks(pictures: Captions | None = None) -> tuple[tuple[CardKey, ...], ...]:
    """The shipped decks as (card, caption tags) keys: each word deck the web offers (Words
    and the large one, so no board it deals needs a model), then the Pictures deck with the
    captions in play (default: the shipped ones)."""
    captions = shipped_captions() if pictures is None else pictures
    words = tuple(tuple((card, ()) for card in word_deck(name)) for name in WORD_DECKS)
    return (*words, tuple((card, tuple(tags)) for card, tags in captions.items()))


class DeckTable(OwnLock):
    """One deck's rows in every mind: ``z[m]`` has shape (deck cards, candidates), a row of
    NaN where that mind cannot read the card; then two more arrays of that shape, each
    card's similarity as the least convinced and as the most worried mind sees it
    (``Panel.board_bounds``). ``load`` makes or reads the arrays the first time a board of
    this deck is seen. A deck of word cards serves every picture meaning (``meaning`` None);
    a picture deck's table serves one."""

    def __init__(self, deck: Sequence[CardKey], meaning: str | None,
                 load: Callable[[], list[FloatArray]]) -> None:
        self.deck = tuple(deck)
        self.meaning = meaning
        self._rows = {key: i for i, key in enumerate(self.deck)}
        self._load = load
        self._z: list[FloatArray] | None = None
        self._readable = np.zeros(0, dtype=bool)
        self._lock = threading.Lock()

    def serves(self, meaning: str) -> bool:
        return self.meaning is None or self.meaning == meaning

    def covers(self, keys: Sequence[CardKey]) -> bool:
        rows = self._rows
        return all(key in rows for key in keys)

    @property
    def arrays(self) -> list[FloatArray]:
        """The minds' arrays, then the least convinced and the most worried mind's."""
        if self._z is None:
            with self._lock:
                if self._z is None:
                    arrays = self._load()
                    unread = np.stack([np.isnan(a[:, 0]) for a in arrays[:-2]]).all(axis=0)
                    self._readable = np.asarray(~unread, dtype=bool)
                    self._z = arrays
        return self._z

    @property
    def z(self) -> list[FloatArray]:
        return self.arrays[:-2]

    def _index(self, keys: Sequence[CardKey]) -> npt.NDArray[np.intp]:
        return np.fromiter((self._rows[key] for key in keys), dtype=np.intp, count=len(keys))

    def rows(self, keys: Sequence[CardKey]) -> FloatArray:
        """Shape (minds, cards, candidates)."""
        z = self.z
        index = self._index(keys)
        out = np.empty((len(z), len(keys), z[0].shape[1]), dtype=np.float32)
        for m, table in enumerate(z):
            np.take(table, index, axis=0, out=out[m])
        return out

    def column(self, keys: Sequence[CardKey], candidate: int) -> FloatArray:
        """One candidate's similarity to these cards, shape (minds, cards)."""
        index = self._index(keys)
        return np.stack([table[index, candidate] for table in self.z]).astype(np.float32,
                                                                                copy=False)

    def bounds(self, keys: Sequence[CardKey]) -> tuple[FloatArray, FloatArray]:
        """The least convinced and the most worried mind's rows, (cards, candidates) each."""
        index = self._index(keys)
        low, high = self.arrays[-2:]
        return np.take(low, index, axis=0), np.take(high, index, axis=0)

    def block(self, keys: Sequence[CardKey], candidates: npt.NDArray[np.intp]) -> FloatArray:
        """Some candidates' similarity to these cards, shape (minds, cards, candidates)."""
        index = np.ix_(self._index(keys), candidates)
        return np.stack([table[index] for table in self.z])

    def readable(self, keys: Sequence[CardKey]) -> npt.NDArray[np.bool_]:
        """Whether some mind reads each card."""
        self.z  # noqa: B018 (loads the table and its readable cards)
        return self._readable[self._index(keys)]


def table_loader(folder: Path | None, minds: int, deck: Sequence[CardKey], meaning: str | None,
                 build: Callable[[int], FloatArray]) -> Callable[[], list[FloatArray]]:
    """What reads the deck's table from ``folder`` when an earlier run kept it and it passes
    its check, else builds it (``build(m)``: mind ``m``'s rows) and keeps it there."""
    digest = deck_digest(deck, f"{TABLE_FORMAT}\n{meaning or 'any'}")
    files = [f"table-{digest}-{m}.npy" for m in range(minds)] + \
        [f"table-{digest}-low.npy", f"table-{digest}-high.npy"]

    def load() -> list[FloatArray]:
        checked = CheckedFolder(folder) if folder is not None else None
        if checked is not None and not checked.problem(files):
            try:
                # Memory-mapped, used as plain arrays (indexing a memmap wraps every result).
                z = [np.asarray(map_array(checked.root / name)) for name in files]
            except (OSError, ValueError):
                z = []
            if len(z) == len(files) and all(a.shape == z[0].shape and a.shape[0] == len(deck)
                                             and a.dtype == np.float32 for a in z):
                return z
        z = [build(m) for m in range(minds)]
        filled = fill_abstentions(np.stack(z))
        z += [filled.min(axis=0), filled.max(axis=0)]
        if checked is not None:
            _keep(checked, files, z)
        return z

    return load

def _keep(folder: CheckedFolder, files: Sequence[str], arrays: Sequence[FloatArray]) -> None:
    with contextlib.suppress(OSError):  # a read-only cache costs the next run the build
        for name, array in zip(files, arrays, strict=True):
            buffer = io.BytesIO()
            np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
            folder.write(name, buffer.getvalue(), quick=True)
