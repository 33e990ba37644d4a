"""Files and folders the command line writes (game records, a tournament's plots):
checked before the work starts, written whole.

A target is checked before the game starts, so a bad ``--record``/``--save`` costs one line
instead of a played game. The write goes to a temporary file beside the target that is then
renamed over it: a full disk or a killed process leaves the old file (or none), never half a
record. Devices, pipes and folders are refused up front: renaming over ``/dev/full`` would
replace the device instead of writing to it. A game record replaces only a game record: an
existing file of anything else (a typo for another file) is refused, not overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from .core.errors import ConfigError
from .core.record import RECORD_FORMAT
from .files import atomic_write, open_regular


def check_target(path: Path, option: str, *, record: bool = False) -> None:
    """Raise ``ConfigError`` unless ``path`` can take a file written by ``write_file``:
    not a folder or a device, in a folder (existing or to be made) that can be written;
    with ``record``, not an existing file other than a game record."""
    if "\0" in str(path):  # pathlib raises a bare ValueError on it
        raise ConfigError(f"{option} holds a NUL character; give a file name")
    try:
        _check(path, option)
        if record:
            _check_replaceable(path, option)
    except OSError as exc:  # a name too long, a loop of links, ...
        raise ConfigError(f"{path}: cannot use it as a file ({exc.strerror or exc}); give "
                          f"{option} another file name") from None


def _check(path: Path, option: str) -> None:
    target = _target(path)
    if target.is_dir():
        raise ConfigError(f"{path} is a folder; give {option} a file name, e.g. "
                          f"{path / 'game.jsonl'}")
    if target.exists() and not stat.S_ISREG(target.stat().st_mode):
        raise ConfigError(f"{path} is not a regular file (a device, pipe or socket); give "
                          f"{option} the name of a file to write")
    folder = _existing_folder(target.parent, path, option)
    if folder == target.parent:
        _probe(folder, path, option)
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"{path}: cannot create a folder in {folder} (permission denied); "
                          f"give {option} a file in a folder you can write")


def _check_replaceable(path: Path, option: str) -> None:
    """An existing file is replaced only if its first line is a game record's header."""
    target = _target(path)
    if not target.exists():
        return
    with open_regular(target) as handle:
        first = handle.readline(4096)
    if b'"format":"%s"' % RECORD_FORMAT.encode() not in first.replace(b" ", b""):
        raise ConfigError(f"{path} exists and is not a game record, so it is not replaced; "
                          f"give {option} a new file name (or delete the file first)")


def check_folder(path: Path, option: str) -> None:
    """Raise ``ConfigError`` unless ``path`` is a folder, or can be made, that can be
    written in."""
    if "\0" in str(path):
        raise ConfigError(f"{option} holds a NUL character; give a folder name")
    try:
        if path.exists() and not path.is_dir():
            raise ConfigError(f"{path} is a file, not a folder; give {option} a folder (it "
                              "is made if missing)")
        _probe(_existing_folder(path, path, option), path, option)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot use it as a folder ({exc.strerror or exc}); give "
                          f"{option} another folder") from None


def write_file(path: Path, text: str, option: str, *, record: bool = False) -> Path:
    """Write ``text`` to ``path`` (making its folders) all at once; ``ConfigError`` naming
    the file and the option if it cannot be written, and no partial file left behind.
    ``record``: ``text`` is a game record, which replaces only a game record."""
    check_target(path, option, record=record)
    target = _target(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text.encode("utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write the file ({exc.strerror or exc}); give "
                          f"{option} a file in a folder you can write") from None
    return path


def _target(path: Path) -> Path:
    """The file a write lands in: a symbolic link is followed, so the link stays."""
    return path.resolve() if path.is_symlink() else path


def _existing_folder(folder: Path, path: Path, option: str) -> Path:
    """The nearest folder of ``folder`` and its parents that exists (it must be a folder)."""
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            if not candidate.is_dir():
                raise ConfigError(f"{path}: {candidate} is not a folder; give {option} a "
                                  "file in a folder")
            return candidate
    return Path.cwd()


def _probe(folder: Path, path: Path, option: str) -> None:
    """Make and remove a file in ``folder``: the only sure test (``/proc`` and ``/sys`` pass
    ``os.access`` for root, and a read-only mount only shows on writing)."""
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        # /proc and /sys answer "no such file" for a new file in a folder that exists
        reason = ("it takes no new files" if exc.errno == errno.ENOENT and folder.is_dir()
                  else exc.strerror or str(exc))
        raise ConfigError(f"{path}: cannot write in {folder} ({reason}); give "
                          f"{option} a place you can write") from None
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(name)
