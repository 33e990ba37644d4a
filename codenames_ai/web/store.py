"""Games on disk: SQLite (standard library), one row per game and one per move.

A move is committed (``synchronous=FULL``) before the request that made it is answered, so a
game survives a server restart; the primary key ``(game, number)`` makes a repeated move
(a double submit) fail instead of being stored twice.
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


class MoveConflict(Exception):
    """A move numbered like one already stored (a double submit or a stale page)."""


class GameStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def create(self, config: dict[str, Any]) -> str:
        """A new game under an unguessable id (128 random bits)."""
        game_id = secrets.token_urlsafe(16)
        with self._lock:
            self._db.execute("INSERT INTO games VALUES (?, ?, ?)",
                             (game_id, time.time(), json.dumps(config)))
        return game_id

    def append(self, game_id: str, first: int, moves: list[dict[str, Any]]) -> None:
        """Store ``moves`` numbered from ``first``, all or none."""
        if not moves:
            return
        rows = [(game_id, first + i, json.dumps(m)) for i, m in enumerate(moves)]
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT INTO moves VALUES (?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._db.execute("ROLLBACK")
                raise MoveConflict(f"move {first} of game {game_id} is already stored") from None

    def load(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A game's config and moves in order, or None for an unknown id."""
        with self._lock:
            row = self._db.execute("SELECT config FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            moves = self._db.execute("SELECT move FROM moves WHERE game = ? ORDER BY number",
                                     (game_id,)).fetchall()
        return json.loads(row[0]), [json.loads(m[0]) for m in moves]

    def close(self) -> None:
        with self._lock:
            self._db.close()
