"""Fixtures shared with other test folders."""

from ..vectors.conftest import vector_files  # noqa: F401 (tiny real vector files in every format)
