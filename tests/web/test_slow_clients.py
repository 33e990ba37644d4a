"""``codenames serve`` against slow and numerous clients (issue 29, second round): headers
dribbled a byte at a time are cut off, so are answers (and event streams) a client does not
read, connections past the most allowed, in all or from one address, get 503 at once, the
connections leave room in the open files for the file each answer may hold, and running out
of open files is one warning line, not a traceback per connection. A real uvicorn server on a
port, raw sockets."""

from __future__ import annotations

import itertools
import json
import logging
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from codenames_ai.web import serving
from codenames_ai.web.app import create_app
from codenames_ai.web.limits import RoomLimits

from ..waiting import until

WAIT = 20.0  # seconds: generous bounds on what takes well under one
HEADERS = 0.5  # the header deadline of the test servers
WRITE = 0.5  # the deadline of their answers (in the tests of it)
MOST = 3  # the connections they take at once
SENDS = 600  # of 80 kB each, in the test of requests sent far ahead: 48 MB offered


@contextmanager
def running(tmp_path: Path, limits: RoomLimits | None = None,
            **options: Any) -> Iterator[tuple[uvicorn.Server, int]]:
    """The app on a real server (in a thread) with ``options`` for ``serving.server``, and
    its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    application = create_app(tmp_path / "games.sqlite3", limits=limits,
                             new_seed=itertools.count(3).__next__)
    server = serving.server(application, say=lambda text: None, **options)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    until(lambda: server.started or not thread.is_alive(), "the server to start")
    assert server.started, "the server did not start"
    try:
        yield server, int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(WAIT)


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """A server with short header deadline and few connections."""
    with running(tmp_path, header_seconds=HEADERS, most=MOST) as (_, number):
        yield number


def connect(port: int, source: str = "127.0.0.1", receive: int | None = None
            ) -> socket.socket:
    """A connection from ``source``; ``receive``: the receive buffer to ask for (a client
    that reads nothing fills a small one at once)."""
    connection = socket.socket()
    connection.settimeout(WAIT)
    if receive is not None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", port))
    return connection


def closed_by_the_server(server: uvicorn.Server) -> None:
    """Wait until the server has taken a connection, then until it has none open."""
    until(lambda: server.server_state.connections, "the server to take a connection", WAIT)
    until(lambda: not server.server_state.connections, "the connection to close", WAIT)


def reply(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def test_headers_dribbled_a_byte_at_a_time_are_cut_off(port: int) -> None:
    dribble = b"GET /api/options HTTP/1.1\r\nHost: test\r\nX-Slow: " + b"a" * 10_000
    # before the connection: the server's deadline starts when it takes the connection,
    # never earlier, so a test thread slow to run on cannot see it cut too soon
    opened = time.monotonic()
    with connect(port) as connection:
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


def test_pipelined_requests_whose_answers_are_not_read_are_cut_off(tmp_path: Path) -> None:
    # Headers get all the time there is: only the answers' deadline can end this connection.
    with running(tmp_path, header_seconds=WAIT * 3, write_seconds=WRITE) as (server, port):
        with connect(port, receive=1024) as greedy:
            # rooms.js is 20 kB: far more than the socket buffers hold, and then the server
            # holds the file open while it waits for the client to read
            greedy.sendall(b"GET /static/rooms.js HTTP/1.1\r\nHost: test\r\n\r\n" * 400)
            closed_by_the_server(server)
            # Cut off with a reset: the answers the kernel still held are dropped, not left
            # queued for a client that may never read (the ninth hostile review: 1 MB a
            # connection, while the address's count was already given back).
            received, reset = 0, False
            try:
                while chunk := greedy.recv(65536):
                    received += len(chunk)
            except ConnectionResetError:
                reset = True
            assert reset and received < 64 * 1024, received
        with connect(port) as later:
            later.sendall(b"GET /api/options HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            assert reply(later).startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize("reads_answers", [True, False])
def test_requests_sent_far_ahead_of_their_answers_are_not_read_ahead(
        tmp_path: Path, reads_answers: bool) -> None:
    """One connection that sends requests without waiting for their answers (pipelined)
    holds at most ``MAX_AHEAD`` of them in the server, and one more read: the sixth hostile
    review grew a server by 90 MB a second this way, its client reading every answer (so no
    deadline ended it), and by 435 MB in 12 s reading none."""
    requests = b"GET /api/options HTTP/1.1\r\nHost: test\r\n\r\n" * 2000
    most_held = 0
    with running(tmp_path) as (server, port), connect(port) as client:
        client.setblocking(False)
        if reads_answers:
            threading.Thread(target=_drain, args=(client,), daemon=True).start()
        # A bounded number of sends, each once the socket has room (or after a short wait:
        # a server that reads no further is the bound at work); the bound holds all along.
        for _ in range(SENDS):
            select.select([], [client], [], 0.005)
            with suppress(BlockingIOError):
                client.send(requests)
            held = [len(c.conn._receive_buffer) for c in list(server.server_state.connections)
                    if isinstance(c, serving._Guarded)]
            most_held = max(most_held, *held, 0)
    assert most_held <= serving.MAX_AHEAD + 256 * 1024, most_held  # one read of asyncio's


def _drain(connection: socket.socket) -> None:
    with suppress(OSError, ValueError):  # ValueError: the test has closed the socket
        while True:
            readable, _, _ = select.select([connection], [], [], WAIT)
            if not readable or not connection.recv(1 << 20):  # idle that long, or closed
                return


JSON_POST = b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"


@pytest.mark.parametrize(("request_head", "status"), [
    (JSON_POST + b"Content-Length: 999999999999\r\n\r\n", b"413"),
    (b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\n"
     b"Content-Length: 100\r\n\r\n", b"415"),
    (JSON_POST + b"Transfer-Encoding: chunked\r\n\r\n4400\r\n" + b"x" * 0x4400 + b"\r\n", b"413"),
])
def test_a_request_answered_before_its_body_arrived_closes_its_connection(
        tmp_path: Path, request_head: bytes, status: bytes,
        caplog: pytest.LogCaptureFixture) -> None:
    """The seventh hostile review: answered at once, the client then sent one more byte of
    its body and nothing else, and the connection stayed open for good (the byte cancelled
    uvicorn's keep-alive timer; no deadline was left), 125 of them per address, 8 addresses
    for the whole server. Then a bad chunk header wrote a traceback into the log."""
    with running(tmp_path, header_seconds=WAIT * 3) as (server, port), \
            connect(port, "127.0.0.2") as client:
        client.sendall(request_head)
        answer = client.recv(65536)
        assert answer.startswith(b"HTTP/1.1 " + status), answer
        with suppress(OSError):  # the server may have closed it by now
            client.sendall(b"x")
            client.sendall(b"zz\r\n")  # not a chunk header
        until(lambda: not server.server_state.connections, "the connection to close", WAIT)
        with suppress(ConnectionResetError):  # closed with the client's bytes unread
            reply(client)  # the rest of the answer, then the end
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.fixture
def server_log() -> Iterator[list[logging.LogRecord]]:
    """What uvicorn's error log writes, past the server's filters (it does not propagate to
    pytest's capture)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign,assignment]
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def test_bytes_that_are_not_http_get_a_json_400_and_no_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        server_log: list[logging.LogRecord]) -> None:
    # The eighth hostile review wrote 25,000 warning lines in 5 s this way.
    with running(tmp_path) as (_, port):
        for request in (b"GET /\xff\xfe HTTP/1.1\r\nHost: test\r\n\r\n",
                        b"BAD\x00 / HTTP/1.1\r\n\r\n"):
            with connect(port) as client:
                client.sendall(request)
                answer = reply(client)
            assert answer.startswith(b"HTTP/1.1 400 ")
            assert answer.endswith(b'{"error": "the request is not valid HTTP/1.1"}'), answer
        # A target without its leading slash was redirected to the client's Host (307).
        with connect(port) as client:
            client.sendall(b"GET ?a HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            answer = reply(client)
        assert answer.startswith(b"HTTP/1.1 404 ") and b"evil.example" not in answer, answer
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert [r.getMessage() for r in server_log] == []


def test_an_upgrade_request_is_answered_as_plain_http_without_a_warning(
        tmp_path: Path, server_log: list[logging.LogRecord]) -> None:
    # uvicorn's two warnings for each Upgrade header let any client fill the log; with the
    # websockets package installed it handed the connection over and its count leaked.
    with running(tmp_path) as (server, port):
        assert server.config.ws == "none"
        with connect(port) as client:
            client.sendall(b"GET /api/options HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\n"
                           b"Connection: Upgrade, close\r\nSec-WebSocket-Version: 13\r\n"
                           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            assert reply(client).startswith(b"HTTP/1.1 200 ")
    assert [r.getMessage() for r in server_log] == []


def test_an_event_stream_whose_client_stops_reading_is_cut_off(tmp_path: Path) -> None:
    # The stream would last a minute, and says something every millisecond or so.
    limits = RoomLimits(stream_seconds=WAIT * 3, heartbeat=0.001)
    with running(tmp_path, limits, header_seconds=WAIT * 3,
                 write_seconds=WRITE) as (server, port):
        with connect(port) as creating:
            body = json.dumps({"people": ["red-guesser"]}).encode()
            creating.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
                             b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                             % (len(body), body))
            created = reply(creating)
        assert created.startswith(b"HTTP/1.1 201 "), created
        room = json.loads(created.split(b"\r\n\r\n", 1)[1])["id"]
        with connect(port, receive=1024) as watching:
            watching.sendall(b"GET /api/rooms/%s/events HTTP/1.1\r\nHost: test\r\n\r\n"
                             % room.encode())
            closed_by_the_server(server)


def test_one_address_gets_its_share_of_the_connections(tmp_path: Path) -> None:
    ask = b"GET /api/options HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    with running(tmp_path, header_seconds=WAIT * 3, most=MOST, client_most=2) as (_, port):
        # headers half sent: each holds its connection
        held = [connect(port, source="127.0.0.3") for _ in range(2)]
        for connection in held:
            connection.sendall(b"GET /api/options HTTP/1.1\r\n")
        with connect(port, source="127.0.0.3") as extra:
            answer = reply(extra)
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert b"your address has its most connections open to this server" in answer
        with connect(port, source="127.0.0.2") as other:  # another address still gets in
            other.sendall(ask)
            assert reply(other).startswith(b"HTTP/1.1 200 ")
        held.pop().close()
        with connect(port, source="127.0.0.3") as again:  # a place freed is its again
            again.sendall(ask)
            assert reply(again).startswith(b"HTTP/1.1 200 ")
        for connection in held:
            connection.close()


def test_a_reverse_proxy_s_connections_are_not_one_client_s(tmp_path: Path) -> None:
    # uvicorn trusts X-Forwarded-For from 127.0.0.1: a proxy there carries everyone's requests
    with (running(tmp_path, header_seconds=WAIT * 3, most=MOST, client_most=1) as (_, port),
          connect(port) as first, connect(port) as second):
        first.sendall(b"GET /api/options HTTP/1.1\r\n")
        second.sendall(b"GET /api/options HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        assert reply(second).startswith(b"HTTP/1.1 200 ")


def test_one_client_s_share_is_an_eighth_but_at_least_48() -> None:
    assert serving.per_client(1000) == 125
    assert serving.per_client(100) == 48
    assert serving.per_client(10) == 10


def test_the_connections_leave_room_for_a_file_each() -> None:
    # ulimit -n 164: 64 spare files, and 50 connections each with a file it may send
    code = ("import resource; from codenames_ai.web import serving; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (164, 164)); "
            "print(serving.max_connections())")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, timeout=WAIT)
    assert shown.stdout.strip() == "50"


SERVE_WITH_FEW_FILES = """
import resource, socket, sys
from pathlib import Path
from codenames_ai.web import serving
from codenames_ai.web.app import create_app
# Each failed accept the server handled, told to the test on stdout (its warnings go to
# stderr): the test waits for these instead of for asyncio's one-second retries.
handle = serving._Server._loop_error
def told(self, loop, context):
    handle(self, loop, context)
    print("accept failed", flush=True)
serving._Server._loop_error = told
application = create_app(Path(sys.argv[1]))
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen()
print(listener.getsockname()[1], flush=True)
serving.server(application, say=print, most=1000).run(sockets=[listener])
"""


FAILED_ACCEPTS = 3  # asyncio retries a failed accept every second: three in a row


def test_running_out_of_open_files_is_one_warning_line(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", SERVE_WITH_FEW_FILES,
                                str(tmp_path / "games.sqlite3")], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stderr is not None
    clients: list[socket.socket] = []
    try:
        port = int(process.stdout.readline())
        clients = [connect(port) for _ in range(100)]  # more than 64 files: accept fails
        errors: list[str] = []
        reader = threading.Thread(target=lambda: errors.extend(process.stderr or []),
                                  daemon=True)
        reader.start()
        told: list[str] = []
        stdout = process.stdout
        listener = threading.Thread(
            target=lambda: told.extend(stdout.readline() for _ in range(FAILED_ACCEPTS)),
            daemon=True)
        listener.start()
        listener.join(WAIT)
        assert told == ["accept failed\n"] * FAILED_ACCEPTS, told
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
