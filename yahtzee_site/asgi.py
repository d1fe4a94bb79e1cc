"""ASGI entry point: HTTP through Django, websockets under ws/ through Channels."""

import gc
import os

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django.setup(set_prefix=False)

from games import jobs  # noqa: E402

# Pages that may keep their thread busy for a long while (password hashing).
OWN_THREAD_PATHS = ("/accounts/", "/admin/")


class SynchronousRequestHandler(ASGIHandler):
    """Django's ASGI handler, serving requests as a one-thread WSGI server would: each
    request's middleware and view run in one call to the process's one worker thread.

    The site's views and middleware are synchronous. Given its asynchronous base handler,
    Django runs every middleware that can be asynchronous in async mode, and
    ``MiddlewareMixin`` then hands each ``process_request`` and ``process_response`` to a
    worker thread and back: some fifteen thread switches per request. Building the chain
    in synchronous mode and entering it once costs a move 3 ms less server CPU in the load
    benchmark (12.5 instead of 15.5 ms at 50 moves/s).

    Django also gives every request a thread of its own (a ``ThreadSensitiveContext``),
    and with it a database connection of its own, opened and closed each time. Here every
    request's synchronous work runs on asgiref's one thread for synchronous code, where the
    sockets' database work runs too, so that thread keeps its connection (SQLite:
    ``CONN_MAX_AGE=None``; PostgreSQL: the pool). A move costs about 2 ms less server CPU.
    Requests of one process then run one after another; a move takes about 2 ms of it.
    Account and admin pages are the exception (``OWN_THREAD_PATHS``): logging in or signing
    up hashes a password, 0.4 s with the GIL released, and no table should wait for that,
    so they keep a thread of their own, as Django gives every request.

    Around the middleware Django's ``handle`` makes two more hand-offs to that thread: one
    for the ``request_started`` signal and one to close the response (``request_finished``).
    Here one call does all three (``_respond``), and a response that is not streamed is
    closed before it is sent, its content being complete by then; a streamed one (a static
    file) is closed after. That is 0.45 ms less CPU per request in process (2.8 instead of
    3.25 ms for the home page). Django's ``handle`` also watches for the client going away,
    to cancel an asynchronous view; the site has none, and a synchronous view cannot be
    cancelled.

    ``ASGIHandler`` is not a public API (``get_asgi_application`` returns one); the tests
    ``test_under_asgi_every_middleware_runs_synchronously``,
    ``test_under_asgi_a_request_visits_the_worker_thread_once``,
    ``test_under_asgi_a_streamed_file_arrives_whole_and_is_closed_after_it_is_sent``,
    ``test_under_asgi_requests_share_one_thread_and_connection`` and
    ``test_a_slow_account_page_holds_up_no_table`` catch a Django upgrade that changes how
    it is built.
    """

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        jobs.ensure_running()  # this process's look for due work (turn clocks, bots, reviews)
        if scope["path"].startswith(OWN_THREAD_PATHS):
            async with ThreadSensitiveContext():
                await self.handle(scope, receive, send)
        else:
            await self.handle(scope, receive, send)  # on the one thread for synchronous code

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def handle(self, scope, receive, send):  # type: ignore[no-untyped-def]
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

    def _respond(self, scope, body_file):  # type: ignore[no-untyped-def]
        """On the worker thread: the request from start signal to closed response."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response


django_asgi_app = SynchronousRequestHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.template.loader import get_template  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Everything loaded so far (Django, the site's code, the room's compiled templates) lives
# as long as the process. Moving it out of the garbage collector's reach makes each full
# collection, which pauses every table on this process, cheaper: under the load benchmark
# (50 moves/s, 400 sockets) a full collection took 40 ms on average instead of 85, and
# the slowest 1 % of moves went from about 170 ms to 65 ms.
#
# What is left for a full collection is still some 60-80 thousand objects (the open sockets,
# caches of recent versions and fragments), and walking them takes 70-130 ms on this
# machine; by default one runs every few seconds under load. Letting a hundred collections
# of the middle generation pass before the next full one, instead of ten, makes that about
# once every half minute at 100 moves/s: in paired scale runs the slowest 1 % of moves went
# from 170-390 ms to 27-73 ms. The young generations keep their usual, short collections.
FULL_COLLECTION_EVERY = 100

for _name in ("games/room.html", "games/home.html"):
    get_template(_name)
gc.collect()
gc.freeze()
_young, _middle, _ = gc.get_threshold()
gc.set_threshold(_young, _middle, FULL_COLLECTION_EVERY)
