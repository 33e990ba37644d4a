"""Games on disk: SQLite (standard library), one row per game and one per move.

A move is committed (``synchronous=FULL``) before the request that made it is answered, so a
game survives a server restart; the primary key ``(game, number)`` makes a repeated move
(a double submit) fail instead of being stored twice. Every write is one transaction: a game
and its first moves, or a batch of moves, are stored all or none. Any failure of the database
(locked by another connection past the timeout, a disk error) is a ``StoreError``, raised
after the transaction is rolled back, so the caller knows nothing was stored.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game, number)
);
"""
COLUMNS = {"games": ["id", "created", "config"], "moves": ["game", "number", "move"]}
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT = 5.0  # seconds a write waits for another connection's lock


class StoreError(Exception):
    """The games database cannot be opened, read or written; nothing was changed."""


class MoveConflict(Exception):
    """A move numbered like one already stored (a double submit or a stale page)."""


class GameStore:
    """The games of one SQLite file. Opening checks the file is a games database (or new),
    so a wrong ``path`` is refused before a server starts."""

    def __init__(self, path: Path, *, timeout: float = BUSY_TIMEOUT) -> None:
        _check_path(path)
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False,
                                       isolation_level=None, timeout=timeout)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open it as a SQLite database ({exc})") from None
        try:
            self._check_tables()  # before anything is written to someone else's database
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{path}: cannot use it as the games database ({exc})") from None
        except StoreError:
            self._db.close()
            raise

    def _check_tables(self) -> None:
        for table, columns in COLUMNS.items():
            found = [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]
            if found and found != columns:
                raise StoreError(
                    f"{self.path}: is a SQLite database but not a games file of codenames "
                    f"serve (its table {table!r} has columns {', '.join(found)})")

    def create(self, config: dict[str, Any], moves: list[dict[str, Any]]) -> str:
        """A new game under an unguessable id (128 random bits), with its first ``moves``."""
        game_id = secrets.token_urlsafe(16)
        self._write([("INSERT INTO games VALUES (?, ?, ?)",
                      [(game_id, time.time(), json.dumps(config))]),
                     ("INSERT INTO moves VALUES (?, ?, ?)", _rows(game_id, 0, moves))],
                    game_id=game_id, first=0)
        return game_id

    def append(self, game_id: str, first: int, moves: list[dict[str, Any]]) -> None:
        """Store ``moves`` numbered from ``first``, all or none."""
        if moves:
            self._write([("INSERT INTO moves VALUES (?, ?, ?)", _rows(game_id, first, moves))],
                        game_id=game_id, first=first)

    def _write(self, statements: list[tuple[str, list[tuple[Any, ...]]]], *, game_id: str,
               first: int) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for sql, rows in statements:
                    self._db.executemany(sql, rows)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise MoveConflict(f"move {first} of game {game_id} is already "
                                       "stored") from None
                raise StoreError(f"the games database could not store the move ({exc})") from None

    def load(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A game's config and moves in order, or None for an unknown id."""
        with self._lock:
            try:
                row = self._db.execute("SELECT config FROM games WHERE id = ?",
                                       (game_id,)).fetchone()
                if row is None:
                    return None
                moves = self._db.execute("SELECT move FROM moves WHERE game = ? ORDER BY "
                                         "number", (game_id,)).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"the games database could not be read ({exc})") from None
        return json.loads(row[0]), [json.loads(m[0]) for m in moves]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _rows(game_id: str, first: int, moves: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(game_id, first + i, json.dumps(m)) for i, m in enumerate(moves)]


def _check_path(path: Path) -> None:
    """Refuse a path that is not a games database or a new file, before SQLite touches it
    (SQLite would make an empty file, even a pseudo-file under /proc, into a database)."""
    try:
        if path.is_dir():
            raise StoreError(f"{path}: is a directory, not a database file")
        if path.exists() or path.is_symlink():
            if not path.is_file():
                raise StoreError(f"{path}: is not a regular file")
            with path.open("rb") as file:
                head = file.read(len(SQLITE_HEADER))
            if head and head != SQLITE_HEADER:
                raise StoreError(f"{path}: is not a SQLite database")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{path}: cannot use it ({exc.strerror or exc})") from None
