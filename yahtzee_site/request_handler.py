"""Django's ASGI handler, run as a one-thread WSGI server would run it.

The site's middleware and views are synchronous. :class:`SynchronousRequestHandler` builds
the middleware chain in synchronous mode and serves each request (start signal, middleware,
view, response close) in one call to asgiref's one thread for synchronous code, where the
sockets' database work runs too, so that thread keeps its database connection. Django's
own handler hands each request to a new thread, with a database connection of its own,
and makes some fifteen thread switches per request. Account and admin pages, which hash
passwords (0.4 s with the GIL released), keep a thread of their own so no table waits.
Measured against ``get_asgi_application()`` in ``make bench-load``: ``docs/benchmarks.md``.

``ASGIHandler`` is not a public API; the tests named ``test_under_asgi_*`` and
``test_a_slow_account_page_holds_up_no_table`` catch a Django upgrade that changes it.
"""

from typing import IO, Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

Scope = dict[str, Any]
Receive = Any
Send = Any

# Pages that may keep their thread busy for a long while (password hashing).
OWN_THREAD_PATHS = ("/accounts/", "/admin/")


class SynchronousRequestHandler(ASGIHandler):
    """Each request's synchronous work in one call to the process's one worker thread."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if scope["path"].startswith(OWN_THREAD_PATHS):
            async with ThreadSensitiveContext():
                await self.handle(scope, receive, send)
        else:
            await self.handle(scope, receive, send)  # on the one thread for synchronous code

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``ASGIHandler.handle`` with one hand-off to the worker thread instead of three."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
        try:
            await self.send_response(response, send)
        finally:
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
            body_file.close()

    def _respond(self, scope: Scope, body_file: IO[bytes]) -> HttpResponseBase:
        """On the worker thread: the request from start signal to closed response."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        assert response is not None
        if not response.streaming:
            response.close()
        return response
