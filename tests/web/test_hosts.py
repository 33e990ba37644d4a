"""DNS rebinding, against a real ``codenames serve``: a page of evil.example whose name the
attacker points at 127.0.0.1 is, to the browser, its own origin, and could create games and
rooms and use up the local player's limits. The server answers only requests for a name it
is reached by, and takes a browser's POST only from its own origin."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from .server import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("hosts") / "games.sqlite3",
                     "--agents", "default", "--allowed-host", "Play.Example")
    running.start()
    yield running
    running.stop()


def ask(server: Server, method: str, path: str, headers: dict[str, str]
        ) -> tuple[int, dict[str, object]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    body = json.dumps({"role": "watch"}) if method == "POST" else None
    sent = {**({"Content-Type": "application/json"} if body else {}), **headers}
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_request_for_another_name_is_refused(server: Server) -> None:
    """Review r1, low: a request with Host: evil.example was served."""
    for method, path in (("GET", "/api/options"), ("POST", "/api/games"),
                         ("POST", "/api/rooms"), ("GET", "/")):
        for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example",
                     "localhost.evil.example", "",
                     # the second review of this round: only the bracketed part was read
                     "[::1].evil", f"[::1].evil:{server.port}", "[::1]evil.example"):
            status, body = ask(server, method, path, {"Host": host})
            assert status == 400, (method, path, host, body)
            assert "not reached by the name" in str(body["error"]), body
            assert "--allowed-host" in str(body["error"])
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", f"[::1]:{server.port}",
                 "LOCALHOST", "localhost.", "play.example", f"play.example:{server.port}",
                 "192.168.1.20:8080"):
        status, body = ask(server, "GET", "/api/options", {"Host": host})
        assert status == 200, (host, body)


def test_a_browser_post_from_another_origin_is_refused(server: Server) -> None:
    """Review r1, low: a request with a foreign Origin was served."""
    own = f"127.0.0.1:{server.port}"
    for origin in ("http://evil.example", f"http://evil.example:{server.port}", "null",
                   f"http://127.0.0.1:{server.port + 1}", f"http://localhost:{server.port}",
                   f"ftp://{own}"):
        status, body = ask(server, "POST", "/api/games", {"Host": own, "Origin": origin})
        assert status == 403, (origin, body)
        assert "another site" in str(body["error"])
    for headers in ({"Host": own, "Origin": f"http://{own}"},
                    {"Host": f"localhost:{server.port}",
                     "Origin": f"http://localhost:{server.port}"},
                    {"Host": own},  # no browser: nothing to forge
                    {"Host": own, "Origin": "https://play.example"}):  # a proxy's public origin
        status, body = ask(server, "POST", "/api/games", headers)
        assert status == 201, (headers, body)
    # a read is no change: a page of another site cannot read the answer anyway (no CORS)
    assert ask(server, "GET", "/api/options",
               {"Host": own, "Origin": "http://evil.example"})[0] == 200
