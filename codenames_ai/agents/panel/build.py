"""``shared_panel``: one panel per process and configuration, shared by every agent, level,
game and room.

The first time, a panel is made from its models: the familiar candidates every mind knows,
each mind's calibration and unit rows of the candidates, the candidates' rarity. All of it is
then kept in the cache (a folder per set of minds, size, familiarity and offensive list, and
inside it one per version of the models), so a later process reads a few files, memory-maps
the matrices and the deck tables, and loads no model and no language data for a board of
deck cards.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import itertools
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...files import private_folder
from ...pictures import Captions
from ...vectors import WordVectors, load_model, unconverted
from ...vectors.manifest import CheckedFolder, map_array
from ...vectors.model import PICTURE_MEANINGS
from ...vectors.store import MODEL_FILES, ModelStore
from ..space import Calibration, CardKey, LegalClues, calibrate
from ..vocabulary import cached_clue_vocabulary, clue_vocabulary
from .minds import DEFAULT_MINDS, Mind, Panel
from .tables import DeckTable, shipped_decks, table_loader

PANEL_VOCABULARY = 25_000
CANDIDATES_FILE = "candidates.txt"  # kept in the panel's cache folder
PREPARED_FORMAT = 4
# Familiar clue words only: common (Zipf >= 3.3, i.e. about twice per million words) and
# listed by lemminflect in their base form as a noun, adjective or verb. This keeps out rare
# words (butte, vane), slang and fragments (tho, nuke), names (collin) and inflected forms
# that read oddly as clues (lays, downs).
MIN_ZIPF = 3.3
_CLUE_POS = ("NOUN", "ADJ", "VERB")

PanelKey = tuple[tuple[str, ...], int, str, float | None, tuple[str, ...]]
_PANELS: dict[PanelKey, Panel] = {}
_LOCK = threading.Lock()


@functools.cache
def _offensive() -> frozenset[str]:
    from ..vocabulary import offensive_words

    return offensive_words()


def familiar(word: str, min_zipf: float = MIN_ZIPF) -> bool:
    """A clue word most players know at once (see ``MIN_ZIPF``), and not offensive (checked
    here again: a vocabulary cached before the offensive list grew may hold such words)."""
    from ...legality.analysis import family
    from ...legality.language import lexicon
    lex = lexicon()
    if lex.zipf(word) < min_zipf:
        return False
    lemmas = lex.lemmas(word)
    if not any(word in lemmas.get(pos, ()) for pos in _CLUE_POS):
        return False
    offensive = _offensive()  # last: a word's family is the slow part
    return not (word in offensive or family(word, lex) & offensive)


def shared_panel(minds: Sequence[str] = DEFAULT_MINDS, vocabulary_size: int = PANEL_VOCABULARY,
                 cache_dir: str | Path | None = None, min_zipf: float | None = MIN_ZIPF,
                 known_by: Sequence[str] = ()) -> Panel:
    """The panel of these minds, made once per process and cache folder (however its
    arguments are spelt). A lower ``min_zipf`` admits rarer words; ``None`` keeps every
    candidate of the lead mind's clue vocabulary (the speed benchmarks use it to reach 25k and
    50k candidates). Candidates must also be words the models ``known_by`` know
    (leave-one-mind-out measurement keeps the full panel's vocabulary while leaving a mind
    out of the judging)."""
    key: PanelKey = (tuple(minds), int(vocabulary_size), str(ModelStore(cache_dir).root),
                     None if min_zipf is None else float(min_zipf), tuple(known_by))
    with _LOCK:
        panel = _PANELS.get(key)
        if panel is None:
            panel = _make(*key)
            _PANELS[key] = panel
        return panel


def _make(minds: tuple[str, ...], size: int, root: str, min_zipf: float | None,
          known_by: tuple[str, ...]) -> Panel:
    store = ModelStore(root)
    every = tuple(dict.fromkeys(minds + known_by))
    warm = not unconverted(every, cache_dir=root) and all(store.has(n) for n in every)
    folder = _panel_folder(store, minds[0], minds + known_by, size, min_zipf) if warm else None
    prepared = _prepared_folder(store, folder, every) if folder is not None else None
    if prepared is not None:
        panel = _read_prepared(prepared, minds, root)
        if panel is not None:
            return panel
    panel = _build(minds, size, root, min_zipf, known_by)
    if prepared is None:  # a model was converted just now: its fingerprint is known now
        folder = _panel_folder(store, minds[0], minds + known_by, size, min_zipf)
        prepared = _prepared_folder(store, folder, every) if folder is not None else None
    if prepared is not None:
        with contextlib.suppress(OSError):  # a read-only cache costs the next run seconds
            _write_prepared(prepared, panel)
        panel = _read_prepared(prepared, minds, root) or panel
    return panel


def _build(minds: tuple[str, ...], size: int, root: str, min_zipf: float | None,
           known_by: tuple[str, ...]) -> Panel:
    """The panel from its models: familiar candidates every mind knows, most frequent first,
    and each mind's calibration."""
    models = [load_model(name, cache_dir=root) for name in minds]
    knowers = models + [load_model(name, cache_dir=root) for name in known_by]
    lead = models[0]
    folder = _panel_folder(ModelStore(root), lead.name, minds + known_by, size, min_zipf)
    words = _read_candidates(folder)
    if words is not None:  # a mind rebuilt since may have lost words
        words = [w for w in words if all(w in m for m in knowers)]
    if not words:
        def wanted(word: str) -> bool:
            return all(word in m for m in knowers[1:]) and (min_zipf is None
                                                            or familiar(word, min_zipf))

        words = [w for w in _pool(lead, root, size, min_zipf, wanted) if wanted(w)][:size]
        if folder is not None:
            with contextlib.suppress(OSError):  # a read-only cache costs the next run seconds
                CheckedFolder(folder).write(CANDIDATES_FILE,
                                            ("\n".join(words) + "\n").encode("utf-8"))
    built = []
    for name, model in zip(minds, models, strict=True):
        rows = np.array([model.index(w) for w in words], dtype=np.intp)
        built.append(Mind(name, model, calibrate(model, tuple(words),
                                                 model.unit_matrix[rows])))
    return Panel(built, words, _legality_folder(root, words))


def _pool(lead: WordVectors, root: str, size: int, min_zipf: float | None,
          wanted: Callable[[str], bool]) -> tuple[str, ...]:
    """The lead mind's clue words to choose the candidates from, most frequent first. With a
    familiarity floor only the words of English above it that are ``wanted`` are analysed
    (wordfreq's ranking is by frequency, so none below it could pass): about 10,000 words,
    not 50,000."""
    if min_zipf is None:
        return cached_clue_vocabulary(lead, root, size=max(2 * size, 50_000))
    import wordfreq

    from ...legality.language import lexicon

    lex = lexicon()
    ranked = wordfreq.top_n_list("en", max(4 * size, 200_000))
    common = itertools.takewhile(lambda w: lex.zipf(w) >= min_zipf, ranked)
    return clue_vocabulary(lead, size=max(2 * size, 50_000), source=common, wanted=wanted)


def _panel_folder(store: ModelStore, lead: str, minds: tuple[str, ...], size: int,
                  min_zipf: float | None) -> Path | None:
    """Where the panel's candidates and legality filters are kept: one folder per set of
    minds, size, familiarity and offensive list (so editing the list rebuilds them)."""
    if not store.has(lead):
        return None
    offensive = hashlib.sha256(" ".join(sorted(_offensive())).encode()).hexdigest()[:8]
    folder = store.path(lead) / f"panel-{'+'.join(minds)}-{size}-{min_zipf}-{offensive}"
    try:
        private_folder(folder)
    except OSError:
        return None
    return folder


def _prepared_folder(store: ModelStore, folder: Path, models: Sequence[str]) -> Path | None:
    """The panel folder's subfolder for these versions of the models (the checksums of their
    own files, not of what is cached beside them): a model converted again gets a new one."""
    listed = []
    for name in models:
        entries = CheckedFolder(store.path(name)).entries()
        own = {file: entry.get("checksum") for file, entry in entries.items()
               if file in MODEL_FILES}
        if not own:
            return None
        listed.append(sorted(own.items()))
    digest = hashlib.sha256(json.dumps([PREPARED_FORMAT, list(models), listed]).encode())
    prepared = folder / f"prepared-{digest.hexdigest()[:12]}"
    try:
        private_folder(prepared)
    except OSError:
        return None
    return prepared


def _legality_folder(root: str, words: Sequence[str]) -> Path:
    """Where the legality of a list of candidates is kept (made when first needed): one
    folder per list, shared by the panels that have it (the levels' panels have the same
    candidates)."""
    digest = hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest()[:12]
    return ModelStore(root).root / "legality" / digest


def _read_candidates(folder: Path | None) -> list[str] | None:
    """The candidates an earlier run kept, if their file passes its check."""
    data = CheckedFolder(folder).read(CANDIDATES_FILE) if folder is not None else None
    return data.decode("utf-8").split() or None if data else None


_WORDS, _MINDS, _RARITY = "words.txt", "minds.json", "rarity.npy"
_DERIVED, _SAID, _NOUNLESS = "derived.npy", "said.npy", "nounless.npy"


def _matrix_file(m: int) -> str:
    return f"matrix-{m}.npy"


def _write_prepared(prepared: Path, panel: Panel) -> None:
    folder = CheckedFolder(prepared)
    for m, matrix in enumerate(panel.matrices):
        folder.write(_matrix_file(m), _npy(np.ascontiguousarray(matrix, dtype=np.float32)),
                     quick=True)
    folder.write(_RARITY, _npy(panel.rarity))
    folder.write(_DERIVED, _npy(panel.derived))
    folder.write(_SAID, _npy(panel.said))
    folder.write(_NOUNLESS, _npy(panel.nounless))
    folder.write(_WORDS, ("\n".join(panel.words) + "\n").encode("utf-8"))
    minds = [{"name": mind.name, "mean": mind.calibration.mean, "std": mind.calibration.std,
              "quantiles": list(mind.calibration.quantiles)} for mind in panel.minds]
    folder.write(_MINDS, json.dumps({"format": PREPARED_FORMAT, "minds": minds}).encode())


def _read_prepared(prepared: Path, minds: tuple[str, ...], root: str) -> Panel | None:
    """The panel from its prepared files, or ``None`` when one is missing or fails its
    check (then it is made again)."""
    folder = CheckedFolder(prepared)
    files = [_WORDS, _MINDS, _RARITY, _DERIVED, _SAID, _NOUNLESS,
             *(_matrix_file(m) for m in range(len(minds)))]
    if folder.problem(files):
        return None
    def read(name: str) -> bytes:  # as listed, never through a link or a pipe
        data = folder.read(name)
        if data is None:
            raise ValueError(f"{name} changed since it was checked")
        return data

    try:
        words = read(_WORDS).decode("utf-8").split()
        described = json.loads(read(_MINDS))
        rarity = np.load(io.BytesIO(read(_RARITY)), allow_pickle=False)
        derived = np.load(io.BytesIO(read(_DERIVED)), allow_pickle=False)
        said = np.load(io.BytesIO(read(_SAID)), allow_pickle=False)
        nounless = np.load(io.BytesIO(read(_NOUNLESS)), allow_pickle=False)
        matrices = [map_array(prepared / _matrix_file(m)) for m in range(len(minds))]
        calibrations = [Calibration(float(d["mean"]), float(d["std"]),
                                    tuple(float(q) for q in d["quantiles"]))
                        for d in described["minds"]]
        names = [str(d["name"]) for d in described["minds"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    if names != list(minds) or len(rarity) != len(words) or derived.shape != (len(words),) \
            or derived.dtype != np.bool_ or said.shape != (len(words),) \
            or nounless.shape != (len(words),) or nounless.dtype != np.bool_ or any(
            m.shape[0] != len(words) or m.dtype != np.float32 for m in matrices):
        return None
    loaded = [Mind(name, functools.partial(load_model, name, cache_dir=root), calibration)
              for name, calibration in zip(minds, calibrations, strict=True)]
    legality = _legality_folder(root, words)
    panel = Panel(loaded, words, legality, matrices=matrices,
                  legality=LegalClues(tuple(words), legality, shipped_decks()),
                  rarity=rarity, derived=derived, said=said, nounless=nounless)
    panel.tables = _deck_tables(panel, prepared)
    return panel


def _deck_tables(panel: Panel, prepared: Path) -> tuple[DeckTable, ...]:
    """The shipped decks' tables: each word deck for every meaning, the Pictures deck once
    per picture meaning (each made on the first board that needs it)."""
    *words, pictures = shipped_decks()
    tables = [DeckTable(deck, None, table_loader(prepared, len(panel.minds), deck, None,
                                                 functools.partial(_deck_rows, panel, deck,
                                                                   PICTURE_MEANINGS[0])))
              for deck in words]
    for meaning in PICTURE_MEANINGS:
        tables.append(DeckTable(pictures, meaning, table_loader(
            prepared, len(panel.minds), pictures, meaning,
            functools.partial(_deck_rows, panel, pictures, meaning))))
    return tuple(tables)


def _deck_rows(panel: Panel, deck: Sequence[CardKey], meaning: str, m: int
               ) -> npt.NDArray[np.float32]:
    captions: Captions = {card: tags for card, tags in deck if tags}
    return panel.minds[m].card_z([card for card, _ in deck], np.asarray(panel.matrices[m]),
                                 meaning, captions)


def _npy(array: npt.NDArray[np.generic]) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


__all__ = ["CANDIDATES_FILE", "MIN_ZIPF", "PANEL_VOCABULARY", "familiar", "shared_panel"]
