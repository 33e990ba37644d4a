"""The clock a match times its moves by. No I/O.

A match runs each timed move on a worker thread and waits for it through a ``MoveClock``:
``MONOTONIC``, the real clock, in play; a ``VirtualClock`` in tests, whose time moves only
when the test (or an agent it wrote) says so, so a move's budget is judged by the same
numbers however loaded the machine is.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

# How long a virtual clock lets a move run, in real seconds, before it gives up: only a
# safety net, so that a test whose move never returns and never moves the clock fails with
# a message instead of hanging. A move that does either is judged by the virtual clock.
REAL_PATIENCE = 60.0


class ClockStalled(RuntimeError):
    """A move on a virtual clock neither returned nor moved the clock past its deadline
    within ``REAL_PATIENCE`` real seconds (a test's mistake, not an agent's fault)."""


class MoveClock(Protocol):
    """What a match needs of a clock: the time, and a wait bounded by it."""

    def now(self) -> float:
        """The time in seconds (only differences mean anything)."""
        ...

    def wait(self, decided: threading.Event, deadline: float) -> None:
        """Return once ``decided`` is set or this clock is past ``deadline`` (a time of
        ``now``'s, taken before the move began: time a move spends before the wait begins
        counts too)."""
        ...


class MonotonicClock:
    """The real clock: ``time.monotonic``; a wait is ``Event.wait``."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, decided: threading.Event, deadline: float) -> None:
        decided.wait(max(0.0, deadline - self.now()))


MONOTONIC = MonotonicClock()


class VirtualClock:
    """A clock that moves only by ``advance``: a wait ends when its event is set or when the
    clock is advanced strictly past its deadline (a move that used exactly its budget is
    within it, whichever of the two comes first). Safe to advance from any thread."""

    def __init__(self, start: float = 0.0, *, patience: float = REAL_PATIENCE) -> None:
        self._now = start
        self._patience = patience
        self._lock = threading.Lock()
        self._waits: list[tuple[float, threading.Event]] = []  # (deadline, its event)

    def now(self) -> float:
        with self._lock:
            return self._now

    @property
    def waiting(self) -> int:
        """How many waits are pending: a test that drives the clock advances it once the
        move it times is being waited on."""
        with self._lock:
            return len(self._waits)

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward, ending the waits it takes past their
        deadline."""
        if seconds < 0:
            raise ValueError(f"a clock does not go back; got {seconds}")
        with self._lock:
            self._now += seconds
            due = [event for deadline, event in self._waits if self._now > deadline]
        for event in due:
            event.set()

    def wait(self, decided: threading.Event, deadline: float) -> None:
        with self._lock:
            entry = (deadline, decided)
            if self._now > deadline:  # advanced past it before the wait began
                decided.set()
            self._waits.append(entry)
        try:
            if not decided.wait(self._patience):
                raise ClockStalled(
                    f"a move on a virtual clock neither returned nor advanced the clock past "
                    f"its deadline ({deadline} s) within {self._patience} real seconds")
        finally:
            with self._lock:
                self._waits.remove(entry)
