"""Who started what: the games and rooms each client started lately, so that one client
cannot take a whole server's share (``RoomLimits.client_games``, ``client_rooms``).

A client is the address its connection comes from; an IPv6 one counts by its /64 network,
which is what one home or one host is given (one machine can take any address in it). The
counts are kept in memory only: no address is written to disk, and a restart forgets them
(the server-wide caps, counted from the database, still hold)."""

from __future__ import annotations

import contextlib
import ipaddress
import threading
from collections import deque
from collections.abc import Callable, Iterator


def client_key(host: str | None) -> str:
    """The client an address belongs to: the address itself, an IPv6 one's /64 network, or
    ``host`` as it is when it is no address (a test client's name; "" for none)."""
    if not host:
        return ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # an IPv4 client on a dual-stack socket
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Started:
    """The games started in the last ``window`` seconds, by client and kind, at most
    ``size`` of them remembered (the oldest are forgotten first, so memory stays bounded
    however many addresses a crowd comes from)."""

    def __init__(self, *, window: float, size: int, clock: Callable[[], float]) -> None:
        self.window = window
        self.size = size
        self.clock = clock
        self._started: deque[tuple[float, str]] = deque()  # oldest first
        self._counts: dict[str, int] = {}
        self._guard = threading.Lock()

    def admit(self, key: str, most: int) -> bool:
        """Count one more game for ``key`` unless it started ``most`` in the window already."""
        with self._guard:
            now = self.clock()
            while self._started and (self._started[0][0] <= now - self.window
                                     or len(self._started) >= self.size):
                self._drop(self._started.popleft()[1])
            if self._counts.get(key, 0) >= most:
                return False
            self._started.append((now, key))
            self._counts[key] = self._counts.get(key, 0) + 1
            return True

    @contextlib.contextmanager
    def counted(self, key: str, most: int) -> Iterator[bool]:
        """Count one more for ``key`` around the block that makes it: the block gets False
        (and counts nothing) past ``most``; a block that fails made nothing, so its count is
        taken back."""
        if not self.admit(key, most):
            yield False
            return
        try:
            yield True
        except BaseException:
            self.withdraw(key)
            raise

    def withdraw(self, key: str) -> None:
        """Take back the last game counted for ``key`` (it was not made after all)."""
        with self._guard:
            for i in range(len(self._started) - 1, -1, -1):
                if self._started[i][1] == key:
                    del self._started[i]
                    self._drop(key)
                    return

    def __len__(self) -> int:
        with self._guard:
            return len(self._started)

    def _drop(self, key: str) -> None:
        self._counts[key] -= 1
        if not self._counts[key]:
            del self._counts[key]
