"""A legality file in the cache is read within bounds (third round's second hostile review,
low): a ``.npz`` of a few kilobytes can claim gigabytes, in its zip sizes or in an array's
header, and numpy allocates what the header claims before it reads. A MemoryError traceback
under a memory limit before; now such a file is damage, and the filter is built again."""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import numpy as np

from codenames_ai.legality import CandidateFilter
from codenames_ai.legality.deckrows import DeckLegality

WORDS = ("cut", "knives", "fruit", "apples", "music", "drummer")


def claiming(shape: tuple[int, ...]) -> bytes:
    """An ``.npz`` whose one array's header claims ``shape`` of float64 over 8 bytes."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                  "shape": shape})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("signature.npy", header.getvalue() + bytes(8))
    return buffer.getvalue()


def expanding(size: int) -> bytes:
    """An ``.npz`` whose one array of zeros is ``size`` bytes, deflated to a few hundred KB."""
    array = io.BytesIO()
    np.save(array, np.zeros(size, dtype=np.uint8), allow_pickle=False)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("signature.npy", array.getvalue())
    return buffer.getvalue()


def test_an_array_header_that_claims_more_than_its_file_is_damage() -> None:
    data = claiming((10**11,))  # 800 GB: numpy's allocation fails at once
    assert CandidateFilter.loads(data, WORDS, "classic") is None
    assert DeckLegality.loads(data, "signature", ()) is None


def test_a_file_that_expands_past_the_bound_is_not_expanded() -> None:
    data = expanding(300 << 20)
    assert len(data) < 1 << 20
    tracemalloc.start()
    try:
        assert CandidateFilter.loads(data, WORDS, "classic") is None
        assert DeckLegality.loads(data, "signature", ()) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20, f"{peak >> 20} MB"


def test_a_filter_written_here_still_reads_back() -> None:
    built = CandidateFilter(WORDS, "classic")
    again = CandidateFilter.loads(built.dumps(), WORDS, "classic")
    assert again is not None
    assert np.array_equal(again.legal_mask(["knife"]), built.legal_mask(["knife"]))
