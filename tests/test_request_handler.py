"""Under ASGI, a table's own requests share the process's one thread for synchronous code;
every other request runs as Django's stock handler runs it, in a thread of its own, so a
slow page holds up no table (yahtzee_site/request_handler.py)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.urls import Resolver404, resolve

from games import selectors
from games.views.accounts import LoginView
from tests.conftest import HTMX, new_client, version_of

# Imported as the server does, at start-up (with DEBUG as the settings have it), not
# inside a test, where pytest-django has switched DEBUG off.
from yahtzee_site.asgi import application, django_asgi_app
from yahtzee_site.request_handler import TABLE_ROUTES, SynchronousRequestHandler, paths_of

ROOT = Path(__file__).resolve().parent.parent
HOST = [(b"host", b"testserver")]
CODE = "abcdefghjk"  # a well-formed game code


def scope_of(path: str, root_path: str = "") -> dict[str, Any]:
    return {"type": "http", "path": path, "root_path": root_path}


def route_name(path: str) -> str | None:
    try:
        return resolve(path).url_name
    except Resolver404:
        return None


@pytest.mark.parametrize(
    ("path", "is_table"),
    [
        (f"/g/{CODE}/", True),
        (f"/g/{CODE}/state.json", True),
        (f"/g/{CODE}/roll/", True),
        (f"/g/{CODE}/keep/", True),
        (f"/g/{CODE}/score/", True),
        (f"/g/{CODE}/join/", True),
        (f"/g/{CODE}/seed/", True),
        (f"/g/{CODE}/leave/", True),
        (f"/g/{CODE}/takeover/", True),
        (f"/g/{CODE}/back/", True),
        (f"/g/{CODE}/bots/add/", True),
        (f"/g/{CODE}/bots/remove/", True),
        (f"/g/{CODE}/start/", True),
        (f"/g/{CODE}/rematch/", True),
        (f"/g/{CODE}/replay/", False),
        (f"/g/{CODE}/moves.json", False),
        (f"/g/{CODE}/verify/", False),
        (f"/g/{CODE}/series/", False),
        (f"/g/{CODE}", False),  # sent on to /g/<code>/ by CommonMiddleware
        (f"/g/{CODE}/roll/again/", False),
        (f"/g/{CODE}/state.jsonx", False),
        ("/g/ABCDEFGHJK/roll/", False),  # no code the site makes
        (f"/x/g/{CODE}/roll/", False),
        ("/", False),
        ("/games/new/", False),
        ("/practice/", False),
        ("/u/alice/", False),
        ("/leaderboard/", False),
        ("/accounts/login/", False),
        ("/admin/", False),
        ("/static/js/game.js", False),
    ],
)
def test_only_a_tables_page_actions_and_state_are_a_tables_own_requests(path, is_table):
    assert django_asgi_app.is_table_request(scope_of(path)) is is_table
    assert (route_name(path) in TABLE_ROUTES) is is_table  # as Django itself resolves it


def test_a_tables_request_is_known_under_the_sites_script_prefix_too():
    under_prefix = scope_of(f"/yahtzee/g/{CODE}/roll/", root_path="/yahtzee")
    assert django_asgi_app.is_table_request(under_prefix)
    assert not django_asgi_app.is_table_request(scope_of("/yahtzee/u/alice/", "/yahtzee"))


def test_a_table_route_the_urls_no_longer_have_stops_the_site_at_start():
    with pytest.raises(ImproperlyConfigured, match="table_dance"):
        paths_of(TABLE_ROUTES | {"table_dance"})


@pytest.fixture
def table(make_game, ann, ben) -> str:
    """The code of a table waiting for its players to start."""
    return make_game(ann, ben).code


@pytest.fixture
def signals_seen():
    """Each ``request_started`` and ``request_finished``, with the thread it ran on."""
    from django.core import signals

    seen: list[tuple[str, int]] = []

    def started(**kwargs):
        seen.append(("started", threading.get_ident()))

    def finished(**kwargs):
        seen.append(("finished", threading.get_ident()))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    yield seen
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


@pytest.fixture
def sessions_opened(monkeypatch) -> list[tuple[threading.Thread, Any]]:
    """For each request: the thread its session was read on, and that thread's database
    connection (opened if it was not)."""
    seen: list[tuple[threading.Thread, Any]] = []
    original = SessionMiddleware.process_request

    def recording(self, request):
        connection = connections["default"]
        connection.ensure_connection()
        seen.append((threading.current_thread(), connection))
        return original(self, request)

    monkeypatch.setattr(SessionMiddleware, "process_request", recording)
    return seen


async def get(path: str) -> dict[str, Any]:
    """The site's answer to a GET, once the application has finished with the request."""
    communicator = HttpCommunicator(application, "GET", path, headers=HOST)
    response = await communicator.get_response()
    await communicator.wait(5)
    return response


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_a_tables_request_runs_every_middleware_synchronously(monkeypatch, table):
    """A table's request enters the worker thread once, not once per middleware method."""
    from django.middleware.clickjacking import XFrameOptionsMiddleware
    from django.middleware.csrf import CsrfViewMiddleware

    seen: dict[str, tuple[bool, int]] = {}

    def record(middleware, method_name):
        original = getattr(middleware, method_name)

        def recording(self, *args):
            seen[middleware.__name__] = (self.async_mode, threading.get_ident())
            return original(self, *args)

        monkeypatch.setattr(middleware, method_name, recording)

    record(SessionMiddleware, "process_request")
    record(CsrfViewMiddleware, "process_request")
    record(XFrameOptionsMiddleware, "process_response")

    response = await get(f"/g/{table}/")

    assert response["status"] == 200
    assert {name: mode for name, (mode, _) in seen.items()} == {
        "SessionMiddleware": False,
        "CsrfViewMiddleware": False,
        "XFrameOptionsMiddleware": False,
    }
    assert len({thread for _, thread in seen.values()}) == 1


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_a_tables_request_visits_the_worker_thread_once(
    monkeypatch, signals_seen, table
):
    """Start signal, middleware, view and finish signal: one hand-off to the worker thread."""
    from asgiref.sync import SyncToAsync

    executor = SyncToAsync.single_thread_executor
    handed_off = []
    submit = executor.submit

    def counting_submit(fn, *args, **kwargs):
        handed_off.append(fn)
        return submit(fn, *args, **kwargs)

    monkeypatch.setattr(executor, "submit", counting_submit)
    response = await get(f"/g/{table}/state.json")

    assert response["status"] == 200 and b'"version"' in response["body"]
    assert len(handed_off) == 1
    (started, thread), (finished, same_thread) = signals_seen
    assert (started, finished) == ("started", "finished")
    assert thread == same_thread != threading.get_ident()


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_a_streamed_file_arrives_whole_and_is_closed_after_it_is_sent(
    signals_seen, settings
):
    # whitenoise finds its files when its middleware is built (from the finders if DEBUG was
    # on then, which depends on when the site's application was first imported): build the
    # one-thread handler here, serving static/ as the collected files.
    settings.STATIC_ROOT = ROOT / "static"
    handler = SynchronousRequestHandler()
    path = "/static/favicon.svg"
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": HOST,
    }
    requests = [{"type": "http.request", "body": b""}]
    sent = []  # each message, with the signals seen when the server sent it

    async def receive():
        return requests.pop(0)

    async def send(message):
        sent.append((message, [name for name, _ in signals_seen]))

    await handler(scope, receive, send)
    (start, _), *chunks = sent
    assert start["status"] == 200
    body = b"".join(message.get("body", b"") for message, _ in chunks)
    assert body == (ROOT / "static" / "favicon.svg").read_bytes()
    for _, signals_then in chunks:
        assert signals_then == ["started"]  # still open while sent
    assert [name for name, _ in signals_seen] == ["started", "finished"]


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_a_tables_requests_share_one_thread_and_connection(sessions_opened, table):
    """No table's request pays for a thread and a database connection of its own."""
    for path in (f"/g/{table}/", f"/g/{table}/state.json", f"/g/{table}/"):
        assert (await get(path))["status"] == 200

    (thread, connection), *later = sessions_opened
    assert len(later) == 2
    assert all(t is thread and c is connection for t, c in later)
    assert connection.connection is not None  # kept open for the next request


@pytest.fixture
def connections_closed(monkeypatch) -> list[tuple[threading.Thread, Any]]:
    """Each close of a database connection, with the thread that closed it. (The test
    database lives in memory, and Django's SQLite backend keeps such a connection open
    whatever it is asked: the close itself is what shows.)"""
    closed: list[tuple[threading.Thread, Any]] = []
    wrapper_class = type(connections["default"])
    original = wrapper_class.close

    def recording(self):
        closed.append((threading.current_thread(), self))
        return original(self)

    monkeypatch.setattr(wrapper_class, "close", recording)
    return closed


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_every_other_page_has_a_thread_of_its_own_and_closes_its_connection(
    sessions_opened, connections_closed, table, alice
):
    assert (await get(f"/g/{table}/"))["status"] == 200
    assert (await get("/"))["status"] == 200
    assert (await get("/u/alice/"))["status"] == 200

    (table_thread, table_connection), *others = sessions_opened
    assert len(others) == 2
    threads = [table_thread] + [thread for thread, _ in others]
    assert len(set(threads)) == 3  # each page on a thread of its own
    # Each page's connection closed by its own thread, the table's thread keeps its own.
    assert set(others) <= set(connections_closed)
    assert all(connection is not table_connection for _, connection in connections_closed)


def hold_the_history_page(monkeypatch, entered, released, seconds):
    original = selectors.user_history

    def held(username, **options):
        entered.set()
        released.wait(seconds)
        return original(username, **options)

    monkeypatch.setattr(selectors, "user_history", held)
    return "/u/carol/"


def hold_the_log_in_page(monkeypatch, entered, released, seconds):
    """As a password hash would (0.4 s, the GIL released), for longer."""
    original = LoginView.get

    def held(self, request, *args, **kwargs):
        entered.set()
        released.wait(seconds)
        return original(self, request, *args, **kwargs)

    monkeypatch.setattr(LoginView, "get", held)
    return "/accounts/login/"


@pytest.mark.parametrize("hold", [hold_the_history_page, hold_the_log_in_page])
@pytest.mark.django_db(transaction=True)
async def test_a_slow_page_holds_up_no_move_at_another_table(
    hold, monkeypatch, make_game, alice, ann, ben, carol, dice
):
    """A page that keeps its thread for two seconds (a lock wait, a password hash) is still
    held when a move at a table has been made and answered."""
    game = await sync_to_async(make_game)(ann, ben, start=True, starter=0)
    version = await sync_to_async(version_of)(game)
    browser = await sync_to_async(new_client)(alice)
    session = browser.cookies["sessionid"].value
    csrf = "a" * 32

    entered, released = threading.Event(), threading.Event()
    slow_path = hold(monkeypatch, entered, released, seconds=2)
    slow = HttpCommunicator(application, "GET", slow_path, headers=HOST)
    slow_page = asyncio.ensure_future(slow.get_response(15))
    try:
        assert await asyncio.to_thread(entered.wait, 10)  # the slow page is in its view
        mover = HttpCommunicator(
            application,
            "POST",
            f"/g/{game.code}/roll/",
            body=f"version={version}".encode(),
            headers=[
                *HOST,
                (b"content-type", b"application/x-www-form-urlencoded"),
                (b"cookie", f"sessionid={session}; csrftoken={csrf}".encode()),
                (b"x-csrftoken", csrf.encode()),
                *((name.lower().encode(), value.encode()) for name, value in HTMX.items()),
            ],
        )
        move = await mover.get_response(10)
        assert move["status"] == 200
        assert f'data-version="{version + 1}"'.encode() in move["body"]  # the dice are rolled
        assert not slow_page.done()  # and the slow page is still held
    finally:
        released.set()
    assert (await slow_page)["status"] == 200
    await mover.wait(5)  # both requests finished with, their connections closed
    await slow.wait(5)
