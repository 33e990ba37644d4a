"""The app under uvicorn, as ``codenames serve`` runs it: Ctrl-C stops it within seconds
whatever the clients do, and a second Ctrl-C quits at once, without a traceback.

At the first Ctrl-C (or SIGTERM) the server takes no new connection, the rooms' live streams
end, request bodies still arriving get 503 (``intake``), and the responses under way get
``STOP_SECONDS`` to finish (a client that stops reading its response cannot hold the stop
longer). A second Ctrl-C stops waiting. The requests cut short either way are no error:
uvicorn's tracebacks of their cancellation are left out of the log."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from types import FrameType

import uvicorn
from fastapi import FastAPI

STOP_SECONDS = 5  # seconds the responses under way get after Ctrl-C (uvicorn takes an int)


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


def run(application: FastAPI, listener: socket.socket, *,
        say: Callable[[str], None]) -> None:
    """Serve ``application`` (made by ``create_app``) on the bound ``listener`` until a
    signal stops it; uvicorn then raises the signal again (Ctrl-C: ``KeyboardInterrupt``).
    ``say`` tells the person at the terminal that the server is stopping."""
    config = uvicorn.Config(application, log_level="warning",
                            timeout_graceful_shutdown=STOP_SECONDS)
    errors = logging.getLogger("uvicorn.error")  # configured by uvicorn.Config
    if not any(isinstance(f, _Cancelled) for f in errors.filters):
        errors.addFilter(_Cancelled())
    _Server(config, application, say).run(sockets=[listener])
