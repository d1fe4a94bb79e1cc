"""Keep each HTTP request's middleware in one worker thread under ASGI.

Our views are synchronous (they use the ORM). Under ASGI Django builds the middleware
stack from the bottom up and runs every middleware that can be asynchronous in async
mode while the handler below it is asynchronous; ``MiddlewareMixin`` then hands each
``process_request`` and ``process_response`` to the worker thread and back, a dozen
thread switches per request. Django's documentation prices a switch at about a
millisecond under load. A synchronous-only middleware at the bottom of the stack makes
Django run the whole stack synchronously, entered once from the event loop, as it would
under WSGI.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class SynchronousStackMiddleware:
    """Last in ``MIDDLEWARE``: passes the request on unchanged; only its mode matters."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)
