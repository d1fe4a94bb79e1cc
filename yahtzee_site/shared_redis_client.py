"""A marked workaround: django-redis's cache, with one client per process instead of one
per request.

Works around two upstream behaviours together. Django (5.2) keeps its cache objects in an
``asgiref.Local`` per thread and async context, so under ASGI every request makes a new
cache object (Django ticket #33625; #35651 is the same for Django's own Redis cache,
which also opens a connection pool per request). django-redis (7.0) then builds a new
client for each cache object: a ``redis.Redis`` (redis-py 8) with its event dispatcher and
listeners, some thirty objects tied in reference cycles. The connection pool was already
shared, but those objects outlived the young collections and piled up as cyclic garbage
until a full collection, which pauses every table on the process, had to free them.

Here every cache object of the same settings uses the first one's client; django-redis's
client holds no per-request state (its connections come from the shared pool), so sharing
it changes nothing else. The figures are in ``docs/benchmarks.md`` (load benchmark: the
slowest 1 % of moves at scale).

Remove it when Django reuses one cache object per alias across requests (the fix for
#33625), or django-redis shares its clients itself, and ``make bench-load`` at scale shows
the slowest 1 % of moves no slower with django-redis's ``RedisCache`` as shipped.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from django_redis.cache import RedisCache
from django_redis.client import DefaultClient


class SharedClientRedisCache(RedisCache[DefaultClient]):
    clients: ClassVar[dict[str, DefaultClient]] = {}
    lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.settings_key = f"{server!r}:{sorted(params.items())!r}"

    @property
    def client(self) -> DefaultClient:
        client = self.clients.get(self.settings_key)
        if client is None:
            with self.lock:
                client = self.clients.get(self.settings_key)
                if client is None:
                    client = self._client_cls(self._server, self._params, self)
                    self.clients[self.settings_key] = client
        return client


__all__ = ["SharedClientRedisCache"]
