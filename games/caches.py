"""The site's in-process caches: each named, bounded, and emptied in one place.

A cache that keeps work between requests (a rendered board, a decoded snapshot, a scored
row) is made here, by the one module that owns it, under a name that says what it holds:

    boards = caches.lru("room boards by version and viewpoint", maxsize=2048)
    boards.get(key) / boards.set(key, html) / boards.setdefault(key, html)

    @caches.memoize("score cells", maxsize=4096)
    def score_cell(box, audience): ...

Every cache is a ``cachetools.LRUCache`` behind a lock (sockets and requests run on
different threads); ``getsizeof`` bounds a cache by weight instead of by count.
:func:`clear_all` empties every cache at once: tests start from it, so a test never
needs to know the private name of any cache. Pure Python: any layer may use it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar, overload

from cachetools import LRUCache, cached
from cachetools.keys import hashkey

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

_MISSING: Any = object()


class Cache(Generic[K, V]):
    """A named, bounded, thread-safe least-recently-used mapping."""

    def __init__(
        self, name: str, maxsize: int, getsizeof: Callable[[V], int] | None = None
    ) -> None:
        self.name = name
        self._data: LRUCache[K, V] = LRUCache(maxsize, getsizeof)
        self.lock = threading.Lock()

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: V) -> V: ...
    def get(self, key: K, default: V | None = None) -> V | None:
        with self.lock:
            return self._data.get(key, default)

    def set(self, key: K, value: V) -> None:
        with self.lock:
            self._data[key] = value

    def setdefault(self, key: K, value: V) -> V:
        """The value cached for ``key``, storing ``value`` first if there is none."""
        with self.lock:
            known = self._data.get(key, _MISSING)
            if known is _MISSING:
                self._data[key] = value
                return value
            return known

    def put_unless(self, key: K, value: V, keep: Callable[[V], bool]) -> None:
        """Store ``value`` unless the value already cached for ``key`` passes ``keep``."""
        with self.lock:
            known = self._data.get(key, _MISSING)
            if known is _MISSING or not keep(known):
                self._data[key] = value

    def pop(self, key: K) -> V | None:
        with self.lock:
            return self._data.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self._data.clear()

    @property
    def maxsize(self) -> float:
        return self._data.maxsize

    @property
    def currsize(self) -> float:
        """Entries held, or their summed weight for a cache bounded by ``getsizeof``."""
        return self._data.currsize

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        with self.lock:
            return key in self._data

    def __repr__(self) -> str:
        return f"<Cache {self.name!r}: {len(self)} of {self.maxsize:g}>"


_registry: dict[str, Cache[Any, Any]] = {}
_registry_lock = threading.Lock()


def lru(name: str, maxsize: int, getsizeof: Callable[[Any], int] | None = None) -> Cache[Any, Any]:
    """A new cache called ``name`` holding at most ``maxsize`` entries (or weight)."""
    cache: Cache[Any, Any] = Cache(name, maxsize, getsizeof)
    with _registry_lock:
        if name in _registry:
            raise ValueError(f"There is already a cache called {name!r}.")
        _registry[name] = cache
    return cache


def memoize(
    name: str, maxsize: int, *, key_extra: Callable[[], Hashable] | None = None
) -> Callable[[F], F]:
    """Remember a pure function's results by its (hashable) arguments, in a named cache.

    ``key_extra`` adds what else the result depends on to the key (a render's language).
    """
    cache = lru(name, maxsize)
    key = hashkey if key_extra is None else lambda *a, **k: hashkey(key_extra(), *a, **k)

    def decorate(function: F) -> F:
        # The wrapper reads and writes the LRU under the cache's own lock.
        return cached(cache._data, key=key, lock=cache.lock)(function)  # type: ignore[return-value]

    return decorate


def clear_all() -> None:
    """Empty every cache of this process (tests start from here)."""
    with _registry_lock:
        known = list(_registry.values())
    for cache in known:
        cache.clear()


def every_cache() -> dict[str, Cache[Any, Any]]:
    """Each cache by name, for tests and for looking at a running process."""
    with _registry_lock:
        return dict(_registry)
