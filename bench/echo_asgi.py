"""The floor for the live-rooms benchmark: a bare Channels consumer that echoes each message
it receives to its room's group, served by daphne exactly like the site.

No Django views, database, sessions, templates or origin checks: what is left is daphne,
the channel layer (in memory, or the site's Redis layer when ``REDIS_URL`` is set) and
the websocket frames themselves. ``GET /`` answers ``ok`` for readiness.

    daphne -b 127.0.0.1 -p 8100 bench.echo_asgi:application
"""

from __future__ import annotations

import os

import django
from django.conf import settings

from yahtzee_site.channel_layers import redis_channel_layer

if not settings.configured:
    redis_url = os.environ.get("REDIS_URL", "")
    settings.configure(
        DEBUG=False,
        ALLOWED_HOSTS=["*"],
        INSTALLED_APPS=["channels"],
        CHANNEL_LAYERS={
            "default": (
                redis_channel_layer(redis_url)
                if redis_url
                else {
                    "BACKEND": "channels.layers.InMemoryChannelLayer",
                    "CONFIG": {"capacity": 1500, "expiry": 30},
                }
            )
        },
        LOGGING={
            "version": 1,
            "disable_existing_loggers": False,
            "handlers": {"console": {"class": "logging.StreamHandler"}},
            "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
        },
    )
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"echo-{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(
            self.group, {"type": "echo.message", "text": text_data or ""}
        )

    async def echo_message(self, event: dict) -> None:
        await self.send(text_data=event["text"])


async def ready(scope: dict, receive, send) -> None:
    """``GET /`` and everything else over HTTP: ``200 ok``."""
    headers = [(b"content-type", b"text/plain")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {
        "http": ready,
        "websocket": URLRouter([path("ws/echo/<str:room>/", EchoConsumer.as_asgi())]),
    }
)
