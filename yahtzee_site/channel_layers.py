"""The channel layers: in memory for the embedded deployment, Redis for several processes."""

import time

from channels.layers import InMemoryChannelLayer


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer sweeps every channel for expired messages on each send and
    receive: with hundreds of open pages that sweep costs more than the message. Sweeping
    at most once a second keeps the same expiry (give or take that second) for a fraction
    of the work."""

    sweep_interval = 1.0
    _last_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()


def redis_channel_layer(url: str) -> dict:
    """The Redis layer several daphne processes share (``CHANNEL_LAYERS["default"]``).

    channels_redis's pub/sub layer: a room's push is one PUBLISH, which Redis hands once to
    each process with a page of that room open, and the process passes it to its own
    sockets. The list-based ``RedisChannelLayer`` instead queues a copy per socket with a
    Lua script and each socket's process polls it out again, which cost about a fifth of
    the servers' work per move. Pub/sub keeps nothing for a process that is not listening
    at that moment; the room already copes with that, as every push carries its version
    and a page that sees a gap asks for the whole state (games/live/consumers.py).
    """
    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [url]},
    }
