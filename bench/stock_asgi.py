"""The site served by Django's stock ASGI handler (``get_asgi_application()``) instead of
the site's own request handler, for ``bench_load --app stock``: everything else (the
websocket stack, the garbage collector's tuning) is the site's."""

from django.core.asgi import get_asgi_application

from yahtzee_site import asgi

application = asgi.ProtocolTypeRouter(
    {"http": asgi.ProcessServices(get_asgi_application()), "websocket": asgi.websockets}
)
