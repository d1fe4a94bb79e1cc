"""ASGI entry point: HTTP through Django, websockets under ws/ through Channels."""

import asyncio
import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games import jobs  # noqa: E402
from games.live import broadcast  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from yahtzee_site import garbage_collection  # noqa: E402
from yahtzee_site.request_handler import RequestHandler  # noqa: E402


class ProcessServices:
    """Before each request and each socket: starts this process's look for due work (turn
    clocks, computer players, reviews), if loading the application did not, and tells the
    live layer which event loop sends the rooms' pushes; then passes the request on."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        jobs.ensure_running()
        broadcast.serve_from(asyncio.get_running_loop())
        await self.app(scope, receive, send)


django_asgi_app = RequestHandler()
websockets = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
http_app = ProcessServices(django_asgi_app)
application = ProtocolTypeRouter({"http": http_app, "websocket": ProcessServices(websockets)})

garbage_collection.tune()

if settings.JOBS_START_WITH_APPLICATION:
    # A restarted process fires the deadlines, e-mails and reviews due before anyone visits
    # (nothing while PRESENCE_HEARTBEAT_SECONDS=0).
    jobs.ensure_running()
