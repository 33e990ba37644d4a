"""Reading every format, the cache, phrases, missing words and damaged files."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.agents.vocabulary import cached_clue_vocabulary, clue_vocabulary, vocabulary_file
from codenames_ai.core import ModelError
from codenames_ai.vectors import (
    ModelStore,
    VectorFormat,
    WordVectors,
    detect_format,
    load_model,
    parse_format,
    read_vectors,
)
from codenames_ai.vectors.manifest import CheckedFolder

from .conftest import WORDS, tiny_vectors


@pytest.mark.parametrize("fmt", [f.value for f in VectorFormat if f is not VectorFormat.GENSIM])
def test_every_format_is_detected_added_and_loaded_memory_mapped(
        fmt: str, vector_files: dict[str, Path], tmp_path: Path) -> None:
    path = vector_files[fmt]
    assert detect_format(path) is VectorFormat(fmt)
    store = ModelStore(tmp_path)
    info = store.add_file("tiny", path)
    assert info.dimensions == 4
    loaded = store.load("tiny")
    assert isinstance(loaded.vectors, np.memmap)
    if fmt == "fasttext-bin":
        assert info.subwords
        model = WordVectors.from_keyed("tiny", loaded)
        assert model.word_vector("oceanic").shape == (4,)  # built from subwords
    else:
        assert info.vocabulary == len(WORDS)
        expected = tiny_vectors()["ocean"]  # stored at unit length (cache format 3)
        assert np.allclose(loaded["ocean"], expected / np.linalg.norm(expected), atol=1e-5)


def test_the_unit_matrix_is_the_memory_mapped_file_itself(vector_files: dict[str, Path],
                                                          tmp_path: Path) -> None:
    """A model is normalised once, when it is converted: reading it maps the file and copies
    nothing (a 3M x 300 model would otherwise take 3.6 GB more)."""
    store = ModelStore(tmp_path)
    store.add_file("tiny", vector_files["glove"])
    model = store.open("tiny")
    unit = model.unit_matrix
    assert isinstance(model.vectors, np.memmap) and np.shares_memory(unit, model.vectors)
    assert not unit.flags.writeable
    assert np.allclose(np.linalg.norm(unit, axis=1), 1.0, atol=1e-6)
    assert model.word_vector("ocean").base is not None  # a view of the map, not a copy


def test_a_cache_listing_a_word_twice_is_damaged(vector_files: dict[str, Path],
                                                 tmp_path: Path) -> None:
    """Even with a manifest that agrees (rewritten by whoever changed the file)."""
    from codenames_ai.vectors.store import CacheDamaged

    store = ModelStore(tmp_path)
    store.add_file("tiny", vector_files["glove"])
    folder = store.path("tiny")
    words = json.loads((folder / "words.json").read_text())
    words[1] = words[0]
    (folder / "words.json").write_text(json.dumps(words))
    CheckedFolder(folder).list_files(["words.json"])
    with pytest.raises(CacheDamaged, match="listed twice.*models add tiny"):
        store.open("tiny")


def test_a_glove_file_and_a_word2vec_file_made_here_load_and_answer(
        vector_files: dict[str, Path], tmp_path: Path) -> None:
    for fmt in ("glove", "word2vec-text"):
        store = ModelStore(tmp_path / fmt)
        store.add_file("tiny", vector_files[fmt])
        model = WordVectors.from_keyed("tiny", store.load("tiny"))
        ocean = model.word_vector("Ocean")
        assert float(ocean @ model.word_vector("sea")) > 0.95
        assert float(ocean @ model.word_vector("piano")) < 0.95


def test_cards_with_spaces_use_phrases_then_the_mean_of_their_words() -> None:
    model = WordVectors.from_keyed("tiny", tiny_vectors())
    assert np.allclose(model.card_vector("ICE CREAM"), model.word_vector("ice_cream"))
    mixed = model.card_vector("ocean music")
    mean = model.word_vector("ocean") + model.word_vector("music")
    assert np.allclose(mixed, mean / np.linalg.norm(mean), atol=1e-6)
    with pytest.raises(ModelError, match=r"no vector for 'Loch Ness' \(no vector for 'Loch', "
                                         r"'Ness'\).*fastText"):
        model.card_vector("Loch Ness")
    with pytest.raises(ModelError, match="no vector for 'kraken'"):
        model.card_matrix(["ocean", "kraken"])


def test_a_picture_card_means_the_tags_its_deck_gives_it(tmp_path: Path) -> None:
    """Two decks with a card of the same name, in one process: each deck's captions give
    that card its own vector; without captions the name is just a word the model lacks."""
    from codenames_ai.pictures import load_image_deck

    model = WordVectors.from_keyed("tiny", tiny_vectors())
    decks = {}
    for folder, tags in (("sea", ["ocean", "sea", "wave"]), ("band", ["piano", "music", "guitar"])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "card.png").write_bytes(b"\x89PNG\r\n\x1a\n")
        (tmp_path / folder / "captions.json").write_text(json.dumps({"card.png": tags}))
        decks[folder] = load_image_deck(tmp_path / folder)
    sea = model.card_vector("card.png", pictures=decks["sea"].captions)
    band = model.card_vector("card.png", pictures=decks["band"].captions)
    for vector, tags in ((sea, ["ocean", "sea", "wave"]), (band, ["piano", "music", "guitar"])):
        mean = np.mean([model.word_vector(t) for t in tags], axis=0)
        assert np.allclose(vector, mean / np.linalg.norm(mean), atol=1e-6)
    assert not np.allclose(sea, band)
    assert np.allclose(model.card_vector("card.png", pictures=decks["sea"].captions), sea)
    with pytest.raises(ModelError, match="no vector for 'card.png'"):
        model.card_vector("card.png")


def test_bad_files_get_one_clear_error_naming_the_file(vector_files: dict[str, Path],
                                                       tmp_path: Path) -> None:
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("ocean 0.1 0.2 0.3 0.4\nsea 0.1 0.2\n")
    with pytest.raises(ModelError, match=r"ragged.txt: line 2 has 2 values where the others "
                                         r"have 4 \(ragged rows\)"):
        read_vectors(ragged)
    short = tmp_path / "short.txt"
    short.write_text("ocean 0.1 0.2 0.3\nsea 0.1\n")  # gensim alone would pad this row
    with pytest.raises(ModelError, match="line 2 has 1 values"):
        read_vectors(short)
    truncated = tmp_path / "cut.bin"
    truncated.write_bytes(vector_files["word2vec-bin"].read_bytes()[:60])
    with pytest.raises(ModelError, match=r"cut.bin: the header says 14 words x 4 dimensions.*"
                                         "truncated"):
        read_vectors(truncated)
    with pytest.raises(ModelError, match="line 1 should be the header"):
        read_vectors(vector_files["glove"], VectorFormat.WORD2VEC_BIN)
    with pytest.raises(ModelError, match="no such file"):
        read_vectors(tmp_path / "missing.txt")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    for fmt in set(VectorFormat) - {VectorFormat.GENSIM}:  # gensim's reason: 'NoneType'
        with pytest.raises(ModelError, match=r"empty.txt: is empty, so it has no word vectors$"):
            read_vectors(empty, fmt)
    with pytest.raises(ModelError, match="unknown vector format 'npz'"):
        parse_format("npz")


def test_the_cache_is_never_left_half_written(vector_files: dict[str, Path],
                                              tmp_path: Path) -> None:
    store = ModelStore(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("not vectors at all\n")
    with pytest.raises(ModelError):
        store.add_file("bad", bad)
    assert store.names() == []
    leftovers = list(store.models_dir.glob("*")) if store.models_dir.exists() else []
    assert leftovers == []


def test_a_different_dimension_than_cached_is_refused_unless_replaced(
        vector_files: dict[str, Path], tmp_path: Path) -> None:
    store = ModelStore(tmp_path)
    store.add_file("tiny", vector_files["glove"])
    wide = tmp_path / "wide.txt"
    wide.write_text("ocean 1 2 3 4 5 6\nsea 1 2 3 4 5 7\n")
    with pytest.raises(ModelError, match="cached with 4 dimensions but the new vectors have 6"):
        store.add_file("tiny", wide)
    assert store.add_file("tiny", wide, replace=True).dimensions == 6
    assert store.load("tiny").vector_size == 6


def test_a_damaged_cache_is_named_with_the_fix(vector_files: dict[str, Path],
                                               tmp_path: Path) -> None:
    store = ModelStore(tmp_path)
    store.add_file("tiny", vector_files["glove"])
    meta = store.path("tiny") / "meta.json"
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps({**data, "dimensions": 300}))
    with pytest.raises(ModelError, match="meta.json has .* bytes, the manifest says .* add it "
                                         "again: codenames models add tiny .* --replace"):
        store.load("tiny")
    meta.write_text("{broken")
    with pytest.raises(ModelError, match="damaged model description"):
        store.load("tiny")
    shutil.rmtree(store.path("tiny"))
    with pytest.raises(ModelError, match="no model named 'tiny'"):
        store.load("tiny")
    with pytest.raises(ModelError, match="must be lower-case"):
        store.path("Bad Name")


@pytest.mark.parametrize(("field", "value", "says"), [
    ("dimensions", "50", "'dimensions' must be a whole number, not '50'"),
    ("vocabulary", 3.0, "'vocabulary' must be a whole number, not 3.0"),
    ("vocabulary", True, "'vocabulary' must be a whole number, not True"),
    ("subwords", 0, "'subwords' must be true or false, not 0"),
    ("source", None, "'source' must be text, not None"),
])
def test_a_description_with_a_field_of_the_wrong_type_says_so(
        vector_files: dict[str, Path], tmp_path: Path, field: str, value: object,
        says: str) -> None:
    """Review, minor: "dimensions": "50" (its manifest updated) said "...(14, 4) matrix but
    its description says 14 x 4", two equal sizes."""
    store = ModelStore(tmp_path)
    store.add_file("tiny", vector_files["glove"])
    meta = store.path("tiny") / "meta.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), field: value}))
    CheckedFolder(store.path("tiny")).list_files(["meta.json"])
    with pytest.raises(ModelError, match=re.escape(f"{meta}: damaged model description "
                                                   f"({says}); add it again: codenames models "
                                                   "add tiny ")):
        store.open("tiny")


def test_clue_vocabulary_keeps_sensible_candidates_only() -> None:
    model = WordVectors.from_keyed("tiny", tiny_vectors())
    source = ["the", "ocean", "paris", "shit", "kraken", "sea", "wave", "ocean", "table", "x"]
    assert clue_vocabulary(model, size=10, source=source) == ("ocean", "sea", "wave", "table")
    assert clue_vocabulary(model, size=2, source=source) == ("ocean", "sea")
    assert "shit" in clue_vocabulary(model, size=10, source=source, offensive_filter=False)


def test_the_default_model_installs_with_the_package_and_converts_offline(
        tmp_path: Path) -> None:
    model = load_model(cache_dir=tmp_path)
    assert model.name == "glove-6b-50d" and len(model) == 400_000 and model.dimensions == 50
    ocean = model.word_vector("ocean")
    assert float(ocean @ model.word_vector("sea")) > float(ocean @ model.word_vector("piano"))
    assert ModelStore(tmp_path).names() == ["glove-6b-50d"]
    assert load_model(cache_dir=tmp_path) is model  # loaded once per process


def test_the_clue_vocabulary_is_cached_beside_its_model(tmp_path: Path) -> None:
    store = ModelStore(tmp_path)
    store.add_vectors("tiny", tiny_vectors(), source="test", vector_format="test")
    model = store.open("tiny")
    first = cached_clue_vocabulary(model, str(tmp_path), size=50)
    assert set(first) == {"ocean", "sea", "wave", "piano", "music", "guitar", "ice", "cream",
                          "dessert", "table"}
    cached = store.path("tiny") / vocabulary_file(50)
    assert cached.read_text().split() == list(first)
    assert cached_clue_vocabulary(model, str(tmp_path), size=50) == first


@pytest.mark.parametrize(("name", "text"), [
    ("bom-glove.txt", "apple 1 2 3\npear 3 2 1\n"),
    ("bom-word2vec.txt", "2 3\napple 1 2 3\npear 3 2 1\n"),
])
def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path: Path, name: str,
                                                         text: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert read_vectors(path).index_to_key == ["apple", "pear"]


def test_a_word2vec_binary_file_is_read_from_its_map_as_gensim_reads_it(tmp_path: Path
                                                                        ) -> None:
    """The rows come from the mapped file a chunk at a time (a model of several GB is
    converted without its matrix in memory); the words and values are gensim's."""
    from gensim.models import KeyedVectors

    from codenames_ai.vectors.formats import MappedRows, mapped_binary

    rng = np.random.default_rng(7)
    words = ["the", "ocean", "café", "naïve", "x" * 50, *(f"w{i}" for i in range(2500))]
    path = tmp_path / "mine.bin"
    with open(path, "wb") as out:
        out.write(f"{len(words)} 7\n".encode())
        for i, word in enumerate(words):  # gensim allows a newline between rows
            out.write(word.encode() + b" " + rng.normal(size=7).astype("<f4").tobytes()
                      + (b"\n" if i % 3 == 0 else b""))
    theirs = KeyedVectors.load_word2vec_format(str(path), binary=True)
    ours = mapped_binary(path)
    assert isinstance(ours.vectors, MappedRows) and ours.index_to_key == theirs.index_to_key
    assert np.array_equal(ours.vectors[0:len(ours)], theirs.vectors)
    assert np.array_equal(ours.vectors[1000:1003], theirs.vectors[1000:1003])
    store = ModelStore(tmp_path / "cache")
    store.add_file("mine", path)
    assert np.allclose(store.open("mine").word_vector("café"),
                       theirs["café"] / np.linalg.norm(theirs["café"]), atol=1e-6)
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"1 2\n\xff\xfe " + np.ones(2, dtype="<f4").tobytes())
    with pytest.raises(ModelError, match=r"bad.bin: the word of row 1 is not UTF-8"):
        read_vectors(bad)
