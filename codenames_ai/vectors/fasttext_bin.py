"""Walking a fastText ``.bin`` before gensim reads it.

gensim's loader trusts the file: a word without its NUL end makes it read ``b''`` at the end
of the file forever, a huge ``maxn`` makes it build every substring of every word, and the
matrix sizes decide what it allocates. ``check_fasttext_bin`` walks the whole layout gensim
4.4 reads (``gensim/models/_fasttext_bin.py``), with reads of at most ``CHUNK`` bytes, and
raises ``ModelError`` naming the file and the first thing wrong.

The layout (little-endian): magic and version (int32); the arguments (12 int32: dim, ws,
epoch, min_count, neg, word_ngrams, loss, model, bucket, minn, maxn, lr_update_rate; then t,
a double); the dictionary (size, nwords, nlabels int32; ntokens, pruneidx_size int64; then
``size`` entries of a NUL-terminated word, an int64 count and an int8 type; then
``pruneidx_size`` pairs of int32); the input matrix (a quantisation flag byte, rows and
columns int64, rows x columns float32); and optionally the output matrix the same way.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import IO

from ..core.errors import ModelError

FASTTEXT_MAGIC = 793712314  # the first int32 of a fastText .bin file
VERSIONS = (11, 12)  # the versions fastText itself loads; their layout is the same
MAX_WORD = 4096  # bytes in one word of a binary file
MAX_NGRAM = 10  # longest subword (fastText's default maxn is 6): each word yields them all
MAX_DIMENSIONS = 10_000  # published models have 300
MAX_BUCKET = 50_000_000  # subword buckets; fastText's default is 2,000,000
CHUNK = 2**16  # bytes asked of the file at once

_ARGS = struct.Struct("<2i12id")  # magic, version, the 12 int32 arguments, t
_DICTIONARY = struct.Struct("<3i2q")  # size, nwords, nlabels, ntokens, pruneidx_size
_ENTRY = struct.Struct("<qb")  # a word's count and its type (0: a word, 1: a label)
_MATRIX = struct.Struct("<?2q")  # quantised?, rows, columns


class _Reader:
    """Bounded reads over an open file: ``take`` exact small sizes, ``word`` up to a NUL,
    ``skip`` a matrix without reading it into memory."""

    def __init__(self, handle: IO[bytes], path: Path) -> None:
        self.handle, self.path = handle, path
        self.buffer = bytearray()
        self.position = 0  # of the next unread byte in ``buffer``

    def fail(self, problem: str) -> ModelError:
        return ModelError(f"{self.path}: {problem}; the file is damaged or not a fastText "
                          ".bin")

    def _fill(self, wanted: int) -> bool:
        """At least ``wanted`` unread bytes in the buffer; False at the end of the file."""
        if self.position > CHUNK:
            del self.buffer[:self.position]
            self.position = 0
        while len(self.buffer) - self.position < wanted:
            chunk = self.handle.read(CHUNK)
            if not chunk:
                return False
            self.buffer += chunk
        return True

    def take(self, size: int, what: str) -> bytes:
        if not self._fill(size):
            raise self.fail(f"it ends inside {what}")
        data = bytes(self.buffer[self.position:self.position + size])
        self.position += size
        return data

    def word(self, number: int) -> bytes:
        while True:
            end = self.buffer.find(b"\0", self.position, self.position + MAX_WORD + 1)
            if end >= 0:
                data = bytes(self.buffer[self.position:end])
                self.position = end + 1
                return data
            unread = len(self.buffer) - self.position
            if unread > MAX_WORD:
                raise self.fail(f"word {number:,} is longer than {MAX_WORD:,} bytes")
            if not self._fill(unread + 1):
                raise self.fail(f"it ends inside word {number:,} (no NUL ends it)")

    def skip(self, size: int, what: str) -> None:
        buffered = min(size, len(self.buffer) - self.position)
        self.position += buffered
        rest = size - buffered
        # A size from the file is checked against what is left before seeking: a huge one
        # (2^62 rows) would overflow the seek's offset instead of meeting the end.
        if rest > os.fstat(self.handle.fileno()).st_size - self.handle.tell():
            raise self.fail(f"it ends inside {what}")
        if rest:  # seek to the last byte and read it: that byte exists or the file is short
            self.handle.seek(rest - 1, 1)
            if len(self.handle.read(1)) != 1:
                raise self.fail(f"it ends inside {what}")

    def at_end(self) -> bool:
        return not self._fill(1)


def check_fasttext_bin(path: Path) -> None:
    """``ModelError`` unless ``path`` is a whole, sane fastText ``.bin`` gensim can load."""
    if path.suffix.lower() == ".gz":  # gensim 4.4 reads its matrix short through gzip
        raise ModelError(f"{path}: a compressed fastText .bin cannot be read; decompress it "
                         "(gunzip) and add the .bin")
    try:
        with open(path, "rb") as handle:
            _walk(_Reader(handle, path))
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc})") from None


def _walk(reader: _Reader) -> None:
    (magic, version, dim, _ws, _epoch, _min_count, _neg, _word_ngrams, _loss, _model,
     bucket, minn, maxn, _lr_update_rate, _t) = _ARGS.unpack(reader.take(_ARGS.size,
                                                                          "the header"))
    if magic != FASTTEXT_MAGIC or version not in VERSIONS:
        raise reader.fail(f"it starts with {magic}, version {version}, not fastText's "
                          f"{FASTTEXT_MAGIC}, version 11 or 12")
    _check_arguments(reader, dim, bucket, minn, maxn)
    size, nwords, nlabels, _ntokens, pruned = _DICTIONARY.unpack(
        reader.take(_DICTIONARY.size, "the dictionary's header"))
    if nlabels != 0:
        raise ModelError(f"{reader.path}: is a supervised fastText model ({nlabels:,} "
                         "labels); only word vectors (unsupervised models) can be added")
    if nwords < 1 or size != nwords:
        raise reader.fail(f"the dictionary says {size:,} entries and {nwords:,} words")
    seen: set[bytes] = set()
    for number in range(1, size + 1):
        word = reader.word(number)
        if not word or word in seen:
            raise reader.fail(f"word {number:,} is empty or comes twice")
        seen.add(word)
        _count, kind = _ENTRY.unpack(reader.take(_ENTRY.size, f"word {number:,}"))
        if kind != 0:
            raise reader.fail(f"word {number:,} has type {kind}, not 0 (a word)")
    if pruned > 0:  # -1 when the model was not pruned
        reader.skip(8 * pruned, "the pruned index")
    _check_matrix(reader, "input", nwords + bucket, dim)
    if not reader.at_end():  # fastText saves the output matrix too; gensim does not need it
        _check_matrix(reader, "output", None, dim)
        if not reader.at_end():
            raise reader.fail("it holds more bytes after its two matrices")


def _check_arguments(reader: _Reader, dim: int, bucket: int, minn: int, maxn: int) -> None:
    if not 0 < dim <= MAX_DIMENSIONS:
        raise reader.fail(f"the header says {dim:,} dimensions (1 to {MAX_DIMENSIONS:,})")
    if not 0 <= bucket <= MAX_BUCKET:
        raise reader.fail(f"the header says {bucket:,} subword buckets (0 to "
                          f"{MAX_BUCKET:,})")
    # maxn 0 means no subwords (minn is then unused); otherwise 1 <= minn <= maxn <= bound
    if not (maxn == 0 and 0 <= minn <= MAX_NGRAM or 1 <= minn <= maxn <= MAX_NGRAM):
        raise reader.fail(f"the header says subwords of {minn} to {maxn} characters (at "
                          f"most {MAX_NGRAM}, or maxn 0 for none)")


def _check_matrix(reader: _Reader, which: str, rows: int | None, dim: int) -> None:
    quantised, held_rows, columns = _MATRIX.unpack(
        reader.take(_MATRIX.size, f"the {which} matrix's header"))
    if quantised:
        raise ModelError(f"{reader.path}: is a quantised fastText model (.ftz); only a "
                         "full .bin can be added")
    if held_rows != (held_rows if rows is None else rows) or held_rows < 0 or columns != dim:
        expected = f"{rows:,}" if rows is not None else "some"
        raise reader.fail(f"the {which} matrix is {held_rows:,} x {columns:,} where the "
                          f"header says {expected} rows x {dim:,}")
    reader.skip(4 * held_rows * columns, f"the {which} matrix")
