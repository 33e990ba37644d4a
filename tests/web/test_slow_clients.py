"""``codenames serve`` against slow and numerous clients (issue 29, second round): headers
dribbled a byte at a time are cut off, connections past the most allowed get 503 at once, and
running out of open files is one warning line, not a traceback per connection. A real
uvicorn server on a port, raw sockets."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from codenames_ai.web import serving
from codenames_ai.web.app import create_app

WAIT = 20.0  # seconds: generous bounds on what takes well under one
HEADERS = 0.5  # the header deadline of the test servers
MOST = 3  # the connections they take at once


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """The app on a real server (in a thread) with short header deadline and few connections."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = serving.server(create_app(tmp_path / "games.sqlite3"), say=lambda text: None,
                            header_seconds=HEADERS, most=MOST)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
        assert thread.is_alive(), "the server did not start"
    yield int(listener.getsockname()[1])
    server.should_exit = True
    thread.join(WAIT)


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT)


def reply(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def test_headers_dribbled_a_byte_at_a_time_are_cut_off(port: int) -> None:
    dribble = b"GET /api/options HTTP/1.1\r\nHost: test\r\nX-Slow: " + b"a" * 10_000
    with connect(port) as connection:
        opened = time.monotonic()
        connection.settimeout(0.05)  # between two bytes: the server may close meanwhile
        closed = False
        for byte in dribble:
            try:
                connection.sendall(bytes([byte]))
                closed = connection.recv(1) == b""
            except TimeoutError:
                pass
            except OSError:  # reset while sending: closed as well
                closed = True
            if closed or time.monotonic() - opened > WAIT:
                break
        held = time.monotonic() - opened
    assert closed, f"the connection was still open after {held:.1f} s"
    assert HEADERS <= held < WAIT


def test_a_connection_that_sends_nothing_is_closed(port: int) -> None:
    with connect(port) as connection:
        assert reply(connection) == b""


def test_past_the_most_connections_one_more_gets_503_at_once(port: int) -> None:
    # headers half sent: each holds its connection (for the header deadline)
    held = [connect(port) for _ in range(MOST)]
    for connection in held:
        connection.sendall(b"GET /api/options HTTP/1.1\r\n")
    with connect(port) as extra:
        answer = reply(extra)
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert answer.endswith(b'{"error": "this server has its most connections open; try '
                           b'again later"}')
    for connection in held:  # the held ones end at their deadline and free their places
        assert reply(connection) == b""
        connection.close()
    with connect(port) as later:
        later.sendall(b"GET /api/options HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        assert reply(later).startswith(b"HTTP/1.1 200 ")


SERVE_WITH_FEW_FILES = """
import resource, socket, sys
from pathlib import Path
from codenames_ai.web import serving
from codenames_ai.web.app import create_app
application = create_app(Path(sys.argv[1]))
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()
print(listener.getsockname()[1], flush=True)
serving.server(application, say=print, most=1000).run(sockets=[listener])
"""


def test_running_out_of_open_files_is_one_warning_line(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", SERVE_WITH_FEW_FILES,
                                str(tmp_path / "games.sqlite3")], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    try:
        port = int(process.stdout.readline())
        clients = [connect(port) for _ in range(100)]  # more than 64 files: accept fails
        errors: list[str] = []
        reader = threading.Thread(target=lambda: errors.extend(process.stderr or []),
                                  daemon=True)
        reader.start()
        time.sleep(3.0)  # asyncio retries a failed accept every second: let it fail again
        process.terminate()
        process.wait(WAIT)
        reader.join(WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(WAIT)
    for client in clients:
        client.close()
    output = "".join(errors)
    assert "Traceback" not in output, output
    warnings = [line for line in errors if "out of open files" in line]
    assert len(warnings) == 1, output
    assert "raise the limit (ulimit -n)" in warnings[0]
