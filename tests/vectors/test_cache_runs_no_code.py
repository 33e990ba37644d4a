"""The cache holds data, never code: no pickle in it (the models, the legality filters, the
panel's tables), a pickle planted there with its manifest entry updated is never run, an
older version's pickled cache is converted again unread, a gensim ``.kv`` file is refused
unread, and no file or folder of the cache is writable by group or others."""

from __future__ import annotations

import io
import json
import os
import pickle
import stat
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.agents import space
from codenames_ai.agents.lru import BoundedCache
from codenames_ai.agents.panel import build as panel_build
from codenames_ai.agents.panel import shared_panel
from codenames_ai.agents.space import LegalClues
from codenames_ai.agents.vocabulary import cached_clue_vocabulary
from codenames_ai.core import ModelError
from codenames_ai.decks import default_deck
from codenames_ai.legality import CandidateFilter
from codenames_ai.vectors import ModelStore, load_model, unconverted
from codenames_ai.vectors.default import _load
from codenames_ai.vectors.manifest import CheckedFolder
from codenames_ai.vectors.store import CACHE_FORMAT, CacheDamaged

from ..agents.tiny_space import vectors, write_glove

DECK = default_deck("words")
WORDS = ("cut", "knives", "fruit", "apples", "music", "drummer", "water", "river", "moonlight")
OFF_DECK = ("knife", "zebra crossing")  # a card outside the decks: the filter is read


class Payload:
    """Unpickled, it creates ``marker``: the proof that loading ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def plant(folder: Path, name: str, marker: Path, *, as_array: bool = False) -> None:
    """A payload at ``folder/name`` (a pickle, or a ``.npy`` of a pickled object), listed in
    the folder's manifest with its true size and checksum, as someone able to write there
    would do."""
    path = folder / name
    if as_array:
        with path.open("wb") as handle:
            np.save(handle, np.array([Payload(marker)], dtype=object), allow_pickle=True)
    else:
        path.write_bytes(pickle.dumps(Payload(marker)))
    CheckedFolder(folder).list_files([name])


@pytest.fixture()
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing shared in memory: what is read comes from the cache folder."""
    monkeypatch.setattr(space, "_SHARED_FILTERS", BoundedCache(8))
    monkeypatch.setattr(space, "_SHARED_DECK_ROWS", BoundedCache(8))
    panel_build._PANELS.clear()


def build_cache(root: Path, vector_files: dict[str, Path], sources: Path) -> None:
    """A small cache made through the toolkit's own paths: a plain and a fastText model, a
    clue vocabulary, legality filters and deck rows, and a prepared panel."""
    store = ModelStore(root)
    store.add_file("plain", vector_files["glove"])
    store.add_file("fast", vector_files["fasttext-bin"])
    assert store.open("fast").has_subwords
    cached_clue_vocabulary(store.open("plain"), str(root), size=10)
    legal = LegalClues(WORDS, root / "legality" / "words", [tuple((c, ()) for c in DECK)])
    for rules in ("classic", "strict"):
        legal.legal_mask(rules, DECK[:25])  # deck rows
        legal.legal_mask(rules, OFF_DECK)  # the filter itself
    table = vectors()
    rng = np.random.default_rng(7)
    for word in DECK[:40]:  # deck cards, so the panel makes a deck table
        table.setdefault(word, rng.standard_normal(len(next(iter(table.values())))))
    store.add_file("tiny", write_glove(sources / "tiny.txt", table))
    panel = shared_panel(("tiny",), 500, root, None)
    board = tuple(c for c in DECK[:40] if c in panel.minds[0].model)[:25]
    panel.board_z(board)
    panel.legal_mask("classic", board)


def every_path(root: Path) -> Iterator[Path]:
    yield root
    yield from sorted(root.rglob("*"))


def read_as_data(path: Path) -> None:
    """Read the file as the kind its name says, never unpickling; fails for another kind."""
    data = path.read_bytes()
    assert not data.startswith(b"\x80"), f"{path} is a pickle (protocol 2 or later)"
    if path.suffix == ".npy":
        np.load(path, allow_pickle=False)
    elif path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as stored:
            for key in stored.files:
                stored[key]  # noqa: B018 - an object array would raise here
    elif path.suffix == ".json":
        json.loads(data)
    elif path.suffix == ".txt":
        data.decode("utf-8")
    elif path.name.endswith(".lock"):
        assert data.strip().isdigit()  # a process id
    else:
        raise AssertionError(f"{path}: an unexpected kind of file in the cache")


def test_no_file_in_a_cache_built_here_is_a_pickle(
        tmp_path: Path, vector_files: dict[str, Path], fresh_process: None) -> None:
    build_cache(tmp_path / "cache", vector_files, tmp_path)
    files = [p for p in every_path(tmp_path / "cache") if p.is_file()]
    names = {p.name for p in files}
    assert {"vectors.npy", "subwords.npy", "legality-classic-9.npz", "matrix-0.npy"} <= names
    assert not any(p.suffix in (".kv", ".pickle") for p in files)
    for path in files:
        read_as_data(path)


def test_no_file_or_folder_of_the_cache_is_writable_by_group_or_others(
        tmp_path: Path, vector_files: dict[str, Path], fresh_process: None) -> None:
    old = os.umask(0o002)  # a umask that lets the group write, as many systems set
    try:
        build_cache(tmp_path / "cache", vector_files, tmp_path)
        manifest = tmp_path / "cache" / "models" / "plain" / "manifest.json"
        manifest.chmod(0o664)  # as an older version left it: kept group-writable on rewrite
        cached_clue_vocabulary(ModelStore(tmp_path / "cache").open("plain"),
                               str(tmp_path / "cache"), size=5)  # rewrites the manifest
    finally:
        os.umask(old)
    shared = [str(p.relative_to(tmp_path)) for p in every_path(tmp_path / "cache")
              if p.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)]
    assert shared == []


def test_a_planted_legality_pickle_is_never_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                fresh_process: None) -> None:
    folder = tmp_path / "legality"
    reference = CandidateFilter(WORDS, "classic").legal_mask(OFF_DECK)
    LegalClues(WORDS, folder).legal_mask("classic", OFF_DECK)  # keeps the filter
    marker = tmp_path / "ran"
    for name in (f"legality-classic-{len(WORDS)}.pickle", f"legality-classic-{len(WORDS)}.npz"):
        plant(folder, name, marker)  # the name an older version read, and today's
    monkeypatch.setattr(space, "_SHARED_FILTERS", BoundedCache(8))
    mask = LegalClues(WORDS, folder).legal_mask("classic", OFF_DECK)
    assert not marker.exists()
    assert np.array_equal(mask, reference)  # built again from the words, and kept
    assert not CheckedFolder(folder).read(f"legality-classic-{len(WORDS)}.npz").startswith(
        b"\x80")
    # The older version's pickle is gone with the rebuild, from the folder and its manifest.
    assert not list(folder.glob("*.pickle"))
    assert not any(name.endswith(".pickle") for name in CheckedFolder(folder).entries())


def test_an_older_versions_legality_pickle_is_removed_when_its_folder_is_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_process: None) -> None:
    """Review, low: a legality folder whose filter was already kept (nothing written again)
    kept an older version's pickle for good. It goes when the folder is first opened."""
    folder = tmp_path / "legality"
    LegalClues(WORDS, folder).legal_mask("classic", OFF_DECK)  # keeps the filter
    marker = tmp_path / "ran"
    plant(folder, f"legality-classic-{len(WORDS)}.pickle", marker)
    kept = CheckedFolder(folder).read(f"legality-classic-{len(WORDS)}.npz")
    monkeypatch.setattr(space, "_SHARED_FILTERS", BoundedCache(8))
    LegalClues(WORDS, folder).legal_mask("classic", OFF_DECK)
    assert not marker.exists() and not list(folder.glob("*.pickle"))
    assert not any(name.endswith(".pickle") for name in CheckedFolder(folder).entries())
    assert CheckedFolder(folder).read(f"legality-classic-{len(WORDS)}.npz") == kept  # read


@pytest.mark.parametrize("model", ["plain", "fast"])
def test_a_planted_model_pickle_is_never_run(tmp_path: Path, vector_files: dict[str, Path],
                                             model: str) -> None:
    store = ModelStore(tmp_path)
    store.add_file(model, vector_files["glove" if model == "plain" else "fasttext-bin"])
    marker = tmp_path / "ran"
    folder = store.path(model)
    plant(folder, "model.kv", marker)  # the pickle an older version loaded
    plant(folder, "vectors.npy", marker, as_array=True)  # a pickled object in an array
    with pytest.raises(CacheDamaged, match="add it again"):
        store.open(model)
    with pytest.raises(CacheDamaged, match="add it again"):
        store.load(model)
    assert not marker.exists()


def test_an_older_versions_pickled_cache_is_converted_again_unread(tmp_path: Path) -> None:
    _load.cache_clear()
    first = np.array(load_model("wordnet-3.0", cache_dir=tmp_path).vectors)
    store = ModelStore(tmp_path)
    folder = store.path("wordnet-3.0")
    meta = json.loads((folder / "meta.json").read_text())
    del meta["cache_format"]  # as version 1 wrote it, beside its pickled model.kv
    (folder / "meta.json").write_text(json.dumps(meta))
    marker = tmp_path / "ran"
    plant(folder, "model.kv", marker)
    CheckedFolder(folder).list_files(["meta.json"])
    assert store.stale("wordnet-3.0") and unconverted(["wordnet-3.0"], cache_dir=tmp_path) == [
        "wordnet-3.0"]
    _load.cache_clear()
    again = load_model("wordnet-3.0", cache_dir=tmp_path)
    assert not marker.exists() and not (folder / "model.kv").exists()
    assert np.array(again.vectors).tobytes() == first.tobytes()
    assert not store.stale("wordnet-3.0") and unconverted(["wordnet-3.0"], cache_dir=tmp_path
                                                          ) == []
    _load.cache_clear()


def test_an_older_versions_model_of_your_own_is_refused_with_the_command_that_rebuilds_it(
        tmp_path: Path, vector_files: dict[str, Path]) -> None:
    store = ModelStore(tmp_path)
    store.add_file("mine", vector_files["glove"])
    folder = store.path("mine")
    meta = json.loads((folder / "meta.json").read_text())
    del meta["cache_format"]
    (folder / "meta.json").write_text(json.dumps(meta))
    marker = tmp_path / "ran"
    plant(folder, "model.kv", marker)
    plant(folder, "legality-classic-14.pickle", marker)
    CheckedFolder(folder).list_files(["meta.json"])
    with pytest.raises(CacheDamaged, match="converted by an older version .* add it again: "
                                           "codenames models add mine .* --replace"):
        store.open("mine")
    assert not marker.exists()
    # Its pickles are gone at once (review, low: they waited until it was added again),
    # with their manifest entries; meta.json stays, so the message still names the source.
    assert not (folder / "model.kv").exists() and not list(folder.glob("*.pickle"))
    assert {"model.kv", "legality-classic-14.pickle"}.isdisjoint(CheckedFolder(folder).entries())
    with pytest.raises(CacheDamaged, match="add it again: codenames models add mine "
                                           f"{vector_files['glove']} --replace"):
        store.open("mine")
    assert store.add_file("mine", vector_files["glove"], replace=True).cache_format == CACHE_FORMAT
    assert len(store.open("mine")) == len(store.open("mine").words)


def test_a_gensim_kv_file_is_refused_unread_with_how_to_convert_it(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    given = tmp_path / "theirs.kv"
    given.write_bytes(pickle.dumps(Payload(marker)))
    with pytest.raises(ModelError, match=r"theirs.kv: a gensim .kv file is a Python pickle.*"
                                         r"save_word2vec_format\('theirs.bin', binary=True\).*"
                                         r"then add theirs.bin"):
        ModelStore(tmp_path / "cache").add_file("theirs", given)
    assert not marker.exists()


def test_a_stored_filter_is_arrays_read_without_pickle(tmp_path: Path) -> None:
    data = CandidateFilter(WORDS, "classic").dumps()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert all(name.endswith(".npy") for name in archive.namelist())
    loaded = CandidateFilter.loads(data, WORDS, "classic")
    assert loaded is not None
    assert np.array_equal(loaded.legal_mask(OFF_DECK),
                          CandidateFilter(WORDS, "classic").legal_mask(OFF_DECK))
