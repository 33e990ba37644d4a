"""Checked cache folders: every file of a cache folder is listed in the folder's
``manifest.json`` with its size and a checksum, and a NumPy array also with its shape and
dtype, so a file that was cut short, overwritten or replaced is found before it is used.

Checksums, by size: SHA-256 of the whole file up to ``SMALL`` bytes (the word lists, the
descriptions, the analysed vocabularies); CRC-32 of the whole file up to ``WHOLE`` bytes
(about 60 ms for 80 MB here); above that a CRC-32 of
``SAMPLES`` blocks spread over the file, the cheap check of very large models (a few
overwritten bytes there may go unnoticed; a cut or a different size never does). A file
written ``quick`` (a model's vectors and the panel's memory-mapped tables, read in place and
checked at every start) gets a CRC-32 of
``QUICK_SAMPLES`` small blocks, whatever its size.

A file is written with ``write`` (atomically, then listed, both under the folder's lock) and
read back with ``read``, which gives ``None`` for a file that is missing, unlisted or damaged,
so the caller rebuilds it. Files used in place (memory-mapped
matrices) are checked with ``problem`` and mapped with ``map_array``.

Every file is opened by ``files.open_regular`` without following a symbolic link (the
toolkit writes none here): a named pipe is never waited on, a device never read, and a link
to a file elsewhere is damage like any other. Nothing is read past a bound: the size the
manifest gives, or ``MAX_MANIFEST_BYTES`` for the manifest itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..files import atomic_write, file_lock, open_regular, read_bounded

MANIFEST_FILE = "manifest.json"
LOCK_FILE = ".lock"
MANIFEST_FORMAT = "codenames-ai/cache-manifest"
SMALL = 32 * 2**20
WHOLE = 2**30
SAMPLES = 256
BLOCK = 64 * 2**10
QUICK_SAMPLES = 64
QUICK_BLOCK = 4 * 2**10
QUICK = "crc32-quick:"
# The most read of a manifest: an entry is about 150 bytes, and a folder holds a few dozen.
MAX_MANIFEST_BYTES = 16 << 20

ReadAt = Callable[[int, int], bytes]  # (offset, length) -> bytes


def describe(path: Path, *, quick: bool = False) -> dict[str, Any]:
    """A manifest entry for the file at ``path`` (``quick``: see the module's notes);
    ``NotRegular`` (an ``OSError``) for a link, named pipe, device or folder."""
    with open_regular(path, follow=False) as handle:
        size = os.fstat(handle.fileno()).st_size
        entry: dict[str, Any] = {"size": size,
                                 "checksum": _checksum(_reader(handle), size, quick)}
        if path.suffix == ".npy":
            handle.seek(0)
            entry["shape"], entry["dtype"] = _array_header(handle)
    return entry


def map_array(path: Path) -> np.ndarray:
    """The ``.npy`` file at ``path`` memory-mapped read-only, as ``np.load(path,
    mmap_mode="r")`` maps it, but opened as every cache file is (``open_regular``, never
    through a link): ``NotRegular`` or another ``OSError`` if it cannot be, ``ValueError``
    for a header that is not one of an array of plain numbers."""
    with open_regular(path, follow=False) as handle:
        version = np.lib.format.read_magic(handle)
        read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                else np.lib.format.read_array_header_2_0)
        shape, fortran_order, dtype = read(handle)
        if dtype.hasobject:
            raise ValueError("Array can't be memory-mapped: Python objects in dtype.")
        # The map holds its own reference to the file: closing the handle leaves it whole.
        return np.memmap(handle, dtype=dtype, mode="r", shape=shape, offset=handle.tell(),
                         order="F" if fortran_order else "C")


def _reader(handle: IO[bytes]) -> ReadAt:
    def read_at(offset: int, length: int) -> bytes:
        handle.seek(offset)
        return handle.read(length)
    return read_at


def _checksum(read_at: ReadAt, size: int, quick: bool = False) -> str:
    if quick:
        crc = 0
        step = max(1, (size - QUICK_BLOCK) // (QUICK_SAMPLES - 1))
        for offset in range(0, max(size - QUICK_BLOCK, 0) + 1, step)[:QUICK_SAMPLES]:
            crc = zlib.crc32(read_at(offset, QUICK_BLOCK), crc)
        return f"{QUICK}{crc:08x}"
    if size <= SMALL:
        return "sha256:" + hashlib.sha256(read_at(0, size)).hexdigest()
    if size <= WHOLE:
        crc = 0
        for offset in range(0, size, 8 * 2**20):
            crc = zlib.crc32(read_at(offset, 8 * 2**20), crc)
        return f"crc32:{crc:08x}"
    crc = 0
    for offset in _sample_offsets(size):
        crc = zlib.crc32(read_at(offset, BLOCK), crc)
    return f"crc32-sampled:{crc:08x}"


def _sample_offsets(size: int) -> Iterator[int]:
    step = (size - BLOCK) // (SAMPLES - 1)
    for i in range(SAMPLES):
        yield i * step


def _array_header(handle: IO[bytes]) -> tuple[list[int], str]:
    """Shape and dtype from a ``.npy`` header (``ValueError`` if it is not one)."""
    version = np.lib.format.read_magic(handle)
    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
            else np.lib.format.read_array_header_2_0)
    shape, _, dtype = read(handle)
    return [int(n) for n in shape], dtype.str


class CheckedFolder:
    """A cache folder whose files are listed in its manifest."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Exclusive between processes: writers of this folder's files and manifest."""
        with file_lock(self.root / LOCK_FILE, private=True):
            yield

    def entries(self) -> dict[str, dict[str, Any]]:
        """The manifest's entries; empty if there is none or it cannot be read."""
        try:
            document = json.loads(read_bounded(self.root / MANIFEST_FILE, MAX_MANIFEST_BYTES,
                                               follow=False))
        except (OSError, ValueError, RecursionError):
            return {}
        files = document.get("files") if isinstance(document, dict) else None
        if not isinstance(files, dict) or document.get("format") != MANIFEST_FORMAT:
            return {}
        return {name: entry for name, entry in files.items() if isinstance(entry, dict)}

    def problem(self, names: Iterable[str]) -> str:
        """What is wrong with these files, or ``""`` if each is listed and matches."""
        entries = self.entries()
        if not entries:
            return f"{self.root / MANIFEST_FILE} is missing or damaged"
        for name in names:
            path = self.root / name
            expected = entries.get(name)
            if expected is None:
                return f"{path} is not listed in {MANIFEST_FILE}"
            try:
                found = describe(path, quick=_is_quick(expected))
            except FileNotFoundError:
                return f"{path} is missing"
            except (OSError, ValueError) as exc:
                return f"{path} cannot be read ({exc})"
            if found != expected:
                return f"{path} {_difference(expected, found)}"
        return ""

    def list_files(self, names: Iterable[str], *, quick: Iterable[str] = ()) -> None:
        """Describe these files (already written) in the manifest, replacing older entries;
        those in ``quick`` checked by a few samples (see the module's notes)."""
        sampled = set(quick)
        with self.lock():
            entries = self.entries()
            entries.update({name: describe(self.root / name, quick=name in sampled)
                            for name in names})
            self._write_manifest(entries)

    def read(self, name: str) -> bytes | None:
        """The file's bytes if it is listed and matches; ``None`` otherwise, and the caller
        rebuilds it (``write`` replaces it). A damaged file is left for that write rather
        than removed here: readers take no lock, and between a writer's rename and its
        manifest update the new file would look damaged."""
        expected = self.entries().get(name)
        size = expected.get("size") if expected is not None else None
        if expected is None or type(size) is not int or size < 0:
            return None
        try:
            data = read_bounded(self.root / name, size, follow=False)
        except OSError:  # TooLarge too: longer than listed
            return None
        if len(data) != size or expected.get(
                "checksum") != _checksum(lambda o, n: data[o:o + n], len(data),
                                         _is_quick(expected)):
            return None
        return data

    def write(self, name: str, data: bytes, *, quick: bool = False) -> None:
        """Write the file atomically and list it (``OSError`` if the folder is read-only);
        ``quick``: checked by a few samples (see the module's notes)."""
        with self.lock():
            atomic_write(self.root / name, data, private=True)
            entries = self.entries()
            entries[name] = describe(self.root / name, quick=quick)
            for old in self._drop_pickles():
                entries.pop(old, None)
            self._write_manifest(entries)

    def drop_pickles(self, *names: str) -> None:
        """Remove an older version's pickles (``*.pickle``, and ``names``: a model's
        ``model.kv``) and their manifest entries, under the folder's lock; nothing is
        locked or written when there are none. A folder that cannot be written keeps them
        (they are never read)."""
        if not any(self._pickles(names)):
            return
        with contextlib.suppress(OSError), self.lock():
            entries = self.entries()
            dropped = [name for name in self._drop_pickles(names) if name in entries]
            if dropped:
                self._write_manifest({k: v for k, v in entries.items() if k not in dropped})

    def _pickles(self, names: Iterable[str] = ()) -> Iterator[Path]:
        yield from self.root.glob("*.pickle")
        yield from (self.root / name for name in names if (self.root / name).is_file())

    def _drop_pickles(self, names: Iterable[str] = ()) -> list[str]:
        """Remove an older version's pickles (``legality-*.pickle``, and ``names``): never
        read, they would only wait there for a version that unpickles again. Their names."""
        dropped = []
        for path in list(self._pickles(names)):
            with contextlib.suppress(OSError):
                path.unlink()
                dropped.append(path.name)
        return dropped

    def _write_manifest(self, entries: dict[str, dict[str, Any]]) -> None:
        document = {"format": MANIFEST_FORMAT, "version": 1, "files": entries}
        atomic_write(self.root / MANIFEST_FILE,
                     (json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8"),
                     private=True)


def _is_quick(entry: dict[str, Any]) -> bool:
    checksum = entry.get("checksum")
    return isinstance(checksum, str) and checksum.startswith(QUICK)


def _difference(expected: dict[str, Any], found: dict[str, Any]) -> str:
    if expected.get("size") != found["size"]:
        return f"has {found['size']:,} bytes, the manifest says {expected.get('size')!r}"
    for key in ("shape", "dtype"):
        if expected.get(key) != found.get(key):
            return f"holds an array of {key} {found.get(key)}, the manifest says " \
                   f"{expected.get(key)}"
    return "has other bytes than when it was written (its checksum differs)"
