"""The model cache: every model converted once into NumPy arrays and JSON, then loaded
memory-mapped. A cache entry is written to a temporary folder and renamed into place, so a
crash never leaves half a model behind; the conversion holds a lock, so processes that start
at once convert a model once (the others wait, then use it).

Layout: ``<cache>/models/<name>/vectors.npy`` (the matrix, one row per word), ``words.json``
(the words in row order), for a fastText model ``subwords.npy`` (a vector per subword bucket)
and ``subwords.json`` (its n-gram lengths and bucket count), ``meta.json`` (source, format,
vocabulary size, dimensions) and ``manifest.json``, which lists every file with its size and
checksum (``manifest``). Nothing in it is a pickle: arrays are read with
``allow_pickle=False``, so a file replaced by someone, even with its manifest entry, is data
at worst, never code. A model is checked against its manifest every time it is opened: a
damaged one is never used (``CacheDamaged`` says how to rebuild it; built-in models are
rebuilt by ``load_model``). A model converted by an older version (``CACHE_FORMAT`` 1,
gensim's pickled ``model.kv``) is never loaded: built-in ones are converted again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import __version__
from ..core.errors import ModelError
from ..files import default_cache_dir, file_lock, private_folder, read_bounded
from .formats import ROWS_PER_CHUNK, VectorFormat, check_rows, read_vectors
from .manifest import CheckedFolder, map_array
from .model import PlainVectors, WordVectors, unit_rows
from .shipped import BUILT_IN_MODELS

if TYPE_CHECKING:
    from gensim.models import KeyedVectors

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
# 1: gensim's KeyedVectors.save (model.kv, a pickle); 2: arrays and JSON only; 3: the same,
# with every vector stored at unit length (read in place: no normalised copy in memory).
CACHE_FORMAT = 3
READABLE_FORMATS = (2, 3)  # a model of your own added in format 2 is normalised when read
META_FILE = "meta.json"
WORDS_FILE = "words.json"  # the vocabulary in row order
VECTORS_FILE = "vectors.npy"
SUBWORDS_FILE = "subwords.npy"  # fastText: one vector per subword bucket
SUBWORD_SIZES_FILE = "subwords.json"  # fastText: min_n, max_n, bucket
OLD_MODEL_FILE = "model.kv"  # CACHE_FORMAT 1's model: gensim's pickle, never read
# The files of a converted model (the vocabularies and tables kept beside it are not).
MODEL_FILES = (META_FILE, WORDS_FILE, VECTORS_FILE, SUBWORDS_FILE, SUBWORD_SIZES_FILE)
# The most read of meta.json (read before the manifest is checked): it is a few hundred bytes.
MAX_META_BYTES = 1 << 20

log = logging.getLogger(__name__)


class CacheDamaged(ModelError):
    """A cached model fails its manifest check (or has none): it must be converted again."""


class CacheStale(CacheDamaged):
    """A cached model was converted by an older version, in a format this one never reads."""


@dataclass(frozen=True)
class ModelInfo:
    name: str
    source: str
    format: str
    vocabulary: int
    dimensions: int
    subwords: bool
    toolkit_version: str
    cache_format: int = 1  # a description without it was written in format 1


class ModelStore:
    """Converted models in one cache folder (the platform cache unless ``cache_dir``)."""

    def __init__(self, cache_dir: Path | str | None = None) -> None:
        self.root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self.models_dir = self.root / "models"

    def path(self, name: str) -> Path:
        return self.models_dir / check_name(name)

    def has(self, name: str) -> bool:
        return (self.path(name) / META_FILE).is_file()

    def names(self) -> list[str]:
        if not self.models_dir.is_dir():
            return []
        return sorted(p.name for p in self.models_dir.iterdir()
                      if (p / META_FILE).is_file() and not p.name.startswith("."))

    def info(self, name: str) -> ModelInfo:
        meta = self.path(name) / META_FILE
        if not meta.is_file():
            raise ModelError(f"no model named {name!r} in {self.models_dir}; "
                             "see `codenames models list`, or add one with "
                             "`codenames models add NAME PATH`")
        try:
            info = ModelInfo(**json.loads(_read_meta(meta)))
            _check_types(info)
            return info
        except (OSError, ValueError, TypeError, RecursionError) as exc:
            raise CacheDamaged(f"{meta}: damaged model description ({exc}); "
                               f"{self.rebuild_hint(name)}") from None

    def rebuild_hint(self, name: str) -> str:
        """What to run to convert ``name`` again."""
        if name in BUILT_IN_MODELS:
            return (f"run `codenames models remove {name}`; it is converted again on its "
                    "next use")
        try:
            source = json.loads(_read_meta(self.path(name) / META_FILE))["source"]
        except (OSError, ValueError, TypeError, KeyError, RecursionError):
            source = "PATH"
        return f"add it again: codenames models add {name} {source} --replace"

    def stale(self, name: str) -> bool:
        """Whether ``name`` is cached in an older version's format (then it is never read:
        it must be converted again). False for one that is not cached or is damaged."""
        try:
            return self.has(name) and self.info(name).cache_format != CACHE_FORMAT
        except CacheDamaged:
            return False

    def _check_current(self, info: ModelInfo) -> None:
        if info.cache_format not in READABLE_FORMATS:
            raise CacheStale(
                f"the cached model {info.name!r} was converted by an older version of "
                "codenames-ai, in a format this version does not read (its model.kv is a "
                f"pickle, which could run code); {self.rebuild_hint(info.name)}")

    def check(self, name: str, files: list[str]) -> None:
        """``CacheDamaged`` unless these files of ``name`` match its manifest."""
        problem = CheckedFolder(self.path(name)).problem(files)
        if problem:
            raise CacheDamaged(f"the cached model {name!r} is damaged: {problem}; "
                               f"{self.rebuild_hint(name)}")

    @contextlib.contextmanager
    def lock(self, name: str) -> Iterator[None]:
        """Exclusive between processes while ``name`` is converted or replaced. A cache that
        cannot be written (a read-only mount) is only read, so it goes without the lock;
        a conversion there fails on its own write, with its own message."""
        lock_file = self.models_dir / f".{check_name(name)}.lock"
        with contextlib.ExitStack() as held:
            with contextlib.suppress(OSError):
                private_folder(self.models_dir)
                held.enter_context(file_lock(lock_file, private=True))
            yield

    def size_bytes(self, name: str) -> int:
        return sum(p.stat().st_size for p in self.path(name).rglob("*") if p.is_file())

    def add_file(self, name: str, source: Path, vector_format: VectorFormat | None = None, *,
                 replace: bool = False) -> ModelInfo:
        """Convert a vector file into the cache under ``name``."""
        check_name(name)
        vectors = read_vectors(source, vector_format)
        fmt = (vector_format.value if vector_format else
               "fasttext-bin" if hasattr(vectors, "buckets_word") else "auto")
        return self.add_vectors(name, vectors, source=str(Path(source).resolve()),
                                vector_format=fmt, replace=replace)

    def add_vectors(self, name: str, vectors: KeyedVectors | PlainVectors, *, source: str,
                    vector_format: str, replace: bool = False) -> ModelInfo:
        """Store in-memory vectors under ``name`` (atomically, under the model's lock).
        ``ModelError`` naming the row for a vector that is not finite or is all zeros."""
        check_rows(vectors.index_to_key, vectors.vectors, source)
        with self.lock(name):
            return self._add(name, vectors, source=source, vector_format=vector_format,
                             replace=replace)

    def _add(self, name: str, vectors: KeyedVectors | PlainVectors, *, source: str,
             vector_format: str,
             replace: bool) -> ModelInfo:
        target = self.path(name)
        if self.has(name) and not replace:
            cached = self.info(name)
            if cached.dimensions != vectors.vector_size:
                raise ModelError(
                    f"model {name!r} is cached with {cached.dimensions} dimensions but the new "
                    f"vectors have {vectors.vector_size}; choose another name or replace it"
                )
            raise ModelError(f"a model named {name!r} is already cached ({cached.source}); "
                             "choose another name or replace it")
        info = ModelInfo(name=name, source=source, format=vector_format,
                         vocabulary=len(vectors), dimensions=int(vectors.vector_size),
                         subwords=hasattr(vectors, "buckets_word"), toolkit_version=__version__,
                         cache_format=CACHE_FORMAT)
        try:
            private_folder(self.models_dir)
            staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=self.models_dir))
        except OSError as exc:
            raise ModelError(f"cannot write the model cache in {self.models_dir} "
                             f"({exc.strerror or exc}); give a cache folder you can write "
                             "(--cache-dir, or XDG_CACHE_HOME)") from None
        try:
            _write_model(staging, vectors, info)
            # the matrices are read in place at every start: checked by samples, as the
            # panel's tables are (a cut or a changed size is always found)
            CheckedFolder(staging).list_files(sorted(p.name for p in staging.iterdir()
                                                     if not p.name.startswith(".")),
                                              quick=(VECTORS_FILE, SUBWORDS_FILE))
            if target.exists():
                old = target.with_name(f".{name}-old")
                shutil.rmtree(old, ignore_errors=True)
                target.rename(old)
                staging.rename(target)
                shutil.rmtree(old, ignore_errors=True)
            else:
                staging.rename(target)
        except OSError as exc:
            raise ModelError(f"cannot write the model cache in {self.models_dir} ({exc})"
                             ) from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return info

    def model_files(self, name: str) -> list[str]:
        """The files of the converted model (not the vocabularies and filters kept beside
        it)."""
        subwords = [SUBWORDS_FILE, SUBWORD_SIZES_FILE] if self.info(name).subwords else []
        return [META_FILE, WORDS_FILE, VECTORS_FILE, *subwords]

    def load(self, name: str) -> KeyedVectors:
        """The cached vectors of ``name`` as gensim ``KeyedVectors`` (``FastTextKeyedVectors``
        for a fastText model) around the memory-mapped arrays, checked first: no copy, and
        nothing unpickled."""
        from gensim.models import KeyedVectors
        from gensim.models.fasttext import FastTextKeyedVectors

        info, words, matrix = self._read(name)
        keyed: KeyedVectors
        if info.subwords:
            sizes, subwords = self._read_subwords(name, info)
            keyed = FastTextKeyedVectors(info.dimensions, sizes["min_n"], sizes["max_n"],
                                         sizes["bucket"])
            keyed.vectors_ngrams = subwords
        else:
            keyed = KeyedVectors(info.dimensions)
        keyed.vectors = matrix
        keyed.index_to_key = words
        keyed.key_to_index = {word: i for i, word in enumerate(words)}
        keyed.next_index = len(words)
        return keyed

    def open(self, name: str) -> WordVectors:
        """The model ready for lookups, checked against its manifest. Plain vectors are read
        without importing gensim; a fastText model carries gensim's ``FastTextKeyedVectors``
        for the words it builds from their pieces (``load``)."""
        info, words, matrix = self._read(name)
        if info.subwords:
            return WordVectors.from_keyed(name, self.load(name), unit=info.cache_format >= 3)
        model = WordVectors(name, words, matrix, unit=info.cache_format >= 3)
        if len(model.key_to_index) != len(words):  # a word listed twice: the index tells
            raise CacheDamaged(f"{self.path(name) / WORDS_FILE}: a word is listed twice; "
                               f"{self.rebuild_hint(name)}")
        return model

    def _read(self, name: str) -> tuple[ModelInfo, list[str], np.ndarray]:
        """The description, the words and the memory-mapped matrix of ``name``, checked
        against the manifest and each other (``CacheStale`` for an older version's format,
        ``CacheDamaged`` for anything else wrong)."""
        info = self.info(name)
        if info.cache_format not in READABLE_FORMATS:
            # Never read, its pickle only waits for a version that unpickles: gone now,
            # while meta.json stays to name the file a model of your own is re-added from.
            CheckedFolder(self.path(name)).drop_pickles(OLD_MODEL_FILE)
        self._check_current(info)
        self.check(name, self.model_files(name))
        folder = self.path(name)
        try:
            words = json.loads(_read_checked(folder, WORDS_FILE))
            matrix = map_array(folder / VECTORS_FILE)
        except (OSError, ValueError, RecursionError) as exc:
            raise CacheDamaged(f"{folder}: damaged cache ({exc}); {self.rebuild_hint(name)}"
                               ) from None
        if not isinstance(words, list) or matrix.shape != (info.vocabulary, info.dimensions) \
                or len(words) != len(matrix) or not set(map(type, words)) <= {str}:
            raise CacheDamaged(
                f"{folder / VECTORS_FILE}: the cache holds {len(words)} words and a "
                f"{matrix.shape} matrix but its description says {info.vocabulary} x "
                f"{info.dimensions}; {self.rebuild_hint(name)}")
        return info, words, matrix

    def _read_subwords(self, name: str, info: ModelInfo) -> tuple[dict[str, int], np.ndarray]:
        """A fastText model's n-gram sizes and its memory-mapped subword vectors."""
        folder = self.path(name)
        try:
            sizes = json.loads(_read_checked(folder, SUBWORD_SIZES_FILE))
            subwords = map_array(folder / SUBWORDS_FILE)
        except (OSError, ValueError, RecursionError) as exc:
            raise CacheDamaged(f"{folder}: damaged cache ({exc}); {self.rebuild_hint(name)}"
                               ) from None
        fields = ("min_n", "max_n", "bucket")
        if not isinstance(sizes, dict) or not all(type(sizes.get(f)) is int and sizes[f] >= 0
                                                  for f in fields) \
                or subwords.ndim != 2 or subwords.shape[1] != info.dimensions \
                or sizes["bucket"] > len(subwords):
            raise CacheDamaged(f"{folder / SUBWORD_SIZES_FILE}: subword sizes {sizes!r} do not "
                               f"fit the {subwords.shape} subword vectors; "
                               f"{self.rebuild_hint(name)}")
        return {f: sizes[f] for f in fields}, subwords

    def remove(self, name: str) -> None:
        if not self.path(name).exists():
            raise ModelError(f"no model named {name!r} to remove")
        with self.lock(name):
            shutil.rmtree(self.path(name))

    def open_or_build(self, name: str,
                      build: Callable[[], tuple[KeyedVectors | PlainVectors, str, str]],
                      source: str | None = None) -> WordVectors:
        """Open ``name``, first building it with ``build() -> (vectors, source, format)`` if
        it is not cached yet, if it is damaged, if it was built from another ``source``, or
        in an older format (``stale``: a format-2 model is built again with unit rows).
        Under the model's lock: a process that finds another converting it waits, then
        opens what that one made."""
        with self.lock(name):
            if self.has(name):
                try:
                    if (source is None or self.info(name).source == source) \
                            and not self.stale(name):
                        return self.open(name)
                except CacheStale as exc:
                    log.info("%s; converting it again", exc.args[0].split("; ")[0])
                except CacheDamaged as exc:
                    log.warning("%s; converting it again", exc.args[0].split("; ")[0])
            vectors, built_from, fmt = build()
            check_rows(vectors.index_to_key, vectors.vectors, built_from)
            self._add(name, vectors, source=built_from, vector_format=fmt, replace=True)
            return self.open(name)


def _check_types(info: ModelInfo) -> None:
    """``TypeError`` naming the first field of ``info`` whose value has the wrong type (a
    size given as text would otherwise be compared with the arrays' and said to differ)."""
    for item in fields(info):
        value = getattr(info, item.name)
        if item.type == "int":
            ok, kind = type(value) is int, "a whole number"
        elif item.type == "bool":
            ok, kind = type(value) is bool, "true or false"
        else:
            ok, kind = isinstance(value, str), "text"
        if not ok:
            raise TypeError(f"'{item.name}' must be {kind}, not {repr(value)[:40]}")


def _read_meta(path: Path) -> bytes:
    """The bytes of a model's ``meta.json``, never through a link, a named pipe or a device
    and at most ``MAX_META_BYTES`` (``OSError`` otherwise)."""
    return read_bounded(path, MAX_META_BYTES, follow=False)


def _read_checked(folder: Path, name: str) -> bytes:
    """A model file's bytes as its manifest lists them (``CheckedFolder.read``: no more
    than the size listed); ``ValueError`` if it no longer matches (changed since checked)."""
    data = CheckedFolder(folder).read(name)
    if data is None:
        raise ValueError(f"{name} no longer matches {folder.name}'s manifest")
    return data


def _write_model(folder: Path, vectors: KeyedVectors | PlainVectors, info: ModelInfo
                 ) -> None:
    """The files of a converted model in ``folder``: arrays and JSON, never a pickle; none
    of them writable by group or others (a member could otherwise change what the AI
    reads)."""
    _write_unit_rows(folder / VECTORS_FILE, vectors.vectors)
    with open(folder / WORDS_FILE, "w", encoding="utf-8") as out:  # streamed: no copy of a
        json.dump(vectors.index_to_key, out, ensure_ascii=False)  # million-word list's text
    if info.subwords and not isinstance(vectors, PlainVectors):  # a fastText model's pieces
        np.save(folder / SUBWORDS_FILE, np.asarray(vectors.vectors_ngrams), allow_pickle=False)
        sizes = {"min_n": int(vectors.min_n), "max_n": int(vectors.max_n),
                 "bucket": int(vectors.bucket)}
        (folder / SUBWORD_SIZES_FILE).write_text(json.dumps(sizes) + "\n", encoding="utf-8")
    (folder / META_FILE).write_text(json.dumps(asdict(info), indent=2) + "\n", encoding="utf-8")
    for path in folder.iterdir():
        path.chmod(stat.S_IMODE(path.stat().st_mode) & ~(stat.S_IWGRP | stat.S_IWOTH))


def _write_unit_rows(path: Path, matrix: np.ndarray) -> None:
    """``unit_rows(matrix)`` saved as a ``.npy`` file, a chunk of rows at a time (the same
    values: each row is scaled alone), so converting a model of several GB needs no second
    copy of it in memory."""
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)),
              "fortran_order": False, "shape": tuple(int(n) for n in matrix.shape)}
    with open(path, "wb") as out:
        np.lib.format.write_array_header_1_0(out, header)
        for start in range(0, len(matrix), ROWS_PER_CHUNK):
            out.write(unit_rows(matrix[start:start + ROWS_PER_CHUNK]).tobytes())


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise ModelError(f"model name {name!r} must be lower-case letters, digits, '.', '_' or "
                         "'-' (at most 64 characters)")
    return name
