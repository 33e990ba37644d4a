"""The arrays a cache keeps about legality (``.npz``), read back within bounds: plain arrays
only (no pickle), and no member that claims more than the file holds or expands past what such
a file ever needs. A cache file may have been replaced by anyone who could write there; a
few kilobytes of zip can claim gigabytes."""

from __future__ import annotations

import io
import math
import zipfile
from typing import Any

import numpy as np

# The most a legality file expands to: the filter of a 30,000-word vocabulary is about 1 MB.
MAX_EXPANDED = 256 << 20


def open_npz(data: bytes) -> Any:
    """``np.load`` of the ``.npz`` bytes ``data`` (a context manager), after checking each
    member's size and array header without expanding it: ``ValueError`` for one past the
    bounds, ``zipfile.BadZipFile`` for bytes that are not a zip."""
    total = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            total += info.file_size
            if total > MAX_EXPANDED:
                raise ValueError(f"expands past {MAX_EXPANDED >> 20} MB")
            with archive.open(info) as member:
                _check_header(member, info.file_size)
    return np.load(io.BytesIO(data), allow_pickle=False)


def _check_header(member: Any, size: int) -> None:
    """``ValueError`` unless the member is an array of plain values no larger than ``size``
    (the zip's word, which reading it holds to): numpy allocates what the header claims
    before it reads."""
    version = np.lib.format.read_magic(member)
    if version == (1, 0):
        shape, _, dtype = np.lib.format.read_array_header_1_0(member)
    elif version == (2, 0):
        shape, _, dtype = np.lib.format.read_array_header_2_0(member)
    else:
        raise ValueError(f"array format {version} is not one this toolkit writes")
    if dtype.hasobject or math.prod(shape) * dtype.itemsize > size:
        raise ValueError("an array that claims more than its file holds")
