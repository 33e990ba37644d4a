"""A bounded, thread-safe cache of per-board work, shared by every game and room of a process:
a board's cards are looked up under a lock, the work is done outside it, and the least
recently used entries are dropped beyond ``maxsize``."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class OwnLock:
    """A mixin for classes that keep a ``_lock``: a pickled copy (sent to another process)
    gets a lock of its own, as a lock cannot be pickled."""

    _lock: threading.Lock

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_lock"]  # a copy in another process gets a lock of its own
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


class BoundedCache(Generic[K, V]):
    """At most ``maxsize`` values, the least recently used dropped first."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("a cache needs room for at least one entry")
        self.maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` (or the value another thread kept first, which is returned)."""
        with self._lock:
            kept = self._items.setdefault(key, value)
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)
            return kept

    def get_or_build(self, key: K, build: Callable[[], V]) -> V:
        """The kept value, else ``build()`` (run outside the lock: two threads may both build
        it; one value is kept and returned to both)."""
        found = self.get(key)
        return found if found is not None else self.put(key, build())

    def __len__(self) -> int:
        return len(self._items)

    # A copy sent to another process (Ray's shared spaces) starts empty, with a lock of its
    # own: neither the entries nor a lock can be pickled usefully.
    def __getstate__(self) -> dict[str, object]:
        return {"maxsize": self.maxsize}

    def __setstate__(self, state: dict[str, object]) -> None:
        maxsize = state["maxsize"]
        assert isinstance(maxsize, int)
        self.__init__(maxsize)  # type: ignore[misc]
