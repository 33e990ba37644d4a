"""How long a request body may take to arrive, and the stop that drops the ones still arriving.

uvicorn waits, when it stops, for every request it has started; a client that sends its
headers and part of its body, then nothing, would hold it forever. ``Guard`` reads each body
through ``Intake.receive``: a body not whole within ``Intake.seconds`` gets 408, and one still
arriving when the server stops (``Intake.stop``, at Ctrl-C) gets 503, both with
``Connection: close``."""

from __future__ import annotations

import asyncio

from starlette.types import Message, Receive

BODY_SECONDS = 10.0  # a whole body (at most 16 KB) on the slowest honest link


class Intake:
    """The body reads under way in one server: ``seconds`` for each whole body."""

    def __init__(self, *, seconds: float = BODY_SECONDS) -> None:
        if not seconds > 0:
            raise ValueError(f"a body timeout must be over 0 seconds, not {seconds}")
        self.seconds = seconds
        self.stopped = False
        self._waiting: set[asyncio.Future[None]] = set()

    def stop(self) -> None:
        """Drop the bodies still arriving, and every later one (call it on the server's loop)."""
        self.stopped = True
        for waiter in self._waiting:
            if not waiter.done():
                waiter.set_result(None)

    async def receive(self, receive: Receive, deadline: float) -> Message | None:
        """The next ASGI message from ``receive``, or None when the loop's clock passes
        ``deadline`` first or the server stops."""
        if self.stopped:
            return None
        loop = asyncio.get_running_loop()
        stop: asyncio.Future[None] = loop.create_future()
        message = asyncio.ensure_future(receive())
        self._waiting.add(stop)
        try:
            await asyncio.wait((message, stop), timeout=max(0.0, deadline - loop.time()),
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waiting.discard(stop)
            if not message.done():
                message.cancel()
        if message.done() and not message.cancelled():
            return message.result()
        return None
