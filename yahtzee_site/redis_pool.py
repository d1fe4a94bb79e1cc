"""One Redis connection pool per server for the whole process, for Django's cache.

Django's Redis cache keeps its connection pool on the cache object, and under ASGI every
request gets a cache object of its own (Django ticket #35651), so each request opened a
new Redis connection (a TCP handshake, and redis-py reading its package metadata to
introduce itself): 12 % of the servers' CPU in the load benchmark's scale mode.
``CACHES[...]["OPTIONS"]["pool_class"]`` names this class, which hands every cache object
the same pool.
"""

from __future__ import annotations

import threading
from typing import Any

import redis

_lock = threading.Lock()
_pools: dict[tuple[str, tuple[tuple[str, Any], ...]], redis.ConnectionPool] = {}


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url: str, **options: Any) -> redis.ConnectionPool:  # type: ignore[override]
        key = (url, tuple(sorted(options.items())))  # option names are unique
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = super().from_url(url, **options)
        return pool
