"""Reading word vectors in any format gensim knows, with clear errors for bad files.

Nothing is allocated on a file's word: before gensim reads a file, the sizes its header
claims (words x dimensions) are checked against the bytes the file holds (for a gzip file,
the most its bytes can inflate to), and every row of a text or word2vec binary file is
walked without loading it: the same number of values everywhere, no word twice, the count
the header says; a fastText ``.bin`` is walked whole (``fasttext_bin``). After reading, a
vector that is not finite or is all zeros is refused, naming its word and row
(``check_rows``).
"""

from __future__ import annotations

import gzip
import mmap
import struct
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..core.errors import ModelError, choose
from ..files import NotRegular, open_regular
from .fasttext_bin import FASTTEXT_MAGIC, MAX_WORD, check_fasttext_bin
from .model import PlainVectors

if TYPE_CHECKING:
    from gensim.models import KeyedVectors

GZIP_RATIO = 1032  # the most deflate can inflate a byte to
MAX_LINE = 4 * 2**20  # bytes in one row of a text file (300 values take ~3 KB)
BOM = b"\xef\xbb\xbf"  # a UTF-8 byte-order mark, which some editors put first


class VectorFormat(Enum):
    WORD2VEC_BIN = "word2vec-bin"
    WORD2VEC_TEXT = "word2vec-text"
    GLOVE = "glove"  # text, one word and its numbers per line, no header
    FASTTEXT_VEC = "fasttext-vec"  # text with a header, as fastText writes it
    FASTTEXT_BIN = "fasttext-bin"  # with subwords: vectors for unknown words too
    GENSIM = "gensim"  # KeyedVectors.save (.kv): a pickle, refused (``refuse_pickle``)


def parse_format(name: str) -> VectorFormat:
    return choose(VectorFormat, name, "vector format", ModelError)


def _check_file(path: Path) -> None:
    """``ModelError`` unless ``path`` is a regular file this process can read: missing, or
    what it is instead (a folder, a named pipe, a device), as ``files.open_regular`` names
    it (a pipe is never waited on, a device never read)."""
    try:
        open_regular(path).close()
    except FileNotFoundError:
        raise ModelError(f"{path}: no such file") from None
    except NotRegular as exc:
        raise ModelError(f"{path}: {exc}; give the word-vector file itself") from None
    except OSError as exc:
        raise ModelError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def detect_format(path: Path) -> VectorFormat:
    """Guess the format from the name and the first bytes; ``ModelError`` if unreadable."""
    _check_file(path)
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
    first_line = head.removeprefix(BOM).split(b"\n", 1)[0]
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


def read_vectors(path: Path, vector_format: VectorFormat | None = None
                 ) -> KeyedVectors | PlainVectors:
    """An uncompressed word2vec binary file as ``PlainVectors`` whose rows are read from the
    mapped file (``mapped_binary``); any other format loaded into memory as gensim
    ``KeyedVectors`` (``FastTextKeyedVectors`` for a
    fastText ``.bin``). Raises ``ModelError`` naming the file, the format and the problem."""
    path = Path(path)
    fmt = vector_format or detect_format(path)
    if fmt is VectorFormat.GENSIM:
        raise refuse_pickle(path)
    _check_file(path)
    if path.stat().st_size == 0:  # gensim's reasons for it ("NoneType ...") would mislead
        raise ModelError(f"{path}: is empty, so it has no word vectors")
    if fmt in (VectorFormat.GLOVE, VectorFormat.WORD2VEC_TEXT, VectorFormat.FASTTEXT_VEC):
        check_text_rows(path, has_header=fmt is not VectorFormat.GLOVE)
    elif fmt is VectorFormat.WORD2VEC_BIN:
        if path.suffix.lower() != ".gz":  # rows read from the map, a chunk at a time
            return mapped_binary(path)
        check_binary_rows(path)
    elif fmt is VectorFormat.FASTTEXT_BIN:
        check_fasttext_bin(path)
    from gensim.models import KeyedVectors  # imported here: a cache hit never needs it

    try:
        if fmt is VectorFormat.FASTTEXT_BIN:
            from gensim.models.fasttext import load_facebook_vectors

            vectors = load_facebook_vectors(str(path))
        elif fmt is VectorFormat.WORD2VEC_BIN:
            vectors = KeyedVectors.load_word2vec_format(str(path), binary=True)
        else:
            vectors = KeyedVectors.load_word2vec_format(  # -sig: a leading BOM is no word
                str(path), binary=False, no_header=fmt is VectorFormat.GLOVE,
                encoding="utf-8-sig")
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


def refuse_pickle(path: Path) -> ModelError:
    """Why a gensim ``.kv`` file is not read, and how to convert it: it is a pickle, and
    loading a pickle runs whatever code it holds."""
    return ModelError(
        f"{path}: a gensim .kv file is a Python pickle, which can run any code when it is "
        "loaded, so it is not read; convert it to word2vec format where you trust it, "
        "python -c \"from gensim.models import KeyedVectors as K; "
        f"K.load('{path.name}').save_word2vec_format('{path.stem}.bin', binary=True)\", "
        f"then add {path.stem}.bin")


def available_bytes(path: Path) -> int:
    """The most bytes reading ``path`` can give: its size, or for gzip what that can inflate
    to."""
    size = path.stat().st_size
    return size * GZIP_RATIO if path.suffix.lower() == ".gz" else size


def parse_header(line: bytes | str, path: Path) -> tuple[int, int]:
    """``WORDS DIMENSIONS`` from a header line; ``ModelError`` if it is not one."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.removeprefix("\ufeff")
    fields = text.split()
    if len(fields) != 2 or not all(f.isdigit() and len(f) <= 12 for f in fields) or \
            int(fields[0]) < 1 or int(fields[1]) < 1:
        raise ModelError(f"{path}: line 1 should be the header 'WORDS DIMENSIONS' (two "
                         f"positive whole numbers), found {text[:60]!r}")
    return int(fields[0]), int(fields[1])


def check_claim(path: Path, words: int, dimensions: int, least_row: int) -> None:
    """A header's claim must fit the file: ``words`` rows of at least ``least_row`` bytes."""
    needed, held = words * least_row, available_bytes(path)
    if needed > held:
        inflated = " once inflated, at most" if path.suffix.lower() == ".gz" else ""
        raise ModelError(f"{path}: the header says {words:,} words x {dimensions:,} "
                         f"dimensions, which needs at least {needed:,} bytes, but the file "
                         f"holds {held:,}{inflated}; it is truncated or its header is wrong")


def check_text_rows(path: Path, *, has_header: bool) -> None:
    """Every row of a text vector file must hold a word and the same number of values
    (gensim would silently pad a short row of a file without a header), no word may come
    twice, and a header's counts must be the file's."""
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    expected: int | None = None
    claimed = 0
    rows = 0
    seen: dict[str, int] = {}
    try:
        with opener(path, "rt", encoding="utf-8-sig") as handle:  # a leading BOM dropped
            number = 0
            while True:
                line = handle.readline(MAX_LINE)
                if not line:
                    break
                number += 1
                if len(line) == MAX_LINE and not line.endswith("\n"):
                    raise ModelError(f"{path}: line {number} is longer than {MAX_LINE:,} "
                                     "characters; this is not a vector file")
                fields = line.rstrip("\r\n").rstrip(" ").split(" ")
                if number == 1 and has_header:
                    claimed, expected = parse_header(line, path)
                    check_claim(path, claimed, expected, 2 * expected + 2)
                    continue
                if not line.strip():
                    continue
                if expected is None:
                    expected = len(fields) - 1
                if len(fields) - 1 != expected:
                    raise ModelError(
                        f"{path}: line {number} has {len(fields) - 1} values where the others "
                        f"have {expected} (ragged rows); fix or remove that line")
                first = seen.setdefault(fields[0], number)
                if first != number:
                    raise ModelError(f"{path}: line {number} repeats the word {fields[0]!r} "
                                     f"of line {first}; keep one of them")
                rows += 1
    except UnicodeDecodeError as exc:
        raise ModelError(f"{path}: is not UTF-8 text ({exc}); for a binary file pass "
                         "--format word2vec-bin or fasttext-bin") from None
    except (OSError, EOFError) as exc:
        raise ModelError(f"{path}: cannot read ({exc})") from None
    if has_header and rows != claimed:
        raise ModelError(f"{path}: the header says {claimed:,} words but the file has "
                         f"{rows:,} rows; fix the header or the file")


def check_binary_rows(path: Path) -> None:
    """The header of a gzip'd word2vec binary file against what the file can hold (it cannot
    be mapped; gensim reads it). An uncompressed one is walked row by row: ``mapped_binary``."""
    with _open_or_fail(path, gzip.open) as handle:
        words, dimensions = parse_header(handle.readline(64), path)
    check_claim(path, words, dimensions, 2 + 4 * dimensions)


def _walk_binary(path: Path, data: Any, position: int, words: int, dimensions: int
                 ) -> tuple[list[bytes], npt.NDArray[np.int64]]:
    """Each row's word and where its vector starts; ``ModelError`` for a file whose rows do
    not fit its header."""
    seen: dict[bytes, int] = {}
    width = 4 * dimensions
    starts = np.empty(words, dtype=np.int64)
    released = 0
    for row in range(1, words + 1):
        while data[position:position + 1] == b"\n":  # gensim skips a newline between rows
            position += 1
        space = data.find(b" ", position, position + MAX_WORD)
        if space < 0 or space + 1 + width > len(data):
            raise ModelError(f"{path}: row {row:,} of the {words:,} the header says is cut "
                             "short or has no word; the file is truncated or damaged")
        word = data[position:space]
        first = seen.setdefault(word, row)
        if first != row:
            raise ModelError(f"{path}: row {row:,} repeats the word "
                             f"{word.decode('utf-8', 'replace')!r} of row {first:,}; keep one "
                             "of them")
        starts[row - 1] = space + 1
        position = space + 1 + width
        if position - released > _RELEASE:
            released = _release(data, released, position)
    _release(data, released, position)
    if data[position:].strip():
        raise ModelError(f"{path}: holds more bytes after the {words:,} rows the header "
                         "says; the header is wrong")
    return list(seen), starts


# Bytes of a mapped file read before the pages read are handed back: a mapped file's pages
# count as the process's memory while mapped in, so a walk of a 3 GB file would otherwise
# hold all of it.
_RELEASE = 64 << 20


def _release(data: Any, start: int, end: int) -> int:
    """Let the system drop the mapped pages of ``data[start:end]`` from this process (they
    stay in the page cache); returns where the next release starts (a page boundary)."""
    first = start - start % mmap.PAGESIZE
    last = end - end % mmap.PAGESIZE
    if last > first and hasattr(data, "madvise"):
        data.madvise(mmap.MADV_DONTNEED, first, last - first)
    return max(first, last)


class MappedRows:
    """The vectors of a word2vec binary file, read from its map a chunk of rows at a time
    (``rows[a:b]``): a model of several GB is converted without its matrix in memory."""

    GATHER = 1024  # rows gathered at once: a bounded index array

    def __init__(self, data: Any, starts: npt.NDArray[np.int64], dimensions: int) -> None:
        self._data = data
        self._bytes = np.frombuffer(data, dtype=np.uint8)
        self._starts = starts
        self._width = np.arange(4 * dimensions, dtype=np.int64)
        self.shape = (len(starts), dimensions)
        self.dtype = np.dtype(np.float32)

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, rows: slice) -> npt.NDArray[np.float32]:
        starts = self._starts[rows]
        out = np.empty((len(starts), self.shape[1]), dtype=np.float32)
        for at in range(0, len(starts), self.GATHER):
            block = self._bytes[starts[at:at + self.GATHER, None] + self._width]
            out[at:at + self.GATHER] = block.view("<f4").astype(np.float32, copy=False)
        if len(starts):  # rows are read in file order: the pages read go back
            _release(self._data, int(starts.min()), int(starts.max()))
        return out


def mapped_binary(path: Path) -> PlainVectors:
    """A word2vec binary file's words and its rows read from the mapped file (``MappedRows``),
    after a walk of every row (a word, a space, ``4 x DIMENSIONS`` bytes) without reading its
    numbers: the header's counts must be the file's, no word twice. The words as gensim reads
    them (UTF-8)."""
    with _open_or_fail(path, open) as handle:
        words, dimensions = parse_header(handle.readline(64), path)
        check_claim(path, words, dimensions, 2 + 4 * dimensions)
        start = handle.tell()
        try:
            data: Any = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:
            raise ModelError(f"{path}: cannot read ({exc})") from None
    raw, starts = _walk_binary(path, data, start, words, dimensions)
    decoded = []
    for row, word in enumerate(raw, 1):
        try:
            decoded.append(word.decode("utf-8"))
        except UnicodeDecodeError:
            raise ModelError(f"{path}: the word of row {row:,} is not UTF-8 text; the file is "
                             "damaged or not word2vec") from None
    if not words or not dimensions:
        raise ModelError(f"{path}: has no word vectors")
    return PlainVectors(decoded, MappedRows(data, starts, dimensions))  # type: ignore[arg-type]


# Rows handled at once when a whole matrix is checked or written: a bounded working set
# (16,384 rows x 300 dimensions is 20 MB), whatever the model's size.
ROWS_PER_CHUNK = 16_384


def check_rows(words: list[str] | tuple[str, ...], matrix: npt.NDArray[Any], source: str
               ) -> None:
    """``ModelError`` naming the first vector that is not finite, or is all zeros (a cosine
    with it is undefined), or a word listed twice."""
    for start in range(0, len(matrix), ROWS_PER_CHUNK):  # a few MB of flags at a time
        chunk = np.asarray(matrix[start:start + ROWS_PER_CHUNK])
        for problem, bad in (("is not finite (NaN or infinity)",
                              ~np.isfinite(chunk).all(axis=1)),
                             ("is all zeros", ~chunk.any(axis=1))):
            rows = np.flatnonzero(bad)
            if rows.size:
                row = start + int(rows[0])
                raise ModelError(f"{source}: the vector of {words[row]!r} (row {row + 1:,}) "
                                 f"{problem}; fix or remove that row")
    if len(set(words)) != len(words):
        seen: set[str] = set()
        twice = next(w for w in words if w in seen or seen.add(w))  # type: ignore[func-returns-value]
        raise ModelError(f"{source}: the word {twice!r} has two vectors; keep one of them")


def _open_or_fail(path: Path, opener: Any) -> Any:
    try:
        return opener(path, "rb")
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc})") from None
