"""The games database as a server holds it: one writer per file, enforced by a lock that a
second store or a second ``codenames serve`` meets with a one-line refusal; and a database
deleted or replaced while the server runs stores nothing more (503), rather than losing
every game silently."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from codenames_ai.web.app import create_app
from codenames_ai.web.limits import RoomLimits
from codenames_ai.web.store import (
    GameStore,
    MoveConflict,
    StoreError,
    StoreGone,
    StoreInUse,
    lock_path,
)

from .server import Server, free_port

MOVE = {"kind": "pass"}


def test_a_second_store_on_the_same_file_is_refused_until_the_first_closes(
        tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    first = GameStore(database)
    game = first.create({"seed": 1}, [MOVE])
    link = tmp_path / "link.sqlite3"
    link.symlink_to(database)
    for path in (database, link):  # the same file by another name: the same lock
        with pytest.raises(StoreInUse) as refused:
            GameStore(path)
        assert str(refused.value) == (
            f"{path}: another codenames serve (process {os.getpid()}) is using this "
            "database; stop it first, or give --db another file")
    first.append(game, 1, [MOVE])  # the holder goes on as before
    first.close()
    second = GameStore(database)
    assert second.load(game) == ({"seed": 1}, [MOVE, MOVE])
    second.close()



def test_a_hard_link_to_the_database_is_refused_in_one_line(tmp_path: Path) -> None:
    """The lock sits beside the file's name, so a second server on a hard link of the same
    file got in. A database with more than one name is refused: SQLite also keeps its
    write-ahead log beside each name, so writers under two names could not recover each
    other's unfinished writes."""
    database = tmp_path / "games.sqlite3"
    first = GameStore(database)
    game = first.create({"seed": 1}, [MOVE])
    link = tmp_path / "elsewhere" / "link.sqlite3"
    link.parent.mkdir()
    os.link(database, link)
    message = (f"{link}: this database file has 2 names (hard links), and one server per "
               "database cannot be assured across names: remove the other links ('find / "
               "-samefile' lists them) or give --db a copy")
    with pytest.raises(StoreError) as refused:
        GameStore(link)
    assert str(refused.value) == message
    with pytest.raises(StoreError):
        create_app(link)
    first.append(game, 1, [MOVE])  # the first goes on as before
    first.close()
    with pytest.raises(StoreError) as refused:  # while both names remain, neither opens
        GameStore(database)
    assert "2 names (hard links)" in str(refused.value)
    link.unlink()
    second = GameStore(database)
    assert second.load(game) == ({"seed": 1}, [MOVE, MOVE])
    second.close()

def test_a_second_server_on_one_database_is_refused_and_the_first_keeps_its_seats(
        tmp_path: Path) -> None:
    """Two servers on one file each trusted their own memory of the seats, so both gave the
    AI's spymaster seat (and the key) to a stranger."""
    database = tmp_path / "games.sqlite3"
    limits = RoomLimits(stream_seconds=0.3, heartbeat=0.1)
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__,
                               limits=limits)) as first:
        made = first.post("/api/rooms", json={"settings": {}, "people": []})
        room = made.json()
        with pytest.raises(StoreInUse):
            create_app(database)
        joined = first.post(f"/api/rooms/{room['id']}/join",
                            json={"seat": "red-spymaster", "name": "Ann"})
        assert joined.status_code == 200, joined.text
        again = first.post(f"/api/rooms/{room['id']}/join",
                           json={"seat": "red-spymaster", "name": "Bob"})
        assert again.status_code == 409, again.text  # one stranger at most sees the key
    with TestClient(create_app(database)) as restarted:  # the first let go when it stopped
        seen = restarted.get(f"/api/rooms/{room['id']}").json()
        assert seen["room"]["names"]["red-spymaster"] == ["Ann"]


def test_a_second_serve_process_is_refused_in_one_line_and_a_killed_one_lets_go(
        tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    server = Server(database)
    server.start()
    try:
        assert server.process is not None
        second = subprocess.run(
            [sys.executable, "-m", "codenames_ai", "serve", "--port", str(free_port()),
             "--db", str(database)], capture_output=True, text=True, timeout=60)
        assert second.returncode == 1 and second.stdout == ""
        assert second.stderr.splitlines() == [
            f"error: {database}: another codenames serve (process {server.process.pid}) is "
            "using this database; stop it first, or give --db another file"]
    finally:
        server.kill()  # as a crash: the kernel drops the lock with the process
    GameStore(database).close()


def damage_data_pages(database: Path) -> None:
    """A games database whose data pages in the middle are overwritten, its header and
    schema left whole, so SQLite still opens it (as a bad disk sector or a half-copied
    file leaves it)."""
    store = GameStore(database)
    for seed in range(200):
        store.create({"seed": seed, "note": "x" * 400}, [MOVE] * 4)
    store.close()
    data = database.read_bytes()
    page = int.from_bytes(data[16:18], "big")  # the header's page size
    middle = len(data) // 2 // page * page
    with database.open("r+b") as file:
        file.seek(middle)
        file.write(bytes(range(256)) * (2 * page // 256))


def test_serve_refuses_a_database_with_damaged_pages_in_one_line(tmp_path: Path) -> None:
    """It started without a word, then answered every read 503 "try again in a moment",
    which never helps; the pages are checked once, when the server starts."""
    database = tmp_path / "games.sqlite3"
    damage_data_pages(database)
    with sqlite3.connect(database) as db:  # it opens: only reading its pages shows the damage
        assert db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] > 0
    serve = subprocess.Popen(
        [sys.executable, "-m", "codenames_ai", "serve", "--port", "0", "--db", str(database)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    assert serve.stdout is not None and serve.stderr is not None
    started = serve.stdout.readline()  # the line a started server says; "" once it ended
    if started:
        serve.kill()
    errors = serve.stderr.read()
    assert serve.wait(timeout=60) == 1 and started == "", started
    (line,) = errors.splitlines()
    assert line.startswith(f"error: {database}: the games database is damaged (PRAGMA "
                           "quick_check: "), line
    assert line.endswith("its games cannot all be read, so the server does not start: move "
                         "the file aside (a new one is made in its place) or put back a copy "
                         "kept from before, then start again"), line
    assert "Traceback" not in errors


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """A server with a room (its other guessers' seat open) and a solo game in it."""
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__)) as client:
        room = client.post("/api/rooms", json={"people": ["red-guesser"]}).json()
        solo = client.post("/api/games", json={"role": "guess"}).json()
        yield client, {"room": room, "solo": solo}


def expect(view: dict[str, Any]) -> Any:
    return view.get("expect", view["moves"])  # what the page saw


def writes(client: TestClient, made: dict[str, Any]) -> list[Any]:
    """Every kind of write a player can cause; all of them must be refused."""
    room, solo = made["room"], made["solo"]
    room_view = client.get(f"/api/rooms/{room['id']}",
                           params={"token": room["seats"]["red-guesser"]}).json()
    card = next(c["index"] for c in room_view["cards"] if c["revealed"] is None)
    solo_card = next(c["index"] for c in solo["view"]["cards"] if c["revealed"] is None)
    return [
        client.post("/api/rooms", json={"people": ["red-guesser"]}),
        client.post("/api/games", json={"role": "guess"}),
        client.post(f"/api/rooms/{room['id']}/moves",
                    json={"token": room["seats"]["red-guesser"], "move": "guess",
                          "index": card, "expect": expect(room_view)}),
        client.post(f"/api/rooms/{room['id']}/join",
                    json={"seat": "blue-guesser", "name": "Ann"}),
        client.post(f"/api/games/{solo['id']}/moves",
                    json={"move": "guess", "index": solo_card,
                          "expect": expect(solo["view"])}),
    ]


def test_a_deleted_database_answers_503_and_changes_nothing(
        stored: tuple[TestClient, dict[str, Any]], tmp_path: Path) -> None:
    client, made = stored
    database = tmp_path / "games.sqlite3"
    solo_before = client.get(f"/api/games/{made['solo']['id']}").json()
    room_before = client.get(f"/api/rooms/{made['room']['id']}").json()
    database.unlink()
    for response in writes(client, made):
        assert response.status_code == 503, response.text
        assert response.json()["error"] == (
            f"{database}: was deleted or replaced while the server was running, so this "
            "server stores nothing more; restart it; nothing was changed")
    # nothing was kept in memory either: the open file still has the games as they were
    assert client.get(f"/api/games/{made['solo']['id']}").json() == solo_before
    assert client.get(f"/api/rooms/{made['room']['id']}").json() == room_before
    assert not database.exists()


def test_a_replaced_database_answers_503_and_neither_file_changes(
        stored: tuple[TestClient, dict[str, Any]], tmp_path: Path) -> None:
    client, made = stored
    database = tmp_path / "games.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    with sqlite3.connect(database) as source, sqlite3.connect(backup) as copy:
        source.backup(copy)  # as someone restoring yesterday's copy over the file
    os.replace(backup, database)
    # (the file is compared byte for byte: SQLite opening it now would take up the running
    # server's write-ahead log, which sits beside it under the same name)
    before = database.read_bytes()
    for response in writes(client, made):
        assert response.status_code == 503, response.text
        assert "deleted or replaced" in response.json()["error"]
    assert database.read_bytes() == before


def test_a_removed_lock_file_stops_the_writes(
        stored: tuple[TestClient, dict[str, Any]], tmp_path: Path) -> None:
    """Without its lock file a second server could start on the database: the first stores
    nothing more rather than be one of two writers."""
    client, made = stored
    lock = lock_path(tmp_path / "games.sqlite3")
    lock.unlink()
    for response in writes(client, made):
        assert response.status_code == 503, response.text
        assert response.json()["error"].startswith(f"{lock}: was deleted or replaced")


def test_the_store_refuses_a_write_after_its_file_is_gone(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    store = GameStore(database)
    game = store.create({"seed": 1}, [MOVE])
    shutil.move(database, tmp_path / "moved.sqlite3")
    with pytest.raises(StoreGone):
        store.append(game, 1, [MOVE])
    with pytest.raises(StoreGone):
        store.create({"seed": 2}, [MOVE])
    with pytest.raises(StoreGone):
        store.sweep(idle=0.0, solo_idle=0.0)
    assert store.load(game) == ({"seed": 1}, [MOVE])  # rolled back in the open file
    store.close()


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_lock_path_that_is_no_file_is_refused_in_one_line(tmp_path: Path, kind: str) -> None:
    database = tmp_path / "games.sqlite3"
    lock = lock_path(database)
    if kind == "folder":
        lock.mkdir()
    else:
        os.mkfifo(lock)  # opening it must not wait for a writer
    with pytest.raises(StoreError) as refused:
        GameStore(database)
    assert str(refused.value).startswith(f"{database}: ")
    assert "lock file" in str(refused.value) and "\n" not in str(refused.value)


class _FailsOnce:
    """A real SQLite connection whose ``executemany`` runs out of memory once, at its
    ``fail_at``-th call: the fault a store cannot prevent, injected at the library's edge."""

    def __init__(self, connection: sqlite3.Connection, fail_at: int) -> None:
        self.connection, self.calls, self.fail_at = connection, 0, fail_at

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        self.calls += 1
        if self.calls == self.fail_at:
            raise MemoryError
        return self.connection.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


def test_a_write_that_runs_out_of_memory_halfway_leaves_nothing_behind(tmp_path: Path) -> None:
    """Third review, finding 1: a move whose write ran out of memory after its first
    statement was answered 503 'nothing was changed', but the transaction stayed open: the
    next read showed the move as played, an unrelated write failed, and the next move was
    stored after a gap, so the game replayed differently after a restart."""
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__),
                    raise_server_exceptions=False) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        made = client.post("/api/games", json={"role": "guess"}).json()
        game, view = made["id"], made["view"]
        card = next(c["index"] for c in view["cards"] if not c["revealed"])
        real = store._db
        store._db = _FailsOnce(real, fail_at=2)  # the move's rows, then out of memory
        failed = client.post(f"/api/games/{game}/moves",
                             json={"move": "guess", "index": card, "expect": view["expect"]})
        store._db = real
        assert failed.status_code == 503 and "nothing was changed" in failed.json()["error"]
        assert not real.in_transaction
        again = client.get(f"/api/games/{game}").json()
        assert again["moves"] == view["moves"] and not again["cards"][card]["revealed"]
        assert client.post("/api/games", json={"role": "spymaster"}).status_code == 201
        played = client.post(f"/api/games/{game}/moves",
                             json={"move": "guess", "index": card, "expect": again["expect"]})
        assert played.status_code == 200, played.text
        seen = played.json()
    numbers = [n for (n,) in sqlite3.connect(database).execute(
        "SELECT number FROM moves WHERE game = ? ORDER BY number", (game,))]
    assert numbers == list(range(len(numbers))) and len(numbers) == seen["moves"]
    with TestClient(create_app(database)) as restarted:
        assert restarted.get(f"/api/games/{game}").json()["moves"] == seen["moves"]


def test_a_move_out_of_order_is_refused_and_stores_nothing(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    game = store.create({"seed": 1}, [MOVE, MOVE])
    with pytest.raises(MoveConflict, match="not the next one"):
        store.append(game, 5, [MOVE])
    store.append(game, 2, [MOVE])
    assert len(store.load(game)[1]) == 3  # type: ignore[index]
    store.close()


def test_a_stored_game_this_version_cannot_replay_answers_410_and_logs_one_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Review r1, low: rows damaged in the database (settings that are not JSON, a stored
    move the rules refuse, a seed that is not a number; after an upgrade, a clue the new
    rules refuse) passed PRAGMA quick_check, and every request for the game got 500. Now
    each is answered 410 saying the game cannot be replayed by this version, every time,
    and the log says why in one line, once."""
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(database, new_seed=itertools.count(3).__next__)) as client:
        games = [client.post("/api/games", json={"role": "guess"}).json()["id"]
                 for _ in range(4)]
        room = client.post("/api/rooms", json={"people": ["red-guesser"]}).json()
    with sqlite3.connect(database) as db:
        not_json, refused, bad_seed, not_object = games
        db.execute("UPDATE games SET config = '{not json' WHERE id = ?", (not_json,))
        (room_game,) = db.execute("SELECT game FROM rooms WHERE id = ?",
                                  (room["id"],)).fetchone()
        for game in (refused, room_game):  # a card no board has
            db.execute("INSERT INTO moves VALUES (?, (SELECT COUNT(*) FROM moves WHERE "
                       "game = ?), ?)", (game, game, json.dumps({"move": "guess", "index": 99})))
        db.execute("UPDATE games SET config = ? WHERE id = ?",
                   (json.dumps({"role": "guess", "seed": "x"}), bad_seed))
        db.execute("UPDATE moves SET move = '[1]' WHERE game = ? AND number = 0", (not_object,))
    with caplog.at_level("WARNING", logger="codenames_ai.web.http"), \
            TestClient(create_app(database), raise_server_exceptions=False) as client:
        urls = [f"/api/games/{game}" for game in games] + [f"/api/rooms/{room['id']}"]
        for _ in range(2):
            for url in urls:
                response = client.get(url)
                assert response.status_code == 410, (url, response.text)
                assert "cannot be replayed by this version of codenames-ai" in (
                    response.json()["error"])
        moved = client.post(f"/api/games/{games[1]}/moves",
                            json={"move": "pass", "expect": {"deal": "x", "moves": 0}})
        assert moved.status_code == 410
        events = client.get(f"/api/rooms/{room['id']}/events")
        assert events.status_code == 410
    lines = [r.getMessage() for r in caplog.records if r.name == "codenames_ai.web.http"]
    assert len(lines) == len(urls), lines  # one line a game, however often it is asked for
    assert all("\n" not in line and "cannot be replayed" in line for line in lines)
    assert any("JSONDecodeError" in line or "not JSON" in line for line in lines)
    assert any("IllegalActionError" in line for line in lines)
    assert any("ConfigError" in line for line in lines)


def test_another_programs_database_is_refused_before_anything_in_it_changes(
        tmp_path: Path) -> None:
    """Review r1, low: serve --db given another program's SQLite file (tables of its own,
    none of the games') switched it to write-ahead logging and added the games' tables. Now
    it is refused in one line naming the file, which is left byte for byte as it was, with no
    log or lock file beside it."""
    from typer.testing import CliRunner

    from codenames_ai.cli.app import app as cli
    from codenames_ai.core import ConfigError

    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.execute("CREATE VIEW recent AS SELECT * FROM notes")
        db.execute("INSERT INTO notes (body) VALUES ('keep me')")
    db.close()
    before = other.read_bytes()
    with pytest.raises(StoreError) as refused:
        GameStore(other)
    assert str(refused.value) == (
        f"{other}: is a SQLite database of something else, not a games file of codenames "
        "serve (it holds 'notes', 'recent'), so it was left as it was")
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(other)])
    assert isinstance(result.exception, ConfigError) and result.output == ""
    assert str(result.exception).startswith(f"{other}: is a SQLite database of something else")
    assert "\n" not in str(result.exception)
    assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite3"]  # no -wal, no lock
