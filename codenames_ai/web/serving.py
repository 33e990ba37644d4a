"""The app under uvicorn, as ``codenames serve`` runs it: Ctrl-C stops it within seconds
whatever the clients do, and a second Ctrl-C quits at once, without a traceback.

At the first Ctrl-C (or SIGTERM) the server takes no new connection, the rooms' live streams
end, request bodies still arriving get 503 (``intake``), and the responses under way get
``STOP_SECONDS`` to finish (a client that stops reading its response cannot hold the stop
longer); an AI still thinking about a move for one of them is left behind
(``leave_unfinished_work``). A second Ctrl-C stops waiting. The requests cut short either
way are no error: uvicorn's tracebacks of their cancellation are left out of the log, and
those cut short when the wait is over are answered 503 in JSON (``app.Guard``).

Against slow and numerous clients: a connection must send a request's headers within
``HEADER_SECONDS`` of opening (or of its last response), else it is closed (uvicorn's h11
has no such timeout: bytes dribbled one at a time would hold a socket forever); a connection
whose answer waits for a client that takes none of it for ``WRITE_SECONDS`` is cut off (a
client that sends requests and reads nothing would hold it forever, an event stream too); at
most ``max_connections`` are open at once, and at most ``per_client`` of them from one client
(one more is answered 503 and closed at once), kept under the process's limit of open files
with room for the file each answer may hold open; and if the files run out all the same, the
log gets one warning line a minute, not a traceback per refused connection."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.middleware.proxy_headers import _TrustedHosts  # uvicorn is pinned exactly
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.h11_impl import H11Protocol

from .clients import client_key

STOP_SECONDS = 5  # seconds the responses under way get after Ctrl-C (uvicorn takes an int)
WORKERS_SECONDS = 1.0  # then the worker threads get this long to end, else they are left
HEADER_SECONDS = 10.0  # a request's headers fit in one packet: 10 s is a very slow link
WRITE_SECONDS = 10.0  # an answer may wait this long for a client that takes none of it
MAX_AHEAD = 64 * 1024  # bytes of requests one connection may send ahead of their answers
MAX_CONNECTIONS = 1000  # open at once; the rooms' live streams take 400 at most
# One client's share: 1/8 of the connections, but at least 48 (a browser opens at most 6 to
# a server, so 8 browsers at their most; far more people behind one NAT in practice, each
# of whom holds one or two at a time) when the server takes that many.
CLIENT_SHARE = 8
CLIENT_LEAST = 48
SPARE_FILES = 64  # open files kept for the database, logs and the thread pool
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
WARN_EVERY = 60.0  # seconds between two warnings that the open files ran out


def _refusal(status: bytes, body: bytes) -> bytes:
    return (b"HTTP/1.1 %s\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s" % (status, len(body), body))


FULL = _refusal(b"503 Service Unavailable",
                b'{"error": "this server has its most connections open; try again later"}')
CLIENT_FULL = _refusal(b"503 Service Unavailable",
                       b'{"error": "your address has its most connections open to this '
                       b'server; close some (other tabs?) or try again later"}')
NOT_HTTP = _refusal(b"400 Bad Request", b'{"error": "the request is not valid HTTP/1.1"}')

log = logging.getLogger("uvicorn.error")


def max_connections(most: int = MAX_CONNECTIONS) -> int:
    """``most``, or fewer if this process may not open that many files: each connection is
    one file and its answer may hold another (a static file), and some are spare."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to read
        return most
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return most
    return max(1, min(most, (soft - SPARE_FILES) // 2))


def per_client(most: int) -> int:
    """The connections one client may hold of a server's ``most``."""
    return min(most, max(most // CLIENT_SHARE, CLIENT_LEAST))


_TCP_INFO = getattr(socket, "TCP_INFO", None)  # Linux
if _TCP_INFO is not None:  # imported now: a look may come when no file is left to import
    import fcntl
    import termios
_BYTES_ACKED = struct.Struct("=Q")  # tcp_info's tcpi_bytes_acked (Linux 4.2 and later)
_BYTES_ACKED_AT = 120
_QUEUED = struct.Struct("=i")  # SIOCOUTQ: bytes sent but not yet acknowledged, or unsent


def _delivery(transport: asyncio.Transport) -> tuple[int, int]:
    """(bytes waiting to reach the client, a count that changes whenever some reach it).
    On Linux the kernel says both (its send queue; the bytes the client acknowledged), so a
    client that takes nothing is seen as soon as its receive window is full; elsewhere only
    uvicorn's own buffer is seen, which fills once the kernel's is full."""
    buffered = transport.get_write_buffer_size()
    sock = transport.get_extra_info("socket")
    if _TCP_INFO is not None and sock is not None:
        try:
            info = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, 256)
            queued = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, bytes(_QUEUED.size))
            if len(info) >= _BYTES_ACKED_AT + _BYTES_ACKED.size:
                return (buffered + _QUEUED.unpack(queued)[0],
                        _BYTES_ACKED.unpack_from(info, _BYTES_ACKED_AT)[0])
        except OSError:
            pass
    return buffered, -buffered


def _reset(transport: asyncio.Transport) -> None:
    """Cut a connection off and drop what it had not sent: a plain close leaves the unsent
    answers with the kernel until a client that reads nothing lets them go (the ninth hostile
    review: 1 MB a connection, 4.3 MB a second from one address, while the address's count
    was given back). A zero linger makes the close a reset."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def _ahead(protocol: H11Protocol) -> int:
    """Bytes a client sent that wait unparsed behind the request under way."""
    return len(protocol.conn._receive_buffer)  # h11 has no public count; it is pinned


class _AheadFlow(FlowControl):
    """uvicorn's flow control, which reads no more from a client with over ``MAX_AHEAD``
    bytes of requests waiting: uvicorn resumes reading after every answer and every body
    asked for, so requests sent in one stream without waiting for answers (pipelined) piled
    up in memory as fast as the client sent them (90 MB a second)."""

    def __init__(self, transport: asyncio.Transport, ahead: Callable[[], int]) -> None:
        super().__init__(transport)
        self._ahead = ahead

    def resume_reading(self) -> None:
        if self._ahead() <= MAX_AHEAD:  # else the answers to come resume it
            super().resume_reading()


class _Guarded(H11Protocol):
    """uvicorn's HTTP/1.1 connection with a deadline for each request's headers, one for a
    client to take some of its answers, and caps on the connections open at once, in all
    and from one client (``guarded`` sets them)."""

    header_seconds = HEADER_SECONDS
    write_seconds = WRITE_SECONDS
    most = MAX_CONNECTIONS
    per_client = CLIENT_LEAST
    clients: dict[str, int] = {}  # the connections open by client (``guarded`` gives its own)
    proxies = _TrustedHosts([])  # a reverse proxy's connections are everyone's: not counted
    _late: asyncio.TimerHandle | None = None
    _watch: asyncio.TimerHandle | None = None
    _client: str | None = None  # counted in ``clients`` under this key
    _delivered = 0  # the delivery count at the last look
    _since = 0.0  # loop time of the last look at which nothing waited or something arrived

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self.flow = _AheadFlow(self.transport, lambda: _ahead(self))
        host = self.client[0] if self.client else None
        key = client_key(host)
        if len(self.connections) > self.most:
            refusal = FULL
        elif self.clients.get(key, 0) >= self.per_client and host not in self.proxies:
            refusal = CLIENT_FULL
        else:
            self._client = key
            self.clients[key] = self.clients.get(key, 0) + 1
            self._arm()
            self._since = self.loop.time()
            self._watch = self.loop.call_later(self.write_seconds / 4, self._look)
            return
        self.transport.write(refusal)
        self.transport.close()  # connection_lost forgets it

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in
            self._disarm()
        if _ahead(self) > MAX_AHEAD:
            self.flow.pause_reading()  # until answers bring it down (``_AheadFlow``)

    def on_response_complete(self) -> None:
        # Answered before the client sent all of its request (a 413, 415 or 408 refuses a
        # body unread): the rest of it would hold the connection past every deadline (one
        # byte of it cancels uvicorn's keep-alive timer), so the connection closes.
        answered_early = self.conn.their_state is h11.SEND_BODY
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if answered_early:
            self.transport.close()
        elif self.conn.their_state is h11.IDLE:
            self._arm()  # the next request's headers get as long

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to bytes that are not HTTP/1.1: JSON as every refusal, and
        nothing when an answer is already under way or sent (h11 refused a second one with a
        traceback in the log)."""
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            self.transport.write(NOT_HTTP)
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self._client is not None:
            self.clients[self._client] -= 1
            if not self.clients[self._client]:
                del self.clients[self._client]
            self._client = None
        super().connection_lost(exc)

    def _look(self) -> None:
        """Cut the connection off if its answers waited ``write_seconds`` for a client that
        took none of them (also after a close, which waits for them to be taken)."""
        waiting, delivered = _delivery(self.transport)
        now = self.loop.time()
        if not waiting or delivered != self._delivered:
            self._delivered = delivered
            self._since = now
        elif now - self._since >= self.write_seconds:
            self._watch = None
            _reset(self.transport)  # connection_lost follows
            return
        self._watch = self.loop.call_later(self.write_seconds / 4, self._look)

    def _arm(self) -> None:
        self._disarm()
        self._late = self.loop.call_later(self.header_seconds, self._headers_late)

    def _disarm(self) -> None:
        if self._late is not None:
            self._late.cancel()
            self._late = None

    def _headers_late(self) -> None:
        self._late = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def guarded(*, header_seconds: float, write_seconds: float, most: int, client_most: int,
            proxies: list[str] | str | None = None) -> type[H11Protocol]:
    """The connection class for uvicorn (``Config(http=...)``): headers within
    ``header_seconds``, answers cut off after ``write_seconds`` without a byte taken, at most
    ``most`` connections open and ``client_most`` from one client, unless it is one of the
    ``proxies`` uvicorn trusts (``forwarded_allow_ips``), whose connections carry everyone's
    requests."""
    if not (header_seconds > 0 and write_seconds > 0) or not 1 <= client_most <= most:
        raise ValueError(f"timeouts must be over 0 seconds ({header_seconds}, {write_seconds})"
                         f" and the connections at least 1 ({most}), one client's at least 1 "
                         f"and at most those ({client_most})")
    return type("Guarded", (_Guarded,), {
        "header_seconds": header_seconds, "write_seconds": write_seconds, "most": most,
        "per_client": client_most, "clients": {}, "proxies": _TrustedHosts(proxies or [])})


class _Cancelled(logging.Filter):
    """Drops a log record whose traceback is a cancellation (a request cut short by a stop),
    and uvicorn's warnings that any client can cause with each request."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, (asyncio.CancelledError, KeyboardInterrupt)):
            return False
        # Warnings any client can cause with each request would let one fill the log (25,000
        # lines in 5 s): an Upgrade header (the server speaks no WebSocket and answers it as
        # plain HTTP) and bytes that are not HTTP (the client gets its JSON 400).
        return not str(record.msg).startswith(("Unsupported upgrade request",
                                               "No supported WebSocket library",
                                               "Invalid HTTP request received"))


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, application: FastAPI,
                 say: Callable[[str], None]) -> None:
        super().__init__(config)
        self.application = application
        self.say = say
        self._warned: float | None = None  # when the open files last ran out (loop time)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self._loop_error)
        await super().startup(sockets)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio logs a traceback each time ``accept`` finds no file free, and retries every
        second: one line a minute says it instead (the connections wait in the backlog)."""
        error = context.get("exception")
        handle = context.get("handle")
        if self.should_exit and "_start_serving" in repr(handle):
            return  # the retry of a failed accept, after the stop closed the listener
        if not (isinstance(error, OSError) and error.errno in OUT_OF_FILES):
            loop.default_exception_handler(context)
            return
        now = loop.time()
        if self._warned is None or now - self._warned >= WARN_EVERY:
            self._warned = now
            log.warning("out of open files (%s): new connections wait until some close; "
                        "raise the limit (ulimit -n) or lower the connections allowed",
                        error.strerror or error)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # uvicorn waits for open responses, so the rooms' live streams end now.
        self.application.state.rooms.stop_streams()
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.application.state.intake.stop()  # on the loop, where the body reads wait
        self.say(f"stopping: the requests under way get {STOP_SECONDS} seconds (Ctrl-C "
                 "again quits at once)")
        await super().shutdown(sockets)
        # What still holds a connection (a client that reads none of its response, past
        # the wait or after a second Ctrl-C) is cut off now, so that no request is left for
        # the loop's teardown to cancel in the middle of a write that never ends.
        for connection in list(self.server_state.connections):
            _reset(connection.transport)
        if self.server_state.tasks:
            await asyncio.wait(set(self.server_state.tasks), timeout=1.0)
        if self.force_exit:  # uvicorn skips the app's shutdown then: it is quick, so run it
            await self.lifespan.shutdown()


def server(application: FastAPI, *, say: Callable[[str], None],
           header_seconds: float = HEADER_SECONDS, write_seconds: float = WRITE_SECONDS,
           most: int | None = None, client_most: int | None = None) -> uvicorn.Server:
    """The uvicorn server of ``application`` (made by ``create_app``): request headers
    within ``header_seconds``, answers cut off after ``write_seconds`` without a byte taken,
    at most ``most`` connections open (default: ``MAX_CONNECTIONS`` or what the open-file
    limit allows) and ``client_most`` from one client (default: ``per_client(most)``).
    ``say`` tells the person at the terminal that the server is stopping."""
    most = most or max_connections()
    # ws="none": with the websockets package installed, uvicorn would hand an upgraded
    # connection to its own protocol, and the connection counts here would never be given back.
    config = uvicorn.Config(application, log_level="warning", ws="none",
                            timeout_graceful_shutdown=STOP_SECONDS)
    proxies = config.forwarded_allow_ips if config.proxy_headers else []
    config.http = guarded(header_seconds=header_seconds, write_seconds=write_seconds,
                          most=most, client_most=client_most or per_client(most),
                          proxies=proxies)
    if not any(isinstance(f, _Cancelled) for f in log.filters):  # configured by the Config
        log.addFilter(_Cancelled())
    return _Server(config, application, say)


def run(application: FastAPI, listener: socket.socket, *,
        say: Callable[[str], None]) -> None:
    """Serve ``application`` on the bound ``listener`` until a signal stops it; uvicorn
    then raises the signal again (Ctrl-C: ``KeyboardInterrupt``)."""
    try:
        server(application, say=say).run(sockets=[listener])
    except KeyboardInterrupt:
        leave_unfinished_work(say, code=130)
        raise
    # A stop whose signal uvicorn raised again to no effect: a Ctrl-C to a server started
    # with SIGINT ignored (a background job of a shell without job control) ends here.
    leave_unfinished_work(say, code=0)


def leave_unfinished_work(say: Callable[[str], None], *, code: int,
                          seconds: float = WORKERS_SECONDS) -> None:
    """Once the server has stopped: if worker threads still run (an AI thinking about a
    move for a request that was cut short), exit now with ``code`` (130 after Ctrl-C),
    without them.
    Python waits at exit for every such thread, for as long as the AI thinks, and no signal
    interrupts it. Nothing is left half-stored: each write is one transaction, and the
    database is closed by now; the game goes on from its last stored move."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # leaving already: one more Ctrl-C
    others = [thread for thread in threading.enumerate()
              if thread is not threading.current_thread() and not thread.daemon]
    deadline = time.monotonic() + seconds
    for thread in others:  # an idle worker ends at once; a busy one does not
        thread.join(max(0.0, deadline - time.monotonic()))
    busy = sum(thread.is_alive() for thread in others)
    if busy:
        say(f"stopped; {busy} unfinished AI move{'s' if busy > 1 else ''} left behind "
            "(the game goes on from its last stored move)")
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
