"""Reading word vectors in any format gensim knows, with clear errors for bad files."""

from __future__ import annotations

import gzip
import struct
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import ModelError

if TYPE_CHECKING:
    from gensim.models import KeyedVectors

FASTTEXT_MAGIC = 793712314  # the first int32 of a fastText .bin file


class VectorFormat(Enum):
    WORD2VEC_BIN = "word2vec-bin"
    WORD2VEC_TEXT = "word2vec-text"
    GLOVE = "glove"  # text, one word and its numbers per line, no header
    FASTTEXT_VEC = "fasttext-vec"  # text with a header, as fastText writes it
    FASTTEXT_BIN = "fasttext-bin"  # with subwords: vectors for unknown words too
    GENSIM = "gensim"  # KeyedVectors.save (.kv)


def parse_format(name: str) -> VectorFormat:
    try:
        return VectorFormat(name.strip().lower())
    except ValueError:
        known = ", ".join(f.value for f in VectorFormat)
        raise ModelError(f"unknown vector format {name!r}; choose one of: {known}") from None


def detect_format(path: Path) -> VectorFormat:
    """Guess the format from the name and the first bytes; ``ModelError`` if unreadable."""
    if not path.is_file():
        raise ModelError(f"{path}: no such file")
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes[-1:] == [".kv"]:
        return VectorFormat.GENSIM
    try:
        opener = gzip.open if suffixes[-1:] == [".gz"] else open
        with opener(path, "rb") as handle:
            head = handle.read(4096)
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc})") from None
    if len(head) >= 4 and struct.unpack("<i", head[:4])[0] == FASTTEXT_MAGIC:
        return VectorFormat.FASTTEXT_BIN
    first_line = head.split(b"\n", 1)[0]
    header = first_line.split()
    has_header = len(header) == 2 and all(part.isdigit() for part in header)
    if ".bin" in suffixes:
        return VectorFormat.WORD2VEC_BIN
    if ".vec" in suffixes:
        return VectorFormat.FASTTEXT_VEC
    if has_header:
        try:
            head.decode("utf-8")
        except UnicodeDecodeError:
            return VectorFormat.WORD2VEC_BIN
        return VectorFormat.WORD2VEC_TEXT
    return VectorFormat.GLOVE


def read_vectors(path: Path, vector_format: VectorFormat | None = None) -> KeyedVectors:
    """Load ``path`` into memory as gensim ``KeyedVectors`` (``FastTextKeyedVectors`` for a
    fastText ``.bin``). Raises ``ModelError`` naming the file, the format and the problem."""
    from gensim.models import KeyedVectors  # imported here: a cache hit never needs it

    path = Path(path)
    fmt = vector_format or detect_format(path)
    if not path.is_file():
        raise ModelError(f"{path}: no such file")
    if fmt in (VectorFormat.GLOVE, VectorFormat.WORD2VEC_TEXT, VectorFormat.FASTTEXT_VEC):
        check_text_rows(path, has_header=fmt is not VectorFormat.GLOVE)
    try:
        if fmt is VectorFormat.GENSIM:
            vectors = KeyedVectors.load(str(path))
        elif fmt is VectorFormat.FASTTEXT_BIN:
            from gensim.models.fasttext import load_facebook_vectors

            vectors = load_facebook_vectors(str(path))
        elif fmt is VectorFormat.WORD2VEC_BIN:
            vectors = KeyedVectors.load_word2vec_format(str(path), binary=True)
        else:
            vectors = KeyedVectors.load_word2vec_format(
                str(path), binary=False, no_header=fmt is VectorFormat.GLOVE)
    except ModelError:
        raise
    except Exception as exc:  # gensim raises many kinds for damaged files
        raise ModelError(
            f"{path}: cannot read it as {fmt.value} vectors ({type(exc).__name__}: {exc}); "
            "the file may be truncated or in another format (pass --format)"
        ) from None
    if not isinstance(vectors, KeyedVectors):
        raise ModelError(f"{path}: holds a {type(vectors).__name__}, not word vectors")
    if len(vectors) == 0 or vectors.vector_size == 0:
        raise ModelError(f"{path}: has no word vectors")
    return vectors


def check_text_rows(path: Path, *, has_header: bool) -> None:
    """Every row of a text vector file must hold a word and the same number of values
    (gensim would silently pad a short row of a file without a header)."""
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    expected: int | None = None
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                fields = line.rstrip("\r\n").rstrip(" ").split(" ")
                if number == 1 and has_header:
                    if len(fields) != 2 or not all(f.isdigit() for f in fields):
                        raise ModelError(f"{path}: line 1 should be the header 'WORDS "
                                         f"DIMENSIONS', found {line[:60]!r}")
                    expected = int(fields[1])
                    continue
                if not line.strip():
                    continue
                if expected is None:
                    expected = len(fields) - 1
                if len(fields) - 1 != expected:
                    raise ModelError(
                        f"{path}: line {number} has {len(fields) - 1} values where the others "
                        f"have {expected} (ragged rows); fix or remove that line")
    except UnicodeDecodeError as exc:
        raise ModelError(f"{path}: is not UTF-8 text ({exc}); for a binary file pass "
                         "--format word2vec-bin or fasttext-bin") from None
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc})") from None
