"""Text a client sends comes back in an error only cut short and escaped: every route's every
field (body, path, query, header), given 15,000 characters, thousands of bidirectional and
invisible characters, or 1,500 unknown keys, gets an answer of under 1 KB with none of them
raw (core.errors.quoted is the one way a message quotes client text)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from codenames_ai.web.app import create_app, routers
from codenames_ai.web.games import GameConfig
from codenames_ai.web.schema import RoomSettings

from .test_api import Clock

# Bidirectional overrides and isolates, zero-width and invisible characters, line separators.
HIDDEN = "\u202e\u202d\u202a\u202b\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u200e\u200f" \
         "\u061c\ufeff\u2028\u2029\u00ad\u2060"
HOSTILE = ("x" * 15_000, "\u202e" * 4_000, HIDDEN * 180)
UNKNOWN_KEYS = {f"{i:x}": 0 for i in range(1_500)}
SHORT = 1024  # bytes: an error names what is wrong, it does not carry the request back
CLUE = "quixotic"  # a legal clue on the boards these seeds deal


@dataclass(frozen=True)
class Call:
    """A request that reaches the route's checks (``ok``: the statuses it gets whole; None:
    not sent, as an event stream that would last its seconds)."""

    method: str
    route: str
    path: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    ok: tuple[int, ...] | None = (200,)

    def send(self, client: TestClient) -> Any:
        url = self.route.format(**{k: quote(v, safe="") for k, v in self.path.items()})
        if self.query:
            url += "?" + urlencode(self.query)
        content = None if self.body is None else json.dumps(
            self.body, ensure_ascii=False, separators=(",", ":")).encode()
        headers = {k: v.encode() for k, v in self.headers.items()}
        if content is not None:
            headers["content-type"] = b"application/json"
        return client.request(self.method, url, content=content, headers=headers)


def hostile_bodies(body: Any) -> Iterator[Any]:
    """``body`` with each of its values, in turn, hostile text (or a list of it, for a
    message that shows a value that is not text); and each of its objects with a hostile
    key, or 1,500 unknown ones."""
    for text in HOSTILE:
        yield text
    yield [HOSTILE[0]]
    if isinstance(body, dict):
        for text in HOSTILE:
            yield {**body, text: 0}
        yield {**body, **UNKNOWN_KEYS}
        for key, value in body.items():
            for changed in hostile_bodies(value):
                yield {**body, key: changed}
    elif isinstance(body, list):
        for i, value in enumerate(body):
            for changed in hostile_bodies(value):
                yield [*body[:i], changed, *body[i + 1:]]


def hostile_calls(call: Call) -> Iterator[Call]:
    for text in HOSTILE:
        for name in call.path:
            yield replace(call, path={**call.path, name: text})
        for name in call.query:
            yield replace(call, query={**call.query, name: text})
        for name in call.headers:
            yield replace(call, headers={**call.headers, name: text})
    if call.body is not None:
        for body in itertools.islice(hostile_bodies(call.body), 1, None):  # not a bare string
            yield replace(call, body=body)
        yield replace(call, body=HOSTILE[0])


def problem(response: Any, call: Call) -> str | None:
    """What is wrong with the answer to a hostile ``call``, or None."""
    text, where = response.text, f"{call.method} {call.route} {response.status_code}"
    shown = [f"U+{ord(c):04X}" for c in dict.fromkeys(text) if c in HIDDEN]
    if shown:
        return f"{where}: raw {', '.join(shown)} in {text[:200]!r}"
    if "x" * 100 in text:
        return f"{where}: the long text whole, {len(text.encode()):,} bytes"
    if response.headers.get("content-type", "").startswith("application/json"):
        data = response.json()
        said = {k: v for k, v in data.items() if k != "view"} if isinstance(data, dict) else {}
        if response.status_code >= 400 or "legal" in said:
            size = len(json.dumps(said, ensure_ascii=False).encode())
            if size >= SHORT:
                return f"{where}: {size:,} bytes: {text[:200]!r}"
    return None


def every_route(client: TestClient) -> dict[tuple[str, str], Callable[[], list[Call]]]:
    """Each route of the app, and requests to it that its checks accept, built on demand
    (each on its own game or room, since the last request of each changes it)."""

    def game(**settings: Any) -> tuple[str, dict[str, Any]]:
        made = client.post("/api/games", json=settings)
        assert made.status_code == 201, made.text
        return made.json()["id"], made.json()["view"]

    def room() -> dict[str, Any]:
        made = client.post("/api/rooms", json={"settings": {}, "people": [
            "red-spymaster", "red-guesser", "blue-spymaster", "blue-guesser"]})
        assert made.status_code == 201, made.text
        return dict(made.json())

    def room_call(route: str, method: str = "POST", ok: tuple[int, ...] | None = (200,),
                  **body: Any) -> Callable[[], list[Call]]:
        def calls() -> list[Call]:
            made = room()
            current = made["view"]["room"]["current_seat"]
            fill = {"token": made["seats"][current], "creator": made["creator"],
                    "expect": made["view"]["expect"]}
            filled = {k: fill.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
            return [Call(method, route, {"room_id": made["id"]}, ok=ok,
                         body=filled if method == "POST" else None,
                         query={"token": made["seats"][current]} if method == "GET" else {})]
        return calls

    def game_move(role: str, **move: Any) -> Call:
        game_id, view = game(**{"role": role, **({"seed": 1} if role == "watch" else {})})
        if move.get("index") == "face-down":
            move["index"] = next(c["index"] for c in view["cards"] if c["revealed"] is None)
        return Call("POST", "/api/games/{game_id}/moves", {"game_id": game_id},
                    body={**move, "expect": view["expect"]})

    settings = {k: v for k, v in GameConfig().to_dict().items() if k != "seed"}
    return {
        ("GET", "/"): lambda: [Call("GET", "/")],
        ("GET", "/favicon.ico"): lambda: [Call("GET", "/favicon.ico")],
        ("GET", "/static/{name}"): lambda: [Call("GET", "/static/{name}", {"name": "app.js"})],
        ("GET", "/game/{game_id}"): lambda: [Call("GET", "/game/{game_id}",
                                                  {"game_id": game()[0]})],
        ("GET", "/room/{room_id}"): lambda: [Call("GET", "/room/{room_id}",
                                                  {"room_id": room()["id"]})],
        ("GET", "/api/options"): lambda: [Call("GET", "/api/options")],
        ("POST", "/api/games"): lambda: [
            Call("POST", "/api/games", body=settings, ok=(201,)),
            Call("POST", "/api/games", body={"role": "watch", "seed": 1}, ok=(201,))],
        ("GET", "/api/games/{game_id}"): lambda: [
            Call("GET", "/api/games/{game_id}", {"game_id": game()[0]})],
        ("POST", "/api/games/{game_id}/moves"): lambda: [
            game_move("spymaster", move="clue", word=CLUE, number=1),
            game_move("guess", move="guess", index="face-down"),
            game_move("watch", move="step")],
        ("POST", "/api/games/{game_id}/check"): lambda: [
            Call("POST", "/api/games/{game_id}/check", {"game_id": game(role="spymaster")[0]},
                 body={"word": CLUE})],
        ("POST", "/api/rooms"): lambda: [Call("POST", "/api/rooms", ok=(201,), body={
            "settings": {k: settings[k] for k in RoomSettings.model_fields},
            "people": ["red-guesser"], "open_seats": True})],
        ("GET", "/api/rooms/{room_id}"): room_call("/api/rooms/{room_id}", "GET"),
        ("GET", "/api/rooms/{room_id}/events"): lambda: [
            replace(call, query={**call.query, "since": "0"}, headers={"last-event-id": "0"})
            for call in room_call("/api/rooms/{room_id}/events", "GET", ok=None)()],
        ("POST", "/api/rooms/{room_id}/join"): lambda: [
            *room_call("/api/rooms/{room_id}/join", seat="red-guesser", name="Ann")(),
            *room_call("/api/rooms/{room_id}/join", seat="blue-guesser", name="Bo",
                       creator="creator")()],
        ("POST", "/api/rooms/{room_id}/moves"): room_call(
            "/api/rooms/{room_id}/moves", token="token", move="clue", word=CLUE, number=1,
            expect="expect"),
        ("POST", "/api/rooms/{room_id}/seat"): lambda: [
            *room_call("/api/rooms/{room_id}/seat", token="token", person=False)(),
            *room_call("/api/rooms/{room_id}/seat", creator="creator", seat="blue-guesser",
                       person=False)()],
        ("POST", "/api/rooms/{room_id}/again"): lambda: [  # 409: the game is not over
            *room_call("/api/rooms/{room_id}/again", ok=(409,), token="token")(),
            *room_call("/api/rooms/{room_id}/again", ok=(409,), creator="creator")()],
        ("POST", "/api/rooms/{room_id}/check"): room_call(
            "/api/rooms/{room_id}/check", token="token", word=CLUE),
        ("POST", "/api/rooms/{room_id}/close"): room_call(
            "/api/rooms/{room_id}/close", creator="creator"),
    }


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", clock=Clock(),
                               new_seed=itertools.count(3).__next__)) as test_client:
        yield test_client


def test_every_field_of_every_route_quotes_client_text_short_and_escaped(
        client: TestClient) -> None:
    routes = every_route(client)
    served = {(method, route.path) for router in routers() for route in router.routes
              if isinstance(route, APIRoute) for method in route.methods}
    assert set(routes) == served, "a route without its requests here is not checked"
    problems = []
    for calls in routes.values():
        for call in calls():
            for hostile in hostile_calls(call):
                problems.append(problem(hostile.send(client), hostile))
            if call.ok is not None:  # the call reaches the checks the hostile ones tried
                whole = call.send(client)
                assert whole.status_code in call.ok, (call.route, whole.text[:300])
    for text in HOSTILE:  # a path no route serves
        unknown = Call("GET", "/api/{path}", {"path": text})
        problems.append(problem(unknown.send(client), unknown))
    found = [p for p in problems if p is not None]
    assert not found, f"{len(found)} of {len(problems)} answers:\n" + "\n".join(
        dict.fromkeys(p[:300] for p in found))
