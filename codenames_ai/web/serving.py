"""The app under uvicorn, as ``codenames serve`` runs it: Ctrl-C stops it within seconds
whatever the clients do, and a second Ctrl-C quits at once, without a traceback.

At the first Ctrl-C (or SIGTERM) the server takes no new connection, the rooms' live streams
end, request bodies still arriving get 503 (``intake``), and the responses under way get
``STOP_SECONDS`` to finish (a client that stops reading its response cannot hold the stop
longer). A second Ctrl-C stops waiting. The requests cut short either way are no error:
uvicorn's tracebacks of their cancellation are left out of the log.

Against slow and numerous clients: a connection must send a request's headers within
``HEADER_SECONDS`` of opening (or of its last response), else it is closed (uvicorn's h11
has no such timeout: bytes dribbled one at a time would hold a socket forever); at most
``max_connections`` are open at once (one more is answered 503 and closed at once), kept
under the process's limit of open files; and if the files run out all the same, the log
gets one warning line a minute, not a traceback per refused connection."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable
from types import FrameType
from typing import Any

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

STOP_SECONDS = 5  # seconds the responses under way get after Ctrl-C (uvicorn takes an int)
HEADER_SECONDS = 10.0  # a request's headers fit in one packet: 10 s is a very slow link
MAX_CONNECTIONS = 1000  # open at once; the rooms' live streams take 400 at most
SPARE_FILES = 64  # open files kept for the database, logs and static files
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
WARN_EVERY = 60.0  # seconds between two warnings that the open files ran out
_FULL_BODY = b'{"error": "this server has its most connections open; try again later"}'
FULL = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_FULL_BODY), _FULL_BODY))

log = logging.getLogger("uvicorn.error")


def max_connections(most: int = MAX_CONNECTIONS) -> int:
    """``most``, or fewer if this process may not open that many files (and some spare)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to read
        return most
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return most
    return max(1, min(most, soft - SPARE_FILES))


class _Guarded(H11Protocol):
    """uvicorn's HTTP/1.1 connection with a deadline for each request's headers and a cap on
    the connections open at once (``guarded`` sets both)."""

    header_seconds = HEADER_SECONDS
    most = MAX_CONNECTIONS
    _late: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if len(self.connections) > self.most:
            self.transport.write(FULL)
            self.transport.close()  # connection_lost forgets it
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request's headers get as long

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

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


def guarded(*, header_seconds: float, most: int) -> type[H11Protocol]:
    """The connection class for uvicorn (``Config(http=...)``): headers within
    ``header_seconds``, at most ``most`` connections open."""
    if not header_seconds > 0 or most < 1:
        raise ValueError(f"a header timeout must be over 0 seconds ({header_seconds}) and "
                         f"the connections at least 1 ({most})")
    return type("Guarded", (_Guarded,), {"header_seconds": header_seconds, "most": most})


class _Cancelled(logging.Filter):
    """Drops a log record whose traceback is a cancellation (a request cut short by a stop)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, (asyncio.CancelledError, KeyboardInterrupt))


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
            connection.transport.abort()
        if self.server_state.tasks:
            await asyncio.wait(set(self.server_state.tasks), timeout=1.0)
        if self.force_exit:  # uvicorn skips the app's shutdown then: it is quick, so run it
            await self.lifespan.shutdown()


def server(application: FastAPI, *, say: Callable[[str], None],
           header_seconds: float = HEADER_SECONDS, most: int | None = None) -> uvicorn.Server:
    """The uvicorn server of ``application`` (made by ``create_app``): request headers
    within ``header_seconds``, at most ``most`` connections open (default: ``MAX_CONNECTIONS``
    or what the open-file limit allows). ``say`` tells the person at the terminal that the
    server is stopping."""
    config = uvicorn.Config(application, log_level="warning",
                            timeout_graceful_shutdown=STOP_SECONDS,
                            http=guarded(header_seconds=header_seconds,
                                         most=most or max_connections()))
    if not any(isinstance(f, _Cancelled) for f in log.filters):  # configured by the Config
        log.addFilter(_Cancelled())
    return _Server(config, application, say)


def run(application: FastAPI, listener: socket.socket, *,
        say: Callable[[str], None]) -> None:
    """Serve ``application`` on the bound ``listener`` until a signal stops it; uvicorn
    then raises the signal again (Ctrl-C: ``KeyboardInterrupt``)."""
    server(application, say=say).run(sockets=[listener])
