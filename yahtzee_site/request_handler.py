"""The site's HTTP handler: a table's own requests on one thread, every other as Django's.

A table's own requests (its page, its actions, its ``state.json``: :data:`TABLE_ROUTES`
in ``games/urls.py``) are the site's busiest and shortest. :class:`SynchronousRequestHandler`
serves them as a one-thread WSGI server would: the middleware chain built in synchronous
mode, each request (start signal, middleware, view, response close) in one call to
asgiref's one thread for synchronous code, where the sockets' database work runs too, so
that thread keeps its database connection. Django's own handler hands each request to a
new thread, with a database connection of its own, and makes some fifteen thread switches
per request. Measured against ``get_asgi_application()`` in ``make bench-load``:
``docs/benchmarks.md``.

Every other request (home, history, replays, accounts, admin, static files, …) is served
by :class:`StockRequestHandler`, Django's ``ASGIHandler`` as shipped, in a thread of its
own: a slow page, a password hash (0.4 s) or a wait for a database lock (SQLite waits up
to 20 s) holds up no table. Its thread's database connections are closed when its request
finishes (the settings keep SQLite's connections open for the one thread).

``ASGIHandler`` is not a public API; the tests named ``test_under_asgi_*`` and
``test_a_slow_page_holds_up_no_move_at_another_table`` catch a Django upgrade that changes
it.
"""

import re
from typing import IO, Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import ImproperlyConfigured, RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import connections
from django.http import FileResponse, HttpResponseBase
from django.urls import URLPattern, URLResolver, get_resolver, set_script_prefix

Scope = dict[str, Any]
Receive = Any
Send = Any

# The names in games/urls.py of a table's own page, actions and state.
TABLE_ROUTES = frozenset(
    {
        "game",
        "game_state",
        "game_join",
        "seat_set_client_seed",
        "game_leave",
        "turn_takeover",
        "seat_return",
        "game_add_bot",
        "game_remove_bot",
        "game_start",
        "turn_roll",
        "turn_keep",
        "turn_score",
        "game_rematch",
    }
)


def paths_of(routes: frozenset[str]) -> re.Pattern[str]:
    """One regular expression that matches the paths the site's URLconf resolves to one of
    ``routes`` (by name), built from the routes themselves."""
    found: dict[str, str] = {}

    def walk(entries: list[URLPattern | URLResolver], prefix: str) -> None:
        for entry in entries:
            regex = prefix + entry.pattern.regex.pattern.removeprefix("^")
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, regex)
            elif entry.name in routes and entry.name not in found:
                found[entry.name] = regex

    walk([get_resolver()], "")
    if missing := routes - found.keys():
        raise ImproperlyConfigured(f"No URL named {', '.join(sorted(missing))}.")
    # The same group name comes back in every route: the alternatives capture nothing.
    alternatives = "|".join(re.sub(r"\(\?P<\w+>", "(?:", regex) for regex in found.values())
    return re.compile(f"(?:{alternatives})")


class StockRequestHandler(ASGIHandler):
    """Django's ASGI handler as shipped; a class of its own only so that the end of its
    requests can be told apart (:func:`close_connections`)."""


def close_connections(**kwargs: object) -> None:
    """At the end of a request of :class:`StockRequestHandler`, on the thread that served
    it (its own, which ends with it): close that thread's database connections, which the
    settings would otherwise keep open."""
    connections.close_all()


signals.request_finished.connect(
    close_connections, sender=StockRequestHandler, dispatch_uid="stock-request-connections"
)


class SynchronousRequestHandler(ASGIHandler):
    """Each request's synchronous work in one call to the process's one worker thread."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
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


class RequestHandler:
    """The site's HTTP application: a table's own requests to the one thread
    (:class:`SynchronousRequestHandler`), every other to :class:`StockRequestHandler`."""

    def __init__(self) -> None:
        self.table_paths = paths_of(TABLE_ROUTES)
        self.on_one_thread = SynchronousRequestHandler()
        self.stock = StockRequestHandler()

    def is_table_request(self, scope: Scope) -> bool:
        """Whether the request is a table's own, read from its path as Django reads it."""
        path, script_name = scope["path"], get_script_prefix(scope)
        if script_name:
            path = path.removeprefix(script_name)
        return self.table_paths.fullmatch(path) is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.is_table_request(scope):
            await self.on_one_thread(scope, receive, send)
        else:
            await self.stock(scope, receive, send)
