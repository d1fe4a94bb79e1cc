"""One Redis connection pool, and one client, per server for the whole process, for
Django's cache (the sessions, in scale mode).

Django's Redis cache keeps its connection pool on the cache object, and under ASGI every
request gets a cache object of its own (Django ticket #35651), so each request opened a
new Redis connection (a TCP handshake, and redis-py reading its package metadata to
introduce itself): 12 % of the servers' CPU in the load benchmark's scale mode. It also
builds a new ``redis.Redis`` client for every call: a session read took 169 µs in
process with a new client each time, 112 µs with the process's one. ``CACHES``
names :class:`RedisCache`, whose cache objects all share the process's pools and clients;
a redis-py client with a connection pool is safe to share between threads.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from django.core.cache.backends import redis as django_redis

_lock = threading.Lock()
# One client per server and set of options; each client holds its connection pool.
_clients: dict[tuple[str, tuple[tuple[str, Any], ...]], redis.Redis] = {}


class SharedRedisCacheClient(django_redis.RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        server = self._servers[self._get_connection_pool_index(write)]
        shared = (server, tuple(sorted(self._pool_options.items())))  # option names are unique
        with _lock:
            client = _clients.get(shared)
            if client is None:
                pool = self._pool_class.from_url(server, **self._pool_options)
                client = _clients[shared] = self._client(connection_pool=pool)
        return client

    def _get_connection_pool(self, write: bool) -> redis.ConnectionPool:
        return self.get_client(write=write).connection_pool


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedRedisCacheClient
