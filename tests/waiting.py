"""Waiting in tests for something another thread or process makes true.

No test sleeps for a fixed time and hopes. Where an event can cross to the test (a line a
process writes, a ``threading.Event``), the test waits on it. Where none can (a file another
process appends to, a server's count of connections, a page in a browser), ``until`` checks
the condition again and again: it returns the moment the condition holds, so how loaded the
machine is changes how long a test takes, never what it finds, and its deadline only turns a
condition that never comes into a failure with a message instead of a hang.
"""

from __future__ import annotations

import time
from collections.abc import Callable

PATIENCE = 60.0  # real seconds: generous bounds on what takes well under one
_BETWEEN = 0.02  # real seconds between two looks at a condition nothing can signal


def until(done: Callable[[], object], what: str, timeout: float = PATIENCE) -> None:
    """Return once ``done()`` is true; ``AssertionError`` naming ``what`` after ``timeout``
    real seconds without it."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(_BETWEEN)
