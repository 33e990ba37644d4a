"""``built_once``: a cache for values that are costly to build (the language data, a model, a
clue space), safe to call from many threads at once.

``functools.cache`` lets every thread that misses build its own copy: twenty web requests
that each need the lexicon for the first time built twenty copies of it (about 200 MB each)
at once. Here one thread builds while the others asking for it wait and then share the value,
and builds run one at a time, so memory holds at most one half-built value per cache. A value
already built is returned without waiting for a build of another one.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, NamedTuple, ParamSpec, TypeVar

P = ParamSpec("P")
V = TypeVar("V")


class CacheInfo(NamedTuple):
    """As ``functools.lru_cache``'s ``cache_info()``."""

    hits: int
    misses: int
    maxsize: int | None
    currsize: int


class BuiltOnce(Generic[P, V]):
    """A function's values by their arguments, each built once; beyond ``maxsize`` the least
    recently used is dropped (``None``: kept for the process)."""

    def __init__(self, build: Callable[P, V], maxsize: int | None) -> None:
        if maxsize is not None and maxsize < 1:
            raise ValueError("a cache needs room for at least one value")
        self._build = build
        self.maxsize = maxsize
        functools.update_wrapper(self, build)
        self._qualname: str = getattr(build, "__qualname__", repr(build))
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()  # held briefly, for the table of values
        self._building = threading.RLock()  # held for a build (re-entered by a nested call)
        self._hits = self._misses = 0
        # Callers waiting for a build now (a test's hook: it shows they wait, not build).
        self.waiting = 0

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> V:
        key = (args, tuple(sorted(kwargs.items())))
        found, value = self._lookup(key)
        if found:
            return value
        with self._lock:
            self.waiting += 1
        try:
            self._building.acquire()
        finally:
            with self._lock:
                self.waiting -= 1
        try:
            found, value = self._lookup(key)  # another thread may have built it meanwhile
            if found:
                return value
            value = self._build(*args, **kwargs)
            with self._lock:
                self._misses += 1
                self._values[key] = value
                while self.maxsize is not None and len(self._values) > self.maxsize:
                    self._values.popitem(last=False)
            return value
        finally:
            self._building.release()

    def _lookup(self, key: Hashable) -> tuple[bool, V]:
        with self._lock:
            if key not in self._values:
                return False, None  # type: ignore[return-value]
            self._values.move_to_end(key)
            self._hits += 1
            return True, self._values[key]

    def __reduce__(self) -> str:
        # Pickled by name, as a function is (a process pool or Ray may ship a reference).
        return self._qualname

    def cache_clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._hits = self._misses = 0

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, self.maxsize, len(self._values))


def built_once(maxsize: int | None = None) -> Callable[[Callable[P, V]], BuiltOnce[P, V]]:
    """Decorate a function whose values are costly to build (see the module's note)."""

    def decorate(build: Callable[P, V]) -> BuiltOnce[P, V]:
        return BuiltOnce(build, maxsize)

    return decorate
