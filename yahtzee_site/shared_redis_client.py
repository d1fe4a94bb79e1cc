"""django-redis's cache, with one client per process instead of one per request.

Under ASGI, Django makes a new cache object for every request (its cache handler is local
to the request's context), and django-redis then builds a new client for it: a
``redis.Redis`` with its event dispatcher and listeners, some thirty objects tied in
reference cycles. The connection pool was already shared, but those objects outlived the
young collections and piled up as cyclic garbage until a full collection, which pauses
every table on the process, had to free them. Here every cache object of the same
settings uses the first one's client; django-redis's client holds no per-request state (its
connections come from the shared pool), so sharing it changes nothing else. The figures are
in ``docs/benchmarks.md`` (load benchmark: the slowest 1 % of moves at scale).
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
