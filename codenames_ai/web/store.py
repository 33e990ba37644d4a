"""Games on disk: SQLite (standard library), one row per game and one per move.

A move is committed (``synchronous=FULL``) before the request that made it is answered, so a
game survives a server restart; the primary key ``(game, number)`` makes a repeated move
(a double submit) fail instead of being stored twice. A room (``rooms``, ``seats``) is a game
with four seats, each held by a secret token (only its SHA-256 is stored) and either a person
or the AI; people who sit down through the room's own link get tokens of their own
(``members``), which lose their seat (``LEFT``) when someone else sits down in it after it
went to the AI. A room's ``version`` grows with every change, which is what live pages follow.
A game played alone keeps the time of its last move (``active``); the sweep deletes one
idle too long, and closes, then deletes, idle rooms (and closed ones, oldest first, when a
new room needs the place: closed rooms count against the cap).
A file made by an earlier version gets the newer tables and columns when it is opened; one
whose pages are damaged is refused then (``StoreDamaged``), once, rather than failing every
read with a 503 that no retry cures. Every
write is one transaction: a game and its first moves, or a batch of moves, are stored all or
none. Any failure of the database (locked by another connection past the timeout, a disk
error) is a ``StoreError``, raised after the transaction is rolled back, so the caller knows
nothing was stored.

One writer per database: a store holds an exclusive lock on a file beside the database
(``games.sqlite3.lock``, holding the process id) for as long as it is open, and a second
store on the same file is refused with ``StoreInUse``. A database file with more than one
name (a hard link) is refused: the lock is found by the name (a symbolic link leads to the
file's own), and SQLite keeps its write-ahead log beside each name, so servers under two
names would be two writers. Two servers on one file would each
trust their own memory of the seats and each answer the same seat's claim. The kernel drops
the lock when the process ends, however it ends. Before every write the store checks that
the database and the lock file at their paths are still the files it opened: one deleted or
replaced while the server runs (``StoreGone``) stores nothing more, rather than writing into
a file no one will open again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import quoted_some
from ..files import NotRegular, open_in_place

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL,
    active REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game, number)
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id),
    creator TEXT NOT NULL,
    active REAL NOT NULL,
    version INTEGER NOT NULL,
    closed INTEGER NOT NULL,
    open_seats INTEGER NOT NULL DEFAULT 0,
    closed_by TEXT,
    guessers_seated INTEGER NOT NULL DEFAULT 1,
    key_seen INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL REFERENCES rooms(id),
    seat TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    person INTEGER NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS members (
    room TEXT NOT NULL REFERENCES rooms(id),
    seat TEXT NOT NULL,
    token TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    joined REAL NOT NULL,
    game TEXT
);
CREATE INDEX IF NOT EXISTS members_of_room ON members(room);
CREATE INDEX IF NOT EXISTS room_of_game ON rooms(game);
"""
COLUMNS = {"games": ["id", "created", "config", "active"],
           "moves": ["game", "number", "move"],
           "rooms": ["id", "game", "creator", "active", "version", "closed", "open_seats",
                     "closed_by", "guessers_seated", "key_seen"],
           "seats": ["room", "seat", "token", "person"],
           "members": ["room", "seat", "token", "name", "joined", "game"]}
# The columns earlier versions lacked, added when the file is opened: table -> column ->
# the statement that adds it. A table whose columns are the first of today's, the others all
# listed here, is brought up to date. A game of an earlier version has ``active`` 0: its last
# activity is taken to be its creation (``LAST_ACTIVE``); a room closed by an earlier version
# has no ``closed_by``, and reads as closed for idleness; a room of one has
# ``guessers_seated`` 1 (who sat at its deal's guesser seats is unknown, so its spymaster
# seats stay shut to the room's link until the next deal) and ``key_seen`` 1 (whether someone
# sat at a spymaster seat through the room's link is unknown too, so its guesser seats stay
# shut to that link until the next deal); a person who sat down by a room's link has no
# ``game`` (the deal they sat down in), and is taken to have sat down in an earlier deal.
ADDED_COLUMNS = {
    "rooms": {"open_seats": "ALTER TABLE rooms ADD COLUMN open_seats INTEGER NOT NULL DEFAULT 0",
              "closed_by": "ALTER TABLE rooms ADD COLUMN closed_by TEXT",
              "guessers_seated": "ALTER TABLE rooms ADD COLUMN guessers_seated INTEGER NOT NULL "
                                 "DEFAULT 1",
              "key_seen": "ALTER TABLE rooms ADD COLUMN key_seen INTEGER NOT NULL DEFAULT 1"},
    "games": {"active": "ALTER TABLE games ADD COLUMN active REAL NOT NULL DEFAULT 0"},
    "members": {"game": "ALTER TABLE members ADD COLUMN game TEXT"}}
LAST_ACTIVE = "MAX(created, active)"  # a game's last move (or its creation), in SQL
# The games played alone (a room's game moves only through its room), in SQL.
SOLO = "id NOT IN (SELECT game FROM rooms)"
NEW_GAME = "INSERT INTO games (id, created, config, active) VALUES (?, ?, ?, ?)"
SQLITE_HEADER = b"SQLite format 3\x00"
# The seat of a person who sat down through a room's link and whose seat someone else sat
# down in since (after it went to the AI): their token opens the room as a spectator's.
LEFT = ""
BUSY_TIMEOUT = 5.0  # seconds a write waits for another connection's lock


class StoreError(Exception):
    """The games database cannot be opened, read or written; nothing was changed."""


class StoreInUse(StoreError):
    """Another store (another server) holds the database; this one opened nothing."""


class StoreDamaged(StoreError):
    """The database's pages are damaged (a bad disk, a half-copied file): its games cannot
    all be read, and no retry will read them, so a server does not start on it."""


class StoreGone(StoreError):
    """The database or its lock file was deleted or replaced while open; nothing is stored
    until the server is started again."""


@dataclass(frozen=True)
class Swept:
    """What ``GameStore.sweep`` leaves: the rooms kept (open or closed), the games played
    alone, and the ids of the rooms it closed or deleted."""

    rooms: int
    games: int
    changed: list[str]


class StoreFull(Exception):
    """The server's cap of rooms or games is reached, counted in the transaction that would
    have added one (so requests at the same moment cannot all pass it); nothing was made."""


class GameUnreadable(Exception):
    """A stored game's settings or a move of it is not a JSON object (a row edited or
    half-restored by hand): the game cannot be rebuilt, and no retry will rebuild it."""


class MoveConflict(Exception):
    """A move numbered like one already stored (a double submit or a stale page), or not
    the next one (what a server remembers of the game differs from the database)."""


class GameStore:
    """The games of one SQLite file. Opening checks the file is a games database (or new),
    so a wrong ``path`` is refused before a server starts."""

    def __init__(self, path: Path, *, timeout: float = BUSY_TIMEOUT,
                 clock: Callable[[], float] = time.time) -> None:
        _check_path(path)
        self.path = path
        self.clock = clock  # seconds, for the times stored (activity, expiry)
        self.lock_path = lock_path(path)
        self._lock = threading.Lock()
        self._writer = -1  # the lock file, held open (and locked) while the store is open
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False,
                                       isolation_level=None, timeout=timeout)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open it as a SQLite database ({exc})") from None
        try:
            self._check_tables()  # someone else's file is refused before a lock file is made
            self._writer = _hold_lock(path, self.lock_path)
            older = self._check_tables()  # again: the last writer may have changed them
            self._check_pages()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            for upgrade in older:
                self._db.execute(upgrade)
            self._db.executescript(SCHEMA)
            self._files = (_identity(path), _identity(self.lock_path))
        except (sqlite3.DatabaseError, OSError) as exc:
            self.close()
            raise StoreError(f"{path}: cannot use it as the games database ({exc})") from None
        except StoreError:
            self.close()
            raise

    def _check_files(self) -> None:
        """Refuse to write unless the database and the lock file at their paths are the
        files this store opened (``StoreGone``)."""
        for path, opened in zip((self.path, self.lock_path), self._files, strict=True):
            try:
                now: tuple[int, int] | None = _identity(path)
            except OSError:
                now = None
            if now != opened:
                raise StoreGone(f"{path}: was deleted or replaced while the server was "
                                "running, so this server stores nothing more; restart it")

    def _check_pages(self) -> None:
        """Refuse a database whose pages are damaged (``StoreDamaged``), once, as it is
        opened: with its header whole it opens, and then every read of a damaged page would
        fail with a 503 that no retry cures. ``quick_check`` reads every page (its time
        grows with the file, not with the requests)."""
        try:
            found = [str(row[0]) for row in self._db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:  # too damaged to list what is wrong
            found = [str(exc)]
        if found == ["ok"]:
            return
        first = " ".join(found[0].split())  # a finding may hold line breaks
        more = f" and {len(found) - 1:,} more problems" if len(found) > 1 else ""
        raise StoreDamaged(
            f"{self.path}: the games database is damaged (PRAGMA quick_check: {first[:200]}"
            f"{more}); its games cannot all be read, so the server does not start: move the "
            "file aside (a new one is made in its place) or put back a copy kept from "
            "before, then start again")

    def _check_tables(self) -> list[str]:
        """Refuse a database that is not a games file (before anything in it is changed:
        no write-ahead log, no table); the statements that bring an earlier version's tables
        up to date."""
        others = sorted(str(row[0]) for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE "
            "'sqlite\\_%' ESCAPE '\\'") if row[0] not in COLUMNS)
        if others:  # another program's database: the games' tables would be added to it
            raise StoreError(
                f"{self.path}: is a SQLite database of something else, not a games file of "
                f"codenames serve (it holds {quoted_some(others)}), so it was left as it was")
        upgrades: list[str] = []
        for table, columns in COLUMNS.items():
            found = [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]
            added = ADDED_COLUMNS.get(table, {})
            missing = columns[len(found):]
            if (found and found == columns[:len(found)] and missing
                    and all(column in added for column in missing)):
                upgrades += [added[column] for column in missing]
            elif found and found != columns:
                raise StoreError(
                    f"{self.path}: is a SQLite database but not a games file of codenames "
                    f"serve (its table {table!r} has columns {', '.join(found)})")
        return upgrades

    def create(self, config: dict[str, Any], moves: list[dict[str, Any]], *,
               most: int | None = None) -> str:
        """A new game under an unguessable id (128 random bits), with its first ``moves``;
        with ``most``, ``StoreFull`` when that many games alone that are not watched are
        stored already."""
        playing = (f"SELECT COUNT(*) FROM games WHERE {SOLO} AND "
                   "json_extract(config, '$.role') IS NOT 'watch'")
        return self._create(config, moves,
                            before=None if most is None else self._cap(playing, most))

    def create_watched(self, config: dict[str, Any], moves: list[dict[str, Any]], *,
                       most: int) -> tuple[str, list[str]]:
        """A new game to watch, the idlest watched games deleted in the same transaction so
        that at most ``most`` are kept: (its id, the ids deleted)."""
        gone: list[str] = []
        game_id = self._create(config, moves, before=lambda: gone.extend(
            self._delete_idlest("watch", keep=most - 1)))
        return game_id, gone

    def _create(self, config: dict[str, Any], moves: list[dict[str, Any]], *,
                before: Callable[[], object] | None) -> str:
        game_id = secrets.token_urlsafe(16)
        now = self.clock()
        self._write([(NEW_GAME, [(game_id, now, json.dumps(config), now)]),
                     ("INSERT INTO moves VALUES (?, ?, ?)", _rows(game_id, 0, moves))],
                    game_id=game_id, first=0, before=before)
        return game_id

    def _cap(self, count_sql: str, most: int) -> Callable[[], None]:
        """A check, in a write transaction, that refuses (``StoreFull``) once the count in
        SQL has reached ``most``: requests at the same moment cannot all pass it."""

        def check() -> None:
            count = self._db.execute(count_sql).fetchone()[0]
            if count >= most:
                raise StoreFull(f"{count} are stored, the most is {most}")
        return check

    def append(self, game_id: str, first: int, moves: list[dict[str, Any]]) -> None:
        """Store ``moves`` numbered from ``first``, all or none; the game is active now."""
        if moves:
            self._write([("INSERT INTO moves VALUES (?, ?, ?)", _rows(game_id, first, moves)),
                         ("UPDATE games SET active = ? WHERE id = ?", [(self.clock(), game_id)])],
                        game_id=game_id, first=first)

    def solo_active(self, game_id: str) -> float | None:
        """When a game played alone last moved (or was made), or None for an unknown id or
        a room's game (which the solo API leaves alone)."""
        rows = self._read(f"SELECT {LAST_ACTIVE} FROM games WHERE id = ? AND {SOLO}",
                          (game_id,))
        return float(rows[0][0]) if rows else None

    def _write(self, statements: list[tuple[str, list[tuple[Any, ...]]]], *, game_id: str,
               first: int, before: Callable[[], object] | None = None) -> None:
        """The ``statements`` of moves numbered from ``first`` of ``game_id``, in one
        transaction, after ``before`` (a cap's check, say) in the same transaction."""
        try:
            with self._transaction("store the move"):
                if before is not None:
                    before()
                stored = self._db.execute("SELECT COUNT(*) FROM moves WHERE game = ?",
                                          (game_id,)).fetchone()[0]
                if stored != first:  # moves are stored in order, with no gap
                    raise MoveConflict(f"move {first} of game {game_id} is not the next one "
                                       f"({stored} are stored)")
                for sql, rows in statements:
                    self._db.executemany(sql, rows)
        except sqlite3.IntegrityError:
            raise MoveConflict(f"move {first} of game {game_id} is already stored") from None

    @contextlib.contextmanager
    def _transaction(self, doing: str) -> Iterator[None]:
        """One write transaction, all or none: committed only if the database and its lock
        file are still the files this store opened. On any failure it is rolled back; a
        failure of the database becomes a ``StoreError`` saying what could not be done,
        except an integrity error (the caller's to name); anything else (``StoreGone``, a
        MemoryError) passes through as it was."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                yield
                self._check_files()
                self._db.execute("COMMIT")
            except BaseException as exc:
                # whatever failed (memory running out included), nothing half-written stays
                # open for the next statement on this connection to see or commit
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if not isinstance(exc, sqlite3.Error) or isinstance(exc, sqlite3.IntegrityError):
                    raise
                raise StoreError(f"the games database could not {doing} ({exc})") from None

    def load(self, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A game's config and moves in order, or None for an unknown id; ``GameUnreadable``
        if one of them is not a JSON object."""
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
        try:
            config, played = json.loads(row[0]), [json.loads(m[0]) for m in moves]
        except ValueError as exc:  # not JSON, or not UTF-8
            raise GameUnreadable(f"a row is not JSON ({exc})") from None
        if not isinstance(config, dict) or not all(isinstance(m, dict) for m in played):
            raise GameUnreadable("its settings or a move is not a JSON object")
        return config, played

    def close(self) -> None:
        """Close the database and let go of its lock (another server may open it then)."""
        with self._lock:
            self._db.close()
            if self._writer >= 0:
                os.close(self._writer)  # the kernel drops the lock with the last descriptor
                self._writer = -1

    # --- rooms ------------------------------------------------------------------------------

    def create_room(self, config: dict[str, Any], moves: list[dict[str, Any]],
                    seats: dict[str, bool], *, open_seats: bool, guessers_seated: bool,
                    key_seen: bool = False,
                    most: int | None = None) -> tuple[str, str, dict[str, str]]:
        """A new room and its game: (room id, creator token, seat name -> token), each 128
        random bits. ``seats``: seat name -> held by a person; ``open_seats``: whether people
        may choose a seat from the room's own link (``join``); ``guessers_seated``: whether a
        person holds a guesser seat of its deal; ``key_seen``: whether a person holds a
        spymaster seat of it through the room's link; with ``most``, ``StoreFull`` when that many
        rooms (open or closed) are kept already."""
        game_id, room_id = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        creator = secrets.token_urlsafe(16)
        tokens = {name: secrets.token_urlsafe(16) for name in seats}
        now = self.clock()
        self._write([(NEW_GAME, [(game_id, now, json.dumps(config), now)]),
                     ("INSERT INTO moves VALUES (?, ?, ?)", _rows(game_id, 0, moves)),
                     ("INSERT INTO rooms VALUES (?, ?, ?, ?, 1, 0, ?, NULL, ?, ?)",
                      [(room_id, game_id, _digest(creator), now, int(open_seats),
                        int(guessers_seated), int(key_seen))]),
                     ("INSERT INTO seats VALUES (?, ?, ?, ?)",
                      [(room_id, name, _digest(tokens[name]), int(person))
                       for name, person in seats.items()])],
                    game_id=game_id, first=0,
                    before=None if most is None else self._cap("SELECT COUNT(*) FROM rooms",
                                                               most))
        return room_id, creator, tokens

    def room(self, room_id: str, *, idle: float) -> dict[str, Any] | None:
        """A room's game id and its number of moves, version, last activity, closed and
        open-seats flags, who closed it (``closed_by``: the seat and name the creator closed
        it from, None for a room closed for idleness or still open), whether a person has held
        a guesser seat of its deal, whether a person has held a spymaster seat of it through
        the room's link (``key_seen``), seats held by people, and the names of those who sat down
        through the room's link (seat -> names, in the order they came), or None for an
        unknown id.

        A room idle for ``idle`` seconds is closed, by the sweep's rule (``_cutoff``): one
        the sweep has not closed yet reads as it will once closed (closed, its version one
        further), and reading it writes nothing."""
        rows = self._read("SELECT game, version, active, closed, open_seats, closed_by, "
                          "guessers_seated, key_seen, "
                          "(SELECT COUNT(*) FROM moves WHERE moves.game = rooms.game) "
                          "FROM rooms WHERE id = ?", (room_id,))
        if not rows:
            return None
        (game, version, active, closed, open_seats, closed_by, guessers_seated, key_seen,
         moves) = rows[0]
        if not closed and active < self._cutoff(idle):
            closed, version = True, version + 1
        seats = self._read("SELECT seat, person FROM seats WHERE room = ?", (room_id,))
        names: dict[str, list[str]] = {}
        members = self._read("SELECT seat, name FROM members WHERE room = ? "
                             "ORDER BY joined, rowid", (room_id,))
        for seat, name in members:
            if seat != LEFT:
                names.setdefault(seat, []).append(name)
        return {"game": game, "moves": moves, "version": version, "active": active,
                "closed": bool(closed),
                "closed_by": json.loads(closed_by) if closed and closed_by else None,
                "open_seats": bool(open_seats), "guessers_seated": bool(guessers_seated),
                "key_seen": bool(key_seen),
                "people": {name for name, person in seats if person}, "names": names,
                "members": len(members)}

    def seat_of(self, room_id: str, token: str) -> str | None:
        """The seat ``token`` holds in the room (a seat's link, or a person who sat down
        through the room's link), ``LEFT`` for a person whose seat someone else sat down in
        since, or None for a token the room does not know."""
        rows = self._read("SELECT seat FROM seats WHERE room = ? AND token = ? UNION ALL "
                          "SELECT seat FROM members WHERE room = ? AND token = ?",
                          (room_id, _digest(token), room_id, _digest(token)))
        return str(rows[0][0]) if rows else None

    def name_of(self, room_id: str, token: str) -> str | None:
        """The name a person sat down under through the room's link with ``token`` (None
        for a seat's own link, which carries no name)."""
        rows = self._read("SELECT name FROM members WHERE room = ? AND token = ?",
                          (room_id, _digest(token)))
        return str(rows[0][0]) if rows else None

    def joined_before_deal(self, room_id: str, token: str) -> bool:
        """Whether ``token`` is a person's who sat down through the room's link before its
        deal was dealt (in an earlier deal of the room)."""
        return bool(self._read("SELECT 1 FROM members JOIN rooms ON rooms.id = members.room "
                               "WHERE members.room = ? "
                               "AND members.token = ? AND members.game IS NOT rooms.game",
                               (room_id, _digest(token))))

    def is_creator(self, room_id: str, token: str) -> bool:
        return bool(self._read("SELECT 1 FROM rooms WHERE id = ? AND creator = ?",
                               (room_id, _digest(token))))

    def room_change(self, room_id: str, game_id: str, first: int,
                    moves: list[dict[str, Any]], *, seat: tuple[str, bool] | None = None,
                    member: tuple[str, str] | None = None,
                    close: dict[str, str | None] | None = None,
                    guessers_seated: bool = False, key_seen: bool = False) -> None:
        """One change of a room, all or none: ``moves`` numbered from ``first``, a seat
        given to a person or the AI, a person who sat down in that seat (their token and
        name), a person at a guesser seat of the deal (``guessers_seated``, kept until the
        next deal), a person at a spymaster seat through the room's link (``key_seen``, kept
        as long), or the room closed (``close``: the seat and name of who closed it, each
        may be None); its version grows by one."""
        statements: list[tuple[str, list[tuple[Any, ...]]]] = []
        if member is not None and seat is not None:
            # someone sits down where the AI plays: those who stepped out of it lose it
            statements.append(("UPDATE members SET seat = ? WHERE room = ? AND seat = ? AND "
                               "(SELECT person FROM seats WHERE room = ? AND seat = ?) = 0",
                               [(LEFT, room_id, seat[0], room_id, seat[0])]))
            statements.append(("INSERT INTO members VALUES (?, ?, ?, ?, ?, ?)",
                               [(room_id, seat[0], _digest(member[0]), member[1],
                                 self.clock(), game_id)]))
        if moves:
            statements.append(("INSERT INTO moves VALUES (?, ?, ?)",
                               _rows(game_id, first, moves)))
        if seat is not None:
            statements.append(("UPDATE seats SET person = ? WHERE room = ? AND seat = ?",
                               [(int(seat[1]), room_id, seat[0])]))
        if close is not None:
            statements.append(("UPDATE rooms SET closed = 1, closed_by = ? WHERE id = ? AND "
                               "closed = 0", [(json.dumps(close), room_id)]))
        statements.append(("UPDATE rooms SET version = version + 1, active = ?, "
                           "guessers_seated = MAX(guessers_seated, ?), key_seen = MAX(key_seen, ?) "
                           "WHERE id = ?",
                           [(self.clock(), int(guessers_seated), int(key_seen), room_id)]))
        self._write(statements, game_id=game_id, first=first)

    def room_new_game(self, room_id: str, config: dict[str, Any],
                      moves: list[dict[str, Any]], *, guessers_seated: bool,
                      key_seen: bool = False, to_ai: Collection[str] = ()) -> str:
        """A new game in the room (its seats and links stay), with its first ``moves``, in
        place of the finished one, which is deleted; the room's version grows by one.
        ``guessers_seated``: whether a person holds a guesser seat as it is dealt,
        ``key_seen`` a spymaster seat through the room's link; ``to_ai``: seats handed to the
        AI as it is dealt (their people keep their tokens). Returns the new game's id."""
        game_id = secrets.token_urlsafe(16)
        finished = "(SELECT game FROM rooms WHERE id = ?)"
        now = self.clock()
        self._write([(f"DELETE FROM moves WHERE game = {finished}", [(room_id,)]),
                     (f"DELETE FROM games WHERE id = {finished}", [(room_id,)]),
                     (NEW_GAME, [(game_id, now, json.dumps(config), now)]),
                     ("INSERT INTO moves VALUES (?, ?, ?)", _rows(game_id, 0, moves)),
                     ("UPDATE rooms SET game = ?, version = version + 1, active = ?, "
                      "guessers_seated = ?, key_seen = ? WHERE id = ?",
                      [(game_id, now, int(guessers_seated), int(key_seen), room_id)]),
                     ("UPDATE seats SET person = 0 WHERE room = ? AND seat = ?",
                      [(room_id, seat) for seat in to_ai])],
                    game_id=game_id, first=0)
        return game_id

    def sweep(self, *, idle: float, solo_idle: float, rooms: int | None = None) -> Swept:
        """Close the rooms idle for ``idle`` seconds, and delete those closed for as long
        (their games, seats and people with them); with ``rooms`` (the server's cap, when a
        room is about to be made), also delete the rooms closed longest ago until fewer than
        ``rooms`` are kept, so closed rooms take their share of the cap and never pile up;
        delete the games played alone that have not moved for ``solo_idle`` seconds, with
        their moves; then count the rooms kept (open or closed) and the games played
        alone."""
        now = self.clock()
        cutoff = self._cutoff(idle)
        stale = f"SELECT id FROM games WHERE {LAST_ACTIVE} < ? AND {SOLO}"
        with self._transaction("be read"):
            gone = self._delete_rooms("closed = 1 AND active < ?", (cutoff,))
            closed = [row[0] for row in self._db.execute(
                "SELECT id FROM rooms WHERE closed = 0 AND active < ?", (cutoff,))]
            # closing counts as activity: a room is deleted a further ``idle`` later
            self._db.execute("UPDATE rooms SET closed = 1, version = version + 1, "
                             "active = ? WHERE closed = 0 AND active < ?",
                             (now, cutoff))
            count = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0]
            if rooms is not None and count >= rooms:
                gone += self._delete_rooms(
                    "id IN (SELECT id FROM rooms WHERE closed = 1 ORDER BY active, rowid "
                    "LIMIT ?)", (count - rooms + 1,))
                count = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0]
            self._db.execute(f"DELETE FROM moves WHERE game IN ({stale})",
                             (now - solo_idle,))
            self._db.execute(f"DELETE FROM games WHERE id IN ({stale})", (now - solo_idle,))
            solo = self._db.execute(f"SELECT COUNT(*) FROM games WHERE {SOLO}"
                                    ).fetchone()[0]
        return Swept(rooms=int(count), games=int(solo), changed=gone + closed)

    def _cutoff(self, idle: float) -> float:
        """The idle rule of rooms: one last active before this time is closed (by the sweep,
        and as ``room`` reads it)."""
        return self.clock() - idle

    def solo_count(self, role: str) -> int:
        """How many games played alone in ``role`` (their setting) are stored."""
        rows = self._read(f"SELECT COUNT(*) FROM games WHERE {SOLO} AND "
                          "json_extract(config, '$.role') = ?", (role,))
        return int(rows[0][0])

    def _delete_idlest(self, role: str, *, keep: int) -> list[str]:
        """Delete the games played alone in ``role`` that moved least recently, with their
        moves, until at most ``keep`` are left (in the caller's write transaction); their
        ids."""
        idlest = (f"SELECT id FROM games WHERE {SOLO} AND json_extract(config, '$.role') = ? "
                  f"ORDER BY {LAST_ACTIVE} DESC, rowid DESC LIMIT -1 OFFSET ?")
        gone = [row[0] for row in self._db.execute(idlest, (role, max(0, keep)))]
        for table, column in (("moves", "game"), ("games", "id")):
            self._db.executemany(f"DELETE FROM {table} WHERE {column} = ?",
                                 [(game_id,) for game_id in gone])
        return gone

    def _delete_rooms(self, where: str, parameters: tuple[Any, ...]) -> list[str]:
        """Delete the rooms ``where`` says, with their games, moves, seats and people (in
        the sweep's transaction); their ids."""
        ids = [str(row[0]) for row in self._db.execute(f"SELECT id FROM rooms WHERE {where}",
                                                       parameters)]
        if not ids:
            return ids
        marks = ", ".join("?" * len(ids))
        for sql in (f"DELETE FROM moves WHERE game IN (SELECT game FROM rooms WHERE id IN "
                    f"({marks}))",
                    f"DELETE FROM games WHERE id IN (SELECT game FROM rooms WHERE id IN "
                    f"({marks}))",
                    f"DELETE FROM seats WHERE room IN ({marks})",
                    f"DELETE FROM members WHERE room IN ({marks})",
                    f"DELETE FROM rooms WHERE id IN ({marks})"):
            self._db.execute(sql, ids)
        return ids

    def _read(self, sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return list(self._db.execute(sql, parameters).fetchall())
            except sqlite3.Error as exc:
                raise StoreError(f"the games database could not be read ({exc})") from None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _rows(game_id: str, first: int, moves: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(game_id, first + i, json.dumps(m)) for i, m in enumerate(moves)]


def lock_path(path: Path) -> Path:
    """The lock file of the database ``path``: beside the file itself (a symbolic link to
    the database leads to the same lock)."""
    real = Path(os.path.realpath(path))
    return real.with_name(real.name + ".lock")


def _identity(path: Path) -> tuple[int, int]:
    """(device, inode) of the file at ``path`` now."""
    found = os.stat(path)
    return found.st_dev, found.st_ino


def _hold_lock(path: Path, lock: Path) -> int:
    """Open ``lock`` (made if missing) and take its exclusive lock without waiting; the open
    descriptor. ``StoreInUse`` if another process (or store) holds it."""
    try:
        # Never through a symbolic link (the lock is written: a link in a folder someone
        # else controls would have it overwrite one of your files), nor a pipe or device.
        descriptor = open_in_place(lock, os.O_RDWR | os.O_CREAT)
    except NotRegular as exc:
        raise StoreError(f"{path}: its lock file {lock} {str(exc).removeprefix('it ')}, so "
                         "it is not used; delete it (the server makes its own)") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot make its lock file {lock.name} "
                         f"({exc.strerror or exc})") from None
    try:
        try:
            _lock(descriptor)
        except OSError:
            holder = _holder(descriptor)
            raise StoreInUse(f"{path}: another codenames serve{holder} is using this "
                             "database; stop it first, or give --db another file") from None
        os.ftruncate(descriptor, 0)
        os.lseek(descriptor, 0, os.SEEK_SET)
        os.write(descriptor, f"{os.getpid()}\n".encode())
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


if sys.platform == "win32":
    import msvcrt

    def _lock(descriptor: int) -> None:
        os.lseek(descriptor, 1 << 20, os.SEEK_SET)  # a byte past the process id
        msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock(descriptor: int) -> None:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _holder(descriptor: int) -> str:
    """" (process N)" from the lock file's content, or "" if it holds no process id."""
    try:
        text = os.pread(descriptor, 32, 0) if hasattr(os, "pread") else b""
    except OSError:
        return ""
    pid = text.decode("ascii", "replace").strip()
    return f" (process {pid})" if pid.isdigit() else ""


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
            # The lock sits beside one name, and SQLite keeps its write-ahead log beside
            # each: under two names, two servers could both write the file.
            names = path.stat().st_nlink
            if names > 1:
                raise StoreError(f"{path}: this database file has {names} names (hard "
                                 "links), and one server per database cannot be assured "
                                 "across names: remove the other links ('find / -samefile' "
                                 "lists them) or give --db a copy")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{path}: cannot use it ({exc.strerror or exc})") from None
