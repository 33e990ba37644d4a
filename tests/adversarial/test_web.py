"""The web app under hostile input: a hypothesis probe of every route (random JSON bodies,
ids, seeds, indices and words: never a 500, never a face-down card's identity or the seed
in a guesser's response), and the regressions of issue 15: a failed SQLite write, chosen
seeds, bodies refused while streaming, per-id memory, JSON that crashed the parser,
security headers, JSON-only POSTs, and ``codenames serve`` refusing a bad --db or a busy
port in one line."""

from __future__ import annotations

import gc
import itertools
import json
import re
import select
import socket
import sqlite3
import subprocess
import sys
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import uvicorn
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from codenames_ai.cli.app import app as cli
from codenames_ai.core import ConfigError
from codenames_ai.web.app import MAX_BODY, create_app
from codenames_ai.web.limits import RoomLimits

from ..conftest import probe_examples
from ..waiting import until

KEY_VALUE = re.compile(r'"key":\s*"')
PERSON_ROLES = ("guess", "coop", "spymaster")
FAST = settings(max_examples=probe_examples(60), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def make_client(database: Path, **options: Any) -> TestClient:
    return TestClient(create_app(database, new_seed=itertools.count(3).__next__, **options))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path / "games.sqlite3") as test_client:
        yield test_client


def new_game(client: TestClient, role: str) -> tuple[str, dict[str, Any]]:
    response = client.post("/api/games", json={"role": role})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["view"]


def assert_hidden(raw: str, *, guesser: bool | None = None) -> None:
    """No face-down identity for a guesser (``None``: the seat the view names), and no seed
    for anyone, before the end."""
    data = json.loads(raw)
    if "cards" not in data.get("view", data):
        return
    view = data.get("view", data)
    if guesser is None:
        guesser = view["you"] is not None and view["you"]["role"] == "guesser"
    if guesser:
        assert not KEY_VALUE.search(raw)
        assert all(card["key"] is None for card in view["cards"])
    if not view["over"]:
        assert view["config"]["seed"] is None
        assert view["explanations"] == []


def free_guess(view: dict[str, Any]) -> int:
    return int(next(c["index"] for c in view["cards"] if c["revealed"] is None))


# --- item 1: a failed write leaves the game as it was -------------------------------------


def test_a_locked_database_answers_503_and_the_game_stays_as_it_was(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with make_client(database, timeout=0.2) as client:
        game_id, view = new_game(client, "guess")
        other = sqlite3.connect(database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
        try:
            card = free_guess(view)
            failed = client.post(f"/api/games/{game_id}/moves",
                                 json={"move": "guess", "index": card, "expect": view["expect"]})
            assert failed.status_code == 503
            assert "locked" in failed.json()["error"]
            assert "nothing was changed" in failed.json()["error"]
            assert client.get(f"/api/games/{game_id}").json() == view
            refused = client.post("/api/games", json={"role": "guess"})
            assert refused.status_code == 503
        finally:
            other.execute("ROLLBACK")
            other.close()
        played = client.post(f"/api/games/{game_id}/moves",
                             json={"move": "guess", "index": card, "expect": view["expect"]})
        assert played.status_code == 200, played.text
        seen = played.json()
    with sqlite3.connect(database) as db:
        numbers = [n for (n,) in db.execute("SELECT number FROM moves WHERE game = ? ORDER BY "
                                            "number", (game_id,))]
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert numbers == list(range(seen["moves"]))  # the move is the next index, no gap
    with make_client(database) as restarted:
        assert restarted.get(f"/api/games/{game_id}").json() == seen


# --- item 2: no chosen seed deals a guesser's board -----------------------------------------


def test_the_key_does_not_leak_through_a_chosen_seed(client: TestClient) -> None:
    watched = client.post("/api/games", json={"role": "watch", "seed": 12345}).json()["view"]
    assert all(card["key"] for card in watched["cards"])  # a watcher sees that board's key
    for role in PERSON_ROLES:
        refused = client.post("/api/games", json={"role": role, "seed": 12345})
        assert refused.status_code == 400 and "only to watch" in refused.json()["error"]
    game_id, view = new_game(client, "guess")
    stored = client.app.state.store.load(game_id)[0]["seed"]  # type: ignore[attr-defined]
    assert view["config"]["seed"] is None and stored != 12345


def test_secret_seeds_have_128_bits(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        ids = [new_game(client, "spymaster")[0] for _ in range(8)]
        seeds = [client.app.state.store.load(i)[0]["seed"] for i in ids]  # type: ignore[attr-defined]
    assert len(set(seeds)) == 8 and all(0 <= s < 2**128 for s in seeds)
    assert max(seeds) >= 2**120  # 8 draws below 2**120 would be a 1 in 2**64 event


# --- item 4: memory ---------------------------------------------------------------------------


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """The app on a real uvicorn server (the test client reads a streamed body whole)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(tmp_path / "games.sqlite3"),
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    until(lambda: server.started or not thread.is_alive(), "the server to start")
    assert server.started, "the server did not start"
    yield "127.0.0.1", port
    server.should_exit = True
    thread.join(10)


def test_a_chunked_body_is_refused_while_it_streams(live_server: tuple[str, int]) -> None:
    offered = 64 * 1024 * 1024  # far over the limit; the server must answer long before
    chunk = b"[" + b" " * (64 * 1024 - 2) + b"]"
    sent = 0
    with socket.create_connection(live_server, timeout=10) as connection:
        connection.sendall(b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: "
                           b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        answered = False
        while sent < offered and not answered:
            readable, writable, _ = select.select([connection], [connection], [], 10)
            if readable:
                answered = True
            elif writable:
                try:
                    connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                except (BrokenPipeError, ConnectionResetError):
                    answered = True
                sent += len(chunk)
        response = connection.recv(65536)
    assert response.startswith(b"HTTP/1.1 413"), response[:200]
    assert sent < offered // 2, f"the server read {sent} bytes before refusing"


def test_unknown_ids_leave_nothing_behind(client: TestClient) -> None:
    """500 GETs of unknown ids; the last 200 measured (tracing every allocation is slow):
    nothing allocated in codenames_ai/web is kept."""
    games = client.app.state.games  # type: ignore[attr-defined]
    for i in range(300):
        assert client.get(f"/api/games/unknown{i:05d}").status_code == 404
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i in range(300, 500):
        assert client.get(f"/api/games/unknown{i:05d}").status_code == 404
    gc.collect()  # cursors the sqlite3 module frees in cycles
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    ours = [tracemalloc.Filter(True, "*codenames_ai/web/*")]
    grown = sum(stat.size_diff for stat in
                after.filter_traces(ours).compare_to(before.filter_traces(ours), "filename"))
    # The sqlite3 module keeps a bounded pool of cursors (~10 KB, whatever the count);
    # the leak this guards against kept ~27 KB per id.
    assert grown < 32 * 1024, f"{grown} bytes kept by codenames_ai/web for 200 unknown ids"
    assert games.sizes() == (0, 0)


def test_games_in_memory_are_bounded(tmp_path: Path) -> None:
    # One client may start only a few watch games a day: here it may start more than the
    # games kept in memory, so that the memory bound is what is tested.
    limits = RoomLimits(client_watch_games=1000)
    with make_client(tmp_path / "games.sqlite3", limits=limits) as client:
        games = client.app.state.games  # type: ignore[attr-defined]
        for seed in range(games.size + 6):
            response = client.post("/api/games", json={"role": "watch", "seed": seed})
            assert response.status_code == 201, response.text
        cached, locks = games.sizes()
        assert cached == games.size and locks == 0


# --- item 8: JSON that crashed the server ---------------------------------------------------


@pytest.mark.parametrize(("route", "body", "message"), [
    ("/api/games", b"[" * 2000 + b"]" * 2000, "nests arrays or objects 2000 deep"),
    ("moves", b'{"move": "guess", "index": ' + b"1" * 5000 + b"}", "5000 characters long"),
    ("/api/games", b'{"role": "watch", "seed": ' + b"9" * 5000 + b"}", "5000 characters long"),
    ("/api/games", b'{"role": "watch", "seed": ' + b"9" * 40 + b"}", "2**128 - 1"),
    ("check", b'{"word": "\\ud800"}', "lone surrogate"),
    ("check", b'{"word": "x\\udfffy"}', "lone surrogate"),
    ("moves", b'{"move": "guess", "index": NaN}', "NaN is not a JSON number"),
    ("check", b'{"word": "\xed\xa0\x80"}', "not UTF-8"),
])
def test_hostile_json_is_a_clear_4xx(client: TestClient, route: str, body: bytes,
                                     message: str) -> None:
    game_id, view = new_game(client, "spymaster")
    path = route if route.startswith("/") else f"/api/games/{game_id}/{route}"
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == view


def test_unknown_paths_and_methods_answer_in_the_same_error_format(client: TestClient) -> None:
    """A client that removes dot segments turns /api/games/./moves into /api/games/moves."""
    for method, path, status in (("POST", "/api/games/moves", 405), ("GET", "/api/nothing", 404),
                                 ("DELETE", "/api/games", 405)):
        response = client.request(method, path, json={})
        assert response.status_code == status, response.text
        assert path in response.json()["error"] and "detail" not in response.json()


# --- item 11: headers and JSON-only POSTs -------------------------------------------------


def test_security_headers_on_every_response(client: TestClient) -> None:
    game_id, _ = new_game(client, "guess")
    responses = [client.get("/"), client.get(f"/game/{game_id}"), client.get("/static/app.js"),
                 client.get("/static/style.css"), client.get("/api/options"),
                 client.get(f"/api/games/{game_id}"), client.get("/api/games/nope"),
                 client.get("/static/nope.js"), client.get("/nowhere"),
                 client.post("/api/games", content=b"{", headers={"content-type":
                                                                  "application/json"}),
                 client.post("/api/games", content=b"x" * (MAX_BODY + 1),
                             headers={"content-type": "application/json"}),
                 client.post("/api/games", content=b"{}", headers={"content-type": "text/plain"})]
    for response in responses:
        headers = response.headers
        assert "script-src 'self'" in headers["content-security-policy"], response.url
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    assert client.get(f"/api/games/{game_id}").headers["cache-control"] == "no-store"


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x",
                                          "application/jsonx"])
def test_posts_must_be_json(client: TestClient, content_type: str | None) -> None:
    headers = {"content-type": content_type} if content_type else {}
    response = client.post("/api/games", content=b'{"role": "watch"}', headers=headers)
    assert response.status_code == 415
    assert "Content-Type: application/json" in response.json()["error"]
    store = client.app.state.store  # type: ignore[attr-defined]
    assert store._db.execute("SELECT count(*) FROM games").fetchone() == (0,)
    ok = client.post("/api/games", content=b'{"role": "watch"}',
                     headers={"content-type": "application/json; charset=utf-8"})
    assert ok.status_code == 201


# --- items 9 and 10: codenames serve --------------------------------------------------------


@pytest.mark.parametrize(("kind", "message"), [
    ("text", "is not a SQLite database"),
    ("folder", "is a directory"),
    ("other-sqlite", "not a games file of codenames serve"),
    ("sys", "cannot"),
])
def test_serve_refuses_a_bad_db_before_starting(tmp_path: Path, kind: str,
                                                message: str) -> None:
    path = {"text": tmp_path / "notes.txt", "folder": tmp_path, "sys": Path("/sys/games.db"),
            "other-sqlite": tmp_path / "other.sqlite3"}[kind]
    if kind == "text":
        path.write_text("not a database\n")
    if kind == "other-sqlite":
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE games (name TEXT)")
    before = path.read_bytes() if path.is_file() else None
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(path)])
    assert isinstance(result.exception, ConfigError)
    text = str(result.exception)
    assert text.startswith(f"{path}: ") and message in text and "--db" in text
    assert result.output == ""  # nothing said as if it started
    if before is not None:
        assert path.read_bytes() == before


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "codenames_ai", "serve", "--port", str(port), "--db",
             str(tmp_path / "games.sqlite3")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: port {port} on 127.0.0.1 is already in use (another server?); stop it or "
        "choose another port with --port"]
    assert not (tmp_path / "games.sqlite3").exists()


# --- the probe --------------------------------------------------------------------------------

SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-2**200, 2**200)
           | st.floats() | st.text(max_size=30)
           | st.sampled_from(["guess", "pass", "clue", "cover", "step", "watch", "spymaster",
                              "unlimited", "", "\ud800", "../etc", "'; DROP TABLE games; --"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
FIELDS = st.sampled_from(["move", "index", "word", "number", "expect", "role", "seed",
                          "edition", "deck", "clue_rules", "guess_limit", "strength",
                          "spymaster", "guesser"])
BODIES = (st.dictionaries(FIELDS, JSON, max_size=5)
          | st.builds(lambda kind, index, expect: {"move": kind, "index": index,
                                                   "expect": expect},
                      st.sampled_from(["guess", "cover", "pass", "step"]),
                      st.integers(-3, 30) | st.integers(), st.none() | st.integers(0, 40))
          | st.builds(lambda word, number: {"move": "clue", "word": word, "number": number},
                      st.text(max_size=20), JSON)
          | JSON)
TARGETS = st.sampled_from(["guess", "coop", "spymaster", "watch", "unknown", "random"])


def encode(body: Any) -> bytes:
    return json.dumps(body).encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def probe_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("probe") / "games.sqlite3"
    with make_client(database) as test_client:
        yield test_client


class Live:
    """One unfinished game per role, replaced when it ends."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.ids: dict[str, str] = {}

    def get(self, role: str) -> str:
        game_id = self.ids.get(role)
        if game_id is None or self.client.get(f"/api/games/{game_id}").json()["over"]:
            game_id = self.ids[role] = new_game(self.client, role)[0]
        return game_id


@pytest.fixture(scope="module")
def live(probe_client: TestClient) -> Live:
    return Live(probe_client)


@FAST
@given(target=TARGETS, route=st.sampled_from(["moves", "check", "show", "new"]), body=BODIES,
       # "." and ".." are dot segments: the client removes them from the path before sending
       # (/api/games/./moves becomes /api/games/moves), so they never reach a game route.
       random_id=st.text(min_size=1, max_size=30).filter(lambda i: i not in (".", "..")))
def test_probe_every_route(probe_client: TestClient, live: Live, target: str, route: str,
                           body: Any, random_id: str) -> None:
    client = probe_client
    if target in ("unknown", "random"):
        game_id = quote(random_id.encode("utf-8", "surrogatepass"), safe="") \
            if target == "random" else "no-such-game"
        guesser = True  # nothing about any game may show
    else:
        game_id = live.get(target)
        guesser: bool | None = target in ("guess", "coop")
    content = encode(body)
    if route == "new":
        response = client.post("/api/games", content=content,
                               headers={"content-type": "application/json"})
        allowed = {201, 400}
        guesser = None
    elif route == "show":
        response = client.get(f"/api/games/{game_id}")
        allowed = {200, 404}
    else:
        response = client.post(f"/api/games/{game_id}/{route}", content=content,
                               headers={"content-type": "application/json"})
        allowed = {200, 400, 404, 409}
    assert response.status_code in allowed, (response.status_code, response.text)
    if response.status_code in (200, 201):
        assert_hidden(response.text, guesser=guesser)
    if target not in ("unknown", "random"):
        assert_hidden(client.get(f"/api/games/{game_id}").text, guesser=guesser)


@FAST
@given(raw=st.binary(max_size=200), route=st.sampled_from(["/api/games", "moves", "check"]))
def test_probe_raw_bytes(probe_client: TestClient, live: Live, raw: bytes, route: str) -> None:
    game_id = live.get("guess")
    path = route if route.startswith("/") else f"/api/games/{game_id}/{route}"
    response = probe_client.post(path, content=raw, headers={"content-type": "application/json"})
    assert response.status_code in {200, 201, 400, 409}, (response.status_code, response.text)
    if response.status_code in (200, 201):
        assert_hidden(response.text, guesser=None if route == "/api/games" else True)
    assert_hidden(probe_client.get(f"/api/games/{game_id}").text, guesser=True)
