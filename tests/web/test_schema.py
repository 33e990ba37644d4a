"""The request models read every body of the API: the JSON limits still come first (a body
nested too deep or with a number too long is refused before any model reads it), and what a
model refuses is one 400 line naming the field, never FastAPI's 422 nor a 500."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from codenames_ai.web.app import create_app
from codenames_ai.web.http import MAX_DEPTH, MAX_DIGITS


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app with fresh deals from seeds 3, 4, 5, ... (the same boards on every run)."""
    with TestClient(create_app(tmp_path / "games.sqlite3",
                               new_seed=itertools.count(3).__next__)) as made:
        yield made


def post(client: TestClient, path: str, body: bytes) -> Any:
    return client.post(path, content=body, headers={"content-type": "application/json"})


POSTS = ("/api/games", "/api/games/{game}/moves", "/api/games/{game}/check", "/api/rooms",
         "/api/rooms/{room}/moves", "/api/rooms/{room}/seat", "/api/rooms/{room}/join",
         "/api/rooms/{room}/again", "/api/rooms/{room}/check", "/api/rooms/{room}/close")


def routes(client: TestClient) -> list[str]:
    game = client.post("/api/games", json={"role": "guess"}).json()["id"]
    room = client.post("/api/rooms", json={}).json()["id"]
    return [path.format(game=game, room=room) for path in POSTS]


def test_the_json_limits_come_before_the_models(client: TestClient) -> None:
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    long = b'{"seed": ' + b"1" * (MAX_DIGITS + 1) + b"}"
    for path in routes(client):
        for body, words in ((deep, f"at most {MAX_DEPTH}"), (long, "characters"),
                            (b"{oops", "not valid JSON"), (b'{"a": NaN}', "NaN"),
                            (b"\xff", "not UTF-8")):
            refused = post(client, path, body)
            assert refused.status_code == 400, (path, body)
            assert refused.json()["error"].startswith("the request body "), (path, body)
            assert words in refused.json()["error"], (path, refused.json())


@pytest.mark.parametrize("body", [b"", b"null", b"[]", b'"x"', b"7", b"true",
                                  b'{"": 1}', b'{"token": 5}', b'{"token": ["x"]}',
                                  b'{"settings": []}', b'{"expect": {"deal": 1}}',
                                  b'{"person": "yes"}', b'{"word": {"a": 1}}'])
def test_no_body_gets_a_422_or_a_500(client: TestClient, body: bytes) -> None:
    for path in routes(client):
        answer = post(client, path, body)
        assert answer.status_code in (400, 403, 409), (path, body, answer.text)
        error = answer.json()["error"]
        assert isinstance(error, str) and "\n" not in error and len(error) < 400, error
        assert set(answer.json()) <= {"error", "view"}


@pytest.mark.parametrize(("path", "body", "words"), [
    ("/api/games", {"level": 5}, "level is not one of easy, normal, hard"),
    ("/api/games", {"deck": "tiny"}, "deck 'tiny' is not one of (default), words,"),
    ("/api/games", {"role": "watch", "seed": "12"}, "setting 'seed' must be a whole number"),
    ("/api/games", {"role": "watch", "seed": 1.5}, "setting 'seed' must be a whole number"),
    ("/api/games", {"strength": True}, "strength is not one of cautious, normal, bold"),
    ("/api/games", {"sead": 1, "rol": "x"}, "unknown setting(s) 'rol', 'sead'; known: "),
    ("/api/games", [], "the game settings must be a JSON object"),
    ("/api/games", b"", "the request body is empty: send the game settings"),
    ("/api/rooms", {"settings": {"level": "godlike"}}, "settings.level 'godlike' is not one"),
    ("/api/rooms", {"settings": {"role": "spymaster"}}, "unknown room setting(s) 'role'"),
    ("/api/rooms", {"settings": 3}, "the room's settings must be a JSON object"),
    ("/api/rooms", {"people": [1]}, "field 'people[0]' must be a string"),
    ("/api/rooms", {"open_seats": "yes"}, "field 'open_seats' must be true or false"),
    ("/api/rooms", {"extra": 1}, "unknown field(s) 'extra'; send settings, people and"),
    # a union's members are one field: its name, then every kind it may be
    ("/api/games/unknown/moves", {"move": "clue", "number": 1.5},
     "field 'number' must be a whole number or a string"),
    ("/api/games/unknown/check", [], 'the word to check ({"word": ...}) must be a JSON object'),
    ("/api/games/unknown/check", {"wrd": "x"}, "unknown field(s) 'wrd'; send word"),
])
def test_a_bad_body_is_one_line_naming_the_field(client: TestClient, path: str,
                                                 body: Any, words: str) -> None:
    sent = body if isinstance(body, bytes) else json.dumps(body).encode()
    answer = post(client, path, sent)
    assert answer.status_code == 400 and words in answer.json()["error"], answer.json()


def test_a_query_the_route_cannot_read_is_a_400_too(client: TestClient) -> None:
    room = client.post("/api/rooms", json={}).json()["id"]
    for since in ("x", "-1", "1" * 13):
        refused = client.get(f"/api/rooms/{room}/events?since={since}")
        assert refused.status_code == 400 and "version number" in refused.json()["error"]


def same_json(answer: Any, built: dict[str, Any]) -> None:
    """The route's JSON is the dict the game built: no key added, dropped or changed."""
    assert answer == json.loads(json.dumps(built))


def test_the_answer_models_send_each_view_as_the_game_builds_it(client: TestClient) -> None:
    from codenames_ai.web.roomsapi import room_view
    from codenames_ai.web.solo import shown

    games, rooms = client.app.state.games, client.app.state.rooms
    for settings in ({"role": "guess"}, {"role": "spymaster"}, {"role": "coop"},
                     {"role": "guess", "edition": "pictures"}, {"role": "watch", "seed": 5}):
        made = client.post("/api/games", json=settings).json()
        view = made["view"]
        while settings["role"] == "watch" and not view["over"]:  # to its end: every field
            view = client.post(f"/api/games/{made['id']}/moves",
                               json={"move": "step", "expect": view["expect"]}).json()
        with games.locked(made["id"]):  # let go before the route takes it
            built = shown(games.get(made["id"]))
        same_json(client.get(f"/api/games/{made['id']}").json(), built)
    assert view["over"] and view["explanations"] and view["key_at_end"]
    room = client.post("/api/rooms", json={"people": ["red-spymaster", "blue-guesser"]}).json()
    for seat, token in [*room["seats"].items(), (None, None)]:
        query = f"?token={token}" if token else ""
        with rooms.locked(room["id"]):
            built = room_view(rooms.room(room["id"]), seat)
        same_json(client.get(f"/api/rooms/{room['id']}{query}").json(), built)
