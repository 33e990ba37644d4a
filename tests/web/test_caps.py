"""The server's caps of rooms and games hold when requests come at the same moment, and one
client cannot take every room (the fourth hostile review: 40 rooms made at once all passed a
cap of 200 with 199 made, and one client filled all 200 rooms in under a second)."""

from __future__ import annotations

import itertools
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from codenames_ai.web.app import create_app
from codenames_ai.web.limits import RoomLimits
from codenames_ai.web.store import GameStore, StoreFull

from .test_api import Clock, clients_of, solo_rows
from .test_rooms_api import new_room

AT_ONCE = 8


def count(database: Path, sql: str) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute(sql).fetchone()[0])


def test_the_store_counts_a_cap_in_the_transaction_that_adds_one(tmp_path: Path) -> None:
    """Two requests both saw room for one more (the early check); the second to be stored
    is refused and stores nothing."""
    database = tmp_path / "games.sqlite3"
    store = GameStore(database)
    seats = {"red-guesser": True}
    store.create_room({"seed": 1}, [], seats, open_seats=True, guessers_seated=True, most=2)
    store.create_room({"seed": 2}, [], seats, open_seats=True, guessers_seated=True, most=2)
    with pytest.raises(StoreFull):
        store.create_room({"seed": 3}, [], seats, open_seats=True, guessers_seated=True,
                          most=2)
    store.create({"seed": 4, "role": "guess"}, [], most=2)
    store.create({"seed": 5, "role": "watch"}, [], most=2)  # watched games are not counted
    store.create({"seed": 6, "role": "guess"}, [], most=2)
    with pytest.raises(StoreFull):
        store.create({"seed": 7, "role": "guess"}, [], most=2)
    store.close()
    assert count(database, "SELECT COUNT(*) FROM rooms") == 2
    assert count(database, "SELECT COUNT(*) FROM games") == 2 + 3


def test_watched_games_make_room_in_the_transaction_that_adds_one(tmp_path: Path) -> None:
    clock = Clock()
    store = GameStore(tmp_path / "games.sqlite3", clock=clock)
    made = []
    for seed in range(4):
        clock.now += 1
        game_id, gone = store.create_watched({"seed": seed, "role": "watch"}, [], most=2)
        made.append((game_id, gone))
    assert [gone for _, gone in made] == [[], [], [made[0][0]], [made[1][0]]]
    assert store.solo_count("watch") == 2
    store.close()


@pytest.mark.parametrize("what", ["rooms", "games"])
def test_requests_at_the_same_moment_cannot_pass_the_servers_cap(tmp_path: Path,
                                                                 what: str) -> None:
    database = tmp_path / "games.sqlite3"
    limits = RoomLimits(rooms=3, games=3, game_idle=3600.0)
    app = create_app(database, new_seed=itertools.count(3).__next__, limits=limits,
                     clock=Clock())
    hosts = [f"192.0.2.{i}" for i in range(1, AT_ONCE + 3)]
    with TestClient(app):
        clients = clients_of(app, *hosts)

        def make(client: TestClient) -> int:
            if what == "rooms":
                return client.post("/api/rooms", json={"people": ["red-guesser"]}).status_code
            return client.post("/api/games", json={"role": "guess"}).status_code

        for client in clients[:2]:
            assert make(client) == 201
        with ThreadPoolExecutor(AT_ONCE) as pool:
            statuses = sorted(pool.map(make, clients[2:]))
    assert statuses == [201] + [503] * (AT_ONCE - 1)
    if what == "rooms":
        assert count(database, "SELECT COUNT(*) FROM rooms") == 3
    else:
        assert solo_rows(database)[0] == 3


def test_one_client_cannot_take_every_room(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    clock = Clock()
    limits = RoomLimits(rooms=4, client_rooms=2, idle=3600.0)
    app = create_app(database, new_seed=itertools.count(3).__next__, limits=limits,
                     clock=clock)
    with TestClient(app):
        first, same, other = clients_of(app, "2001:db8::1", "2001:db8::2:3", "192.0.2.7")
        bad = first.post("/api/rooms", json={"people": ["nobody"]})
        assert bad.status_code == 400  # a room not made is not counted
        for client in (first, same):  # one IPv6 /64 is one client
            new_room(client, ["red-guesser"])
        refused = first.post("/api/rooms", json={"people": ["red-guesser"]})
        assert refused.status_code == 429
        assert refused.json()["error"] == (
            "you made 2 rooms in the last 1 hour, this server's most for one client; go on "
            "in one of them, or try again later")
        assert count(database, "SELECT COUNT(*) FROM rooms") == 2  # nothing stored for it
        new_room(other, ["red-guesser"])  # others still make rooms
        clock.now += 3601  # a day later (here an hour) the first client may make more
        new_room(first, ["red-guesser"])
