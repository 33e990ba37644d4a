"""A fastText ``.bin`` is walked whole before gensim reads it (issue 29, second round,
finding 3): a word without its NUL end made gensim read the end of the file forever, a huge
``maxn`` made it build every substring of every word. A damaged file is one line naming it
and nothing is added; a real file gensim wrote is still added."""

from __future__ import annotations

import gzip
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import codenames_ai
from codenames_ai.core import ModelError
from codenames_ai.vectors import ModelStore, read_vectors

MAXN = 8 + 4 * 10  # byte offset of maxn: after magic, version and 10 int32 arguments
MATRIX = 16 + 1  # bytes of a matrix's header: rows, columns (int64) after the flag byte


def never_ending_word(path: Path) -> Path:
    """The review's 212-byte file: a header that fits, one word with no NUL after it."""
    header = struct.pack("<2i", 793712314, 12)
    header += struct.pack("<12i", 1, 5, 5, 1, 5, 1, 1, 1, 0, 3, 6, 100)
    header += struct.pack("<d", 1e-4)
    vocabulary = struct.pack("<3i", 1, 1, 0) + struct.pack("<q", 1) + struct.pack("<q", -1)
    path.write_bytes(header + vocabulary + b"w" * 120)
    return path


def test_a_word_without_its_end_is_one_line_not_a_hang(tmp_path: Path) -> None:
    path = never_ending_word(tmp_path / "tiny.bin")
    assert path.stat().st_size == 212
    cache = tmp_path / "cache"
    clone = str(Path(codenames_ai.__file__).parent.parent)
    run = subprocess.run([sys.executable, "-m", "codenames_ai", "models", "add", "tiny",
                          str(path), "--cache-dir", str(cache)], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": clone})
    assert run.returncode == 1
    assert run.stderr.strip() == (f"error: {path}: it ends inside word 1 (no NUL ends it); "
                                  "the file is damaged or not a fastText .bin")
    assert ModelStore(cache).names() == []


def huge_sizes(pruned: int, output_rows: int | None) -> bytes:
    """The review's 103- and 141-byte files: one word of one dimension, then a pruned index
    of ``pruned`` pairs, or an output matrix of ``output_rows`` rows, neither in the file."""
    data = struct.pack("<2i12id", 793712314, 12, 1, 5, 5, 1, 5, 1, 1, 1, 0, 3, 6, 100, 1e-4)
    data += struct.pack("<3i2q", 1, 1, 0, 1, pruned) + b"w\0" + struct.pack("<qb", 1, 0)
    if output_rows is not None:
        data += struct.pack("<?2qf", False, 1, 1, 0.5) + struct.pack("<?2q", False,
                                                                        output_rows, 1)
    return data


@pytest.mark.parametrize(("pruned", "output_rows", "what"), [
    (2**62, None, "the pruned index"),
    (2**60 + 7, None, "the pruned index"),  # 8 bytes each: past 2^63
    (-1, 2**62, "the output matrix"),
])
def test_a_size_beyond_the_file_is_one_line_not_a_traceback(
        tmp_path: Path, pruned: int, output_rows: int | None, what: str) -> None:
    """An overflowing seek ended ``models add`` in a ~50-line ValueError traceback."""
    path = tmp_path / "huge.bin"
    path.write_bytes(huge_sizes(pruned, output_rows))
    cache = tmp_path / "cache"
    clone = str(Path(codenames_ai.__file__).parent.parent)
    run = subprocess.run([sys.executable, "-m", "codenames_ai", "models", "add", "huge",
                          str(path), "--cache-dir", str(cache)], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": clone})
    assert run.returncode == 1, run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(f"error: {path}: it ends inside {what}"), run.stderr
    assert "the file is damaged or not a fastText .bin" in run.stderr
    assert ModelStore(cache).names() == []


def patched(source: Path, target: Path, offset: int, fmt: str, value: int) -> Path:
    data = bytearray(source.read_bytes())
    struct.pack_into(fmt, data, offset, value)
    target.write_bytes(bytes(data))
    return target


def input_matrix_offset(data: bytes) -> int:
    """Where the input matrix's header starts in a file gensim wrote (no pruned index)."""
    position = 64 + 28  # the arguments, the dictionary's header
    size, = struct.unpack_from("<i", data, 64)
    for _ in range(size):
        position = data.index(b"\0", position) + 1 + 9  # the word's NUL, count and type
    return position


@pytest.mark.parametrize(("maxn", "message"), [
    (1000, "subwords of 3 to 1000 characters"),
    (11, "subwords of 3 to 11 characters"),
])
def test_a_huge_maxn_is_refused(vector_files: dict[str, Path], tmp_path: Path, maxn: int,
                                message: str) -> None:
    path = patched(vector_files["fasttext-bin"], tmp_path / "maxn.bin", MAXN, "<i", maxn)
    with pytest.raises(ModelError, match=message):
        ModelStore(tmp_path / "cache").add_file("maxn", path)
    assert ModelStore(tmp_path / "cache").names() == []


def test_a_cut_or_resized_matrix_is_refused(vector_files: dict[str, Path], tmp_path: Path
                                            ) -> None:
    data = vector_files["fasttext-bin"].read_bytes()
    start = input_matrix_offset(data)
    rows, columns = struct.unpack_from("<2q", data, start + 1)
    assert columns == 4 and rows > 1000  # the words and 1000 buckets
    cut = tmp_path / "cut.bin"
    cut.write_bytes(data[:start + MATRIX + 4 * rows * columns - 8])
    with pytest.raises(ModelError, match="it ends inside the input matrix"):
        read_vectors(cut)
    output = tmp_path / "output.bin"
    output.write_bytes(data[:-1])
    with pytest.raises(ModelError, match="it ends inside the output matrix"):
        read_vectors(output)
    bigger = patched(vector_files["fasttext-bin"], tmp_path / "rows.bin", start + 1, "<q",
                     rows + 1)
    with pytest.raises(ModelError, match=f"the input matrix is {rows + 1:,} x 4 where the "
                                         f"header says {rows:,} rows x 4"):
        read_vectors(bigger)


def test_a_real_fasttext_file_is_still_added(vector_files: dict[str, Path], tmp_path: Path
                                             ) -> None:
    info = ModelStore(tmp_path / "cache").add_file("fast", vector_files["fasttext-bin"])
    assert (info.vocabulary, info.dimensions) == (7, 4)


def test_a_compressed_fasttext_file_is_refused_with_what_to_do(
        vector_files: dict[str, Path], tmp_path: Path) -> None:
    """gensim 4.4 reads the matrix of a .bin.gz short: it failed with an AssertionError."""
    path = tmp_path / "fast.bin.gz"
    path.write_bytes(gzip.compress(vector_files["fasttext-bin"].read_bytes()))
    with pytest.raises(ModelError, match=r"decompress it \(gunzip\) and add the .bin"):
        ModelStore(tmp_path / "cache").add_file("fast", path)
