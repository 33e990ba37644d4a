"""Two file operations every cache and results folder needs: a write that is never seen
half-done, and a lock between processes; and a read of a file a person names that stops at
a bound.

``atomic_write`` writes to a temporary file with a unique name in the same folder, syncs it
and renames it over the target: a reader sees the old file or the new one, never a mix, and
two processes writing the same file at once cannot interleave their bytes (the fixed staging
name used before let them). ``file_lock`` holds an advisory lock on a file (``flock``; the
kernel releases it however the process ends, ``kill -9`` included). ``read_bounded`` reads
at most a given number of bytes, so a huge file given as a deck or a record is one error
instead of a read until memory runs out; it reads regular files only (``open_regular``), so a
named pipe cannot block it and ``/dev/zero`` or ``/dev/tty`` is refused unopened.
``bounded_lines`` reads a file of lines (a results file of any size) one line at a time, each
at most a given length, so one huge line is an error too. A file
changed in place (a lock, an appended results file) is opened by ``open_in_place``, which
never follows a symbolic link: a folder from someone else could otherwise have a lock file
that points at one of yours.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


def _umask() -> int:
    mask = os.umask(0)  # reading the umask means setting it: done once, at import
    os.umask(mask)
    return mask


# mkstemp makes files only their owner can read; a results folder shared by a group keeps
# the permissions a plain write would give. The cache is private (``private``): what it holds
# decides the AI's moves, so no one but its owner may change it, whatever the umask.
FILE_MODE = 0o666 & ~_umask()
SHARED_WRITE = stat.S_IWGRP | stat.S_IWOTH


class LockBusy(Exception):
    """Another process holds the lock (only raised when not waiting)."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path} is locked" + (f" by process {holder}" if holder else ""))
        self.path = path
        self.holder = holder  # the process id written in the lock file, if any


class TooLarge(OSError):
    """A file is larger than its reader takes (``read_bounded``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"larger than {_size(limit)}, the most read from such a file")
        self.limit = limit

    def __str__(self) -> str:
        return str(self.args[0])


class LineTooLong(OSError):
    """A line of a file is longer than its reader takes (``bounded_lines``); ``number``
    counts from 1."""

    def __init__(self, number: int, limit: int) -> None:
        super().__init__(f"line {number} is longer than {_size(limit)}, the most read of "
                         "one line")
        self.number = number
        self.limit = limit

    def __str__(self) -> str:
        return str(self.args[0])


class NotRegular(OSError):
    """A path a person gave names a folder, a named pipe, a device or a socket, not a
    regular file (``open_regular``)."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"it is {kind}, not a regular file")
        self.kind = kind

    def __str__(self) -> str:
        return str(self.args[0])


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def open_regular(path: Path, *, follow: bool = True) -> IO[bytes]:
    """``path`` opened to read bytes; ``NotRegular`` (an ``OSError``) for anything but a
    regular file, checked before opening (a device is never opened) and again on what was
    opened. Opened non-blocking, so a named pipe swapped in between cannot block the open
    (``open`` on a FIFO waits for a writer). ``follow=False``: a symbolic link is refused
    too, never followed (a cache file, which only the toolkit writes, is never a link).
    Other ``OSError``s as ``os.open`` raises them."""
    if follow:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(_kind(mode))
    else:
        _refuse_irregular(os.lstat(path).st_mode)
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
                             | (0 if follow else _NO_FOLLOW))
    except OSError:  # a link swapped in since the lstat (ELOOP)
        if not follow:
            with contextlib.suppress(FileNotFoundError):
                _refuse_irregular(os.lstat(path).st_mode)
        raise
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(_kind(mode))
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _size(count: int) -> str:
    return f"{count >> 20} MB" if count >= 1 << 20 else f"{count:,} bytes"


def read_bounded(path: Path, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them: ``TooLarge`` (an
    ``OSError``) for a longer file, after reading ``limit + 1`` bytes, so memory stays
    bounded; ``NotRegular`` for a folder, named pipe or device (and with ``follow=False`` a
    symbolic link, ``open_regular``). Other ``OSError``s as ``open`` and ``read`` raise
    them."""
    with open_regular(path, follow=follow) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(limit)
    return data


def bounded_lines(handle: IO[bytes], limit: int, *, first: int = 1
                  ) -> Iterator[tuple[int, bytes]]:
    """Each line of ``handle`` from where it stands, numbered from ``first``, with its
    newline (the last line may have none): ``LineTooLong`` for a line of more than
    ``limit`` bytes, newline included, after reading ``limit + 1`` of them, so memory
    stays bounded whatever the file holds."""
    number = first
    while line := handle.readline(limit + 1):
        if len(line) > limit:
            raise LineTooLong(number, limit)
        yield number, line
        number += 1


def atomic_write(path: Path, data: bytes, *, private: bool = False) -> None:
    """Replace ``path`` with ``data`` all at once, keeping a replaced file's permissions
    (``OSError`` if it cannot be written; no temporary file is left behind). ``private``:
    never writable by group or others, whatever the replaced file allowed."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = FILE_MODE
    if private:
        mode &= ~SHARED_WRITE
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                         dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            if hasattr(os, "fchmod"):
                os.fchmod(file.fileno(), mode)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def private_folder(path: Path) -> None:
    """Make the folder ``path`` and its missing parents, none writable by group or others
    (a member could otherwise swap a file or folder of the cache for their own); an existing
    ``path`` of this user's loses such write permission. ``OSError`` if it cannot be made."""
    missing = []
    for folder in (path, *path.parents):
        if folder.is_dir():
            break
        missing.append(folder)
    for folder in reversed(missing):
        folder.mkdir(mode=0o777 & ~SHARED_WRITE, exist_ok=True)  # the umask may take more
    status = path.stat()
    if status.st_mode & SHARED_WRITE and status.st_uid == getattr(os, "getuid", lambda: -1)():
        path.chmod(stat.S_IMODE(status.st_mode) & ~SHARED_WRITE)


@contextlib.contextmanager
def file_lock(path: Path, *, wait: bool = True, private: bool = False) -> Iterator[IO[str]]:
    """Hold an exclusive lock on ``path`` (created if missing) for the ``with`` block; the
    lock file holds this process's id. ``wait=False``: ``LockBusy`` at once if another
    process holds it. ``NotRegular`` for a symbolic link, named pipe or device there: the
    lock file is written, so a link would have this overwrite the file it points to.
    ``private``: the lock file is made writable by its owner alone (a cache's)."""
    handle = os.fdopen(open_in_place(path, os.O_RDWR | os.O_CREAT), "r+", encoding="utf-8")
    try:
        if private and hasattr(os, "fchmod"):
            with contextlib.suppress(OSError):  # another user's lock file keeps its mode
                os.fchmod(handle.fileno(), stat.S_IMODE(os.fstat(handle.fileno()).st_mode)
                          & ~SHARED_WRITE)
        try:
            _lock(handle, wait)
        except OSError:  # BlockingIOError from flock; PermissionError from msvcrt
            handle.seek(0)
            holder = handle.read(40).strip()
            raise LockBusy(path, holder if holder.isdigit() else "") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield handle
    finally:
        handle.close()  # closing releases the lock


def open_in_place(path: Path, flags: int) -> int:
    """A descriptor of ``path`` opened with ``flags`` (``os.O_RDWR``, ``os.O_CREAT``,
    ``os.O_APPEND``...) for a file the toolkit changes in place in a folder someone else may
    have filled (a lock, a results file): a symbolic link is never followed and anything but
    a regular file is refused unopened (``NotRegular``); opening creates nothing else and
    truncates nothing. Other ``OSError``s as ``os.open`` raises them."""
    with contextlib.suppress(FileNotFoundError):
        _refuse_irregular(os.lstat(path).st_mode)
    try:
        descriptor = os.open(path, flags | _NO_FOLLOW | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0),
                             0o666)
    except OSError:  # a link or pipe swapped in since the lstat (ELOOP, ENXIO)
        with contextlib.suppress(FileNotFoundError):
            _refuse_irregular(os.lstat(path).st_mode)
        raise
    try:
        _refuse_irregular(os.fstat(descriptor).st_mode)
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


# Windows has no O_NOFOLLOW; the lstat before the open still refuses a link there.
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _refuse_irregular(mode: int) -> None:
    if stat.S_ISLNK(mode):
        raise NotRegular("a symbolic link")
    if not stat.S_ISREG(mode):
        raise NotRegular(_kind(mode))


def _lock(handle: IO[str], wait: bool) -> None:
    if sys.platform == "win32":
        import msvcrt

        msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))


def default_cache_dir() -> Path:
    """The platform's user cache folder for codenames-ai (e.g. ``~/.cache/codenames-ai``)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("codenames-ai", appauthor=False))
