"""ASGI entry point: HTTP through Django, websockets under ws/ through Channels."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from yahtzee_site import garbage_collection  # noqa: E402
from yahtzee_site.request_handler import SynchronousRequestHandler  # noqa: E402

django_asgi_app = SynchronousRequestHandler()
websockets = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": websockets})

garbage_collection.tune()
