"""Every file of the model cache is read as a regular file of its own folder and never past a
bound (review, low): a named pipe in place of ``words.json`` (or the manifest) had
``codenames clue`` wait for ever, ``words.json`` linked to ``/dev/zero`` with a manifest that
lies (size 0, the digest of nothing) was a MemoryError traceback, and a link to a copy of the
file elsewhere was read as the model's own. Each is now damage like any other: a built-in
model is converted again, a model of your own is refused with the command that re-adds it.
The reads run in a real process with a timeout and a memory limit, so a wait or an unbounded
read fails the test instead of hanging it or filling the machine."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from codenames_ai.vectors import ModelStore, load_model
from codenames_ai.vectors.default import _load

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not hasattr(os, "O_NOFOLLOW"),
                                reason="no named pipes or O_NOFOLLOW here")

MEMORY = 2 << 30  # the reading process's address space: /dev/zero read whole fails fast

OPEN_MINE = """
import sys
from codenames_ai.core import ModelError
from codenames_ai.vectors import ModelStore
try:
    ModelStore(sys.argv[1]).open("mine")
except ModelError as exc:
    print(exc)
"""

LOAD_BUILT_IN = """
import sys
from codenames_ai.vectors import load_model
print(len(load_model("wordnet-3.0", cache_dir=sys.argv[1]).words))
"""


def limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(script: str, cache: Path) -> tuple[str, str]:
    """What ``script`` printed, and its warnings; it must end well within the bounds."""
    done = subprocess.run([sys.executable, "-c", script, str(cache)], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL,
                          preexec_fn=limit_memory)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.strip(), done.stderr.strip()


def pipe(folder: Path, name: str) -> str:
    (folder / name).unlink()
    os.mkfifo(folder / name)
    return "it is a named pipe, not a regular file"


def link_to_a_copy(folder: Path, name: str) -> str:
    # The same bytes, so the manifest matches: only where the file lives is wrong.
    outside = folder.parent.parent.parent / f"outside-{name}"
    outside.write_bytes((folder / name).read_bytes())
    (folder / name).unlink()
    (folder / name).symlink_to(outside)
    return "it is a symbolic link, not a regular file"


def link_to_zero_with_a_lying_manifest(folder: Path, name: str) -> str:
    (folder / name).unlink()
    (folder / name).symlink_to("/dev/zero")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"][name] = {"size": 0, "checksum": "sha256:" + hashlib.sha256().hexdigest()}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return "it is a symbolic link, not a regular file"


TAMPERING: list[tuple[str, Callable[[Path, str], str]]] = [
    ("words.json", pipe), ("vectors.npy", pipe), ("words.json", link_to_a_copy),
    ("vectors.npy", link_to_a_copy), ("meta.json", link_to_a_copy),
    ("words.json", link_to_zero_with_a_lying_manifest),
]


@pytest.mark.parametrize(("name", "tamper"), TAMPERING)
def test_a_pipe_or_link_in_a_model_of_your_own_is_refused_with_how_to_re_add_it(
        tmp_path: Path, vector_files: dict[str, Path], name: str,
        tamper: Callable[[Path, str], str]) -> None:
    store = ModelStore(tmp_path / "cache")
    store.add_file("mine", vector_files["glove"])
    reason = tamper(store.path("mine"), name)
    message, _ = run(OPEN_MINE, tmp_path / "cache")
    assert f"{store.path('mine') / name}" in message and reason in message, message
    assert "add it again: codenames models add mine " in message, message


def test_a_pipe_as_the_manifest_is_a_damaged_manifest(
        tmp_path: Path, vector_files: dict[str, Path]) -> None:
    store = ModelStore(tmp_path / "cache")
    store.add_file("mine", vector_files["glove"])
    pipe(store.path("mine"), "manifest.json")
    message, _ = run(OPEN_MINE, tmp_path / "cache")
    assert "manifest.json is missing or damaged; add it again" in message, message


@pytest.mark.parametrize(("name", "tamper"), TAMPERING)
def test_a_built_in_model_with_a_pipe_or_link_is_converted_again(
        tmp_path: Path, name: str, tamper: Callable[[Path, str], str]) -> None:
    _load.cache_clear()
    cache = tmp_path / "cache"
    first = load_model("wordnet-3.0", cache_dir=cache)
    words, matrix = list(first.words), np.array(first.vectors)
    _load.cache_clear()
    folder = ModelStore(cache).path("wordnet-3.0")
    reason = tamper(folder, name)
    loaded, warning = run(LOAD_BUILT_IN, cache)
    assert loaded == str(len(words))
    assert f"{folder / name}" in warning and reason in warning, warning
    assert warning.endswith("converting it again"), warning
    assert all(not p.is_symlink() and p.is_file() for p in folder.iterdir())
    again = load_model("wordnet-3.0", cache_dir=cache)
    assert list(again.words) == words and np.array(again.vectors).tobytes() == matrix.tobytes()
    _load.cache_clear()
