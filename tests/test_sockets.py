"""The live room under abuse and bad luck: malformed frames, sockets that die, bad links,
crowds (issue #14). Runs on the in-memory layer (`make test`) and on Redis (`make test-scale`)."""

import asyncio
import logging
from datetime import timedelta

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import jobs, services
from games.live import consumers, socket_limits
from games.live.consumers import CLOSE_TOO_MANY_SOCKETS, CLOSE_UNKNOWN_GAME, GameConsumer
from games.live.presence_pushes import pushes
from games.models import Connection, LiveServer
from games.services import Player
from tests.test_consumers import (
    act,
    connect,
    make_user,
    receive_board,
    room_members,
    two_player_game,
    version_of,
)
from yahtzee_site.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def open_pages() -> int:
    return database_sync_to_async(Connection.objects.count)()


async def receive_notice(comm: WebsocketCommunicator) -> str:
    for _ in range(10):
        html = await comm.receive_from(timeout=3)
        if 'id="flash"' in html:
            return html
    raise AssertionError("no notice was pushed")


@pytest.mark.parametrize(
    "frame",
    ["[" * 1000, "{" * 5000, "not json", '{"type": "resync"', "[]", '"resync"', "\udcff"],
)
async def test_a_malformed_frame_gets_a_notice_and_the_page_stays_live(frame, caplog):
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    with caplog.at_level(logging.WARNING):
        await page.send_to(text_data=frame)
        assert "buttons on the page" in await receive_notice(page)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await page.send_json_to({"type": "resync"})  # still in the room, still answering
    assert version_of(await receive_board(page)) == game.version
    await page.disconnect()
    assert await open_pages() == 0


async def test_a_binary_frame_gets_a_notice():
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    await page.send_to(bytes_data=b"\x00\xff" * 100)
    assert "buttons on the page" in await receive_notice(page)
    await page.disconnect()


async def test_a_page_whose_consumer_fails_leaves_the_room(monkeypatch):
    """However a consumer dies, its page is no longer counted as open."""
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    assert await open_pages() == 1

    async def broken(self, text_data=None, bytes_data=None):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(GameConsumer, "receive", broken)
    await page.send_to(text_data="{}")
    with pytest.raises(RuntimeError):
        await page.wait(timeout=3)
    assert await open_pages() == 0
    assert not room_members(game.code)


async def test_sending_to_a_closed_socket_is_harmless_and_the_page_leaves():
    """daphne raises autobahn's Disconnected when a consumer sends to a socket that has just
    closed; the consumer carries on to its disconnect and removes its presence."""
    host = await make_user("ann")
    game = await two_player_game(host)
    closed = False

    async def network(scope, receive, send):
        async def flaky_send(message):
            if closed and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, flaky_send)

    page = WebsocketCommunicator(network, f"/ws/g/{game.code}/", headers=HEADERS)
    assert (await page.connect())[0]
    await receive_board(page)
    other = await connect(game.code)
    await receive_board(other)
    assert await open_pages() == 2

    closed = True
    await page.send_json_to({"type": "resync"})  # answered with a send to the closed socket
    await page.send_input({"type": "websocket.disconnect", "code": 1006})
    await page.wait(timeout=3)  # the consumer ended cleanly, no exception
    assert await open_pages() == 1
    await other.disconnect()
    assert await open_pages() == 0


@pytest.mark.parametrize("failures", [1, 2])
async def test_a_page_whose_presence_cannot_be_removed_at_first_still_leaves_cleanly(
    monkeypatch, caplog, failures
):
    """A database busy at the moment a page closes: removing its presence is tried once
    more; if that fails too, a warning says so and the socket still ends without an error."""
    from django.db import OperationalError

    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    close = services.presence_close
    calls = []

    def busy_database(**kwargs):
        calls.append(kwargs)
        if len(calls) <= failures:
            raise OperationalError("database is locked")
        close(**kwargs)

    monkeypatch.setattr(services, "presence_close", busy_database)
    with caplog.at_level(logging.WARNING):
        await page.disconnect()  # raises if the consumer ended with an exception
    assert len(calls) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    warned = [r for r in caplog.records if "could not leave its presence" in r.getMessage()]
    assert await open_pages() == (0 if failures == 1 else 1)
    assert len(warned) == (0 if failures == 1 else 1)


@pytest.mark.parametrize(
    "code",
    ["x" * 94, "x" * 300, "ünïcödé123", "ABCDEFGHJK", "2345678", "23456789ab2", "😀" * 10, "\x00"],
)
async def test_a_link_no_game_could_have_is_refused_without_touching_the_room(code, caplog):
    comm = WebsocketCommunicator(application, f"/ws/g/{code}/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output(timeout=3)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == CLOSE_UNKNOWN_GAME
    assert "no game" in closed["reason"]
    await comm.wait(timeout=3)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_resync_that_ends_after_the_page_closed_does_not_bring_the_page_back(
    monkeypatch,
):
    """A page that missed a version is sent the whole table; if the socket closes while
    that is on its way, the page (whose viewer has sat down meanwhile) must not be recorded
    as open again."""
    from channels.layers import get_channel_layer

    from games.live.broadcast import group_name
    from games.snapshots import Snapshot

    host, cat = await make_user("ann"), await make_user("cat")
    table = await act(services.game_create, player=Player("ann", user_id=host.pk), seat_count=3)
    sending, release = asyncio.Event(), asyncio.Event()
    hold_next_board = False

    async def network(scope, receive, send):
        async def slow_send(message):
            if hold_next_board and "board" in message.get("text", ""):
                sending.set()
                await release.wait()
            await send(message)

        await application(scope, receive, slow_send)

    page = WebsocketCommunicator(network, f"/ws/g/{table.code}/", headers=HEADERS)
    page.scope["user"] = cat
    assert (await page.connect())[0]
    await receive_board(page)
    wire = (await database_sync_to_async(Snapshot.load)(table.code)).to_wire()
    monkeypatch.setattr(services.writes, "listeners", [])  # the page misses the next version
    await act(
        services.game_join,
        code=table.code,
        player=Player("cat", user_id=cat.pk),
        version=table.version,
    )

    resync_done = asyncio.Event()
    resync = GameConsumer.resync_after_gap

    async def watched_resync(self):
        try:
            await resync(self)
        finally:
            resync_done.set()

    monkeypatch.setattr(consumers, "REORDER_WAIT_SECONDS", 0)
    monkeypatch.setattr(GameConsumer, "resync_after_gap", watched_resync)
    hold_next_board = True
    one_after = {"type": "game.changed", "version": table.version + 2, "snapshot": wire}
    await get_channel_layer().group_send(group_name(table.code), one_after)
    await asyncio.wait_for(sending.wait(), timeout=3)  # the whole table is on its way

    await page.send_input({"type": "websocket.disconnect", "code": 1001})
    await page.wait(timeout=3)
    assert await open_pages() == 0
    release.set()
    await asyncio.wait_for(resync_done.wait(), timeout=3)
    assert await open_pages() == 0


# -- presence: coalesced pushes, and the rooms of a process that died -------------------------


class Clock:
    """The presence pushes' clock: an interval passes when the test says so."""

    def __init__(self) -> None:
        self.waiting: list = []

    async def sleep(self, seconds: float) -> None:
        assert seconds == 1.0
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        await future

    def pass_interval(self) -> None:
        waiting, self.waiting = self.waiting, []
        for future in waiting:
            future.set_result(None)


@pytest.fixture
def clock(settings, monkeypatch):
    settings.PRESENCE_PUSH_SECONDS = 1.0
    clock = Clock()
    monkeypatch.setattr(pushes, "sleep", clock.sleep)
    return clock


async def until(condition) -> None:
    """Let the event loop run until ``condition()`` holds (no clock involved)."""
    for _ in range(2000):
        if await condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the condition never held")


async def receive_presence(comm: WebsocketCommunicator) -> str:
    for _ in range(10):
        html = await comm.receive_from(timeout=3)
        if "watching" in html:
            return html
    raise AssertionError("no presence was pushed")


async def test_a_crowd_arriving_costs_each_page_one_presence_push_per_interval(clock):
    host = await make_user("ann")
    game = await two_player_game(host)
    first = await connect(game.code)
    await receive_board(first)
    assert "1 watching" in await receive_presence(first)  # the first change goes out at once

    crowd = [await connect(game.code) for _ in range(4)]
    for page in crowd:
        await receive_board(page)

    async def all_open() -> bool:
        return await open_pages() == 5 and pushes.waiting(game.code)

    await until(all_open)
    assert await first.receive_nothing(timeout=0.1)  # four arrivals, no push yet
    clock.pass_interval()
    assert "5 watching" in await receive_presence(first)  # one push, the latest counts
    for page in crowd:
        assert "5 watching" in await receive_presence(page)
    clock.pass_interval()  # nothing changed meanwhile: the room's task ends
    assert await first.receive_nothing(timeout=0.1)
    for page in [first, *crowd]:
        await page.disconnect()


async def test_a_seated_player_opening_the_page_asks_for_one_presence_push(monkeypatch):
    host = await make_user("ann")
    game = await two_player_game(host)
    asked = []
    monkeypatch.setattr(pushes, "request", asked.append)
    page = await connect(game.code, user=host)
    await receive_board(page)

    async def recorded() -> bool:
        return bool(asked)

    await until(recorded)
    rows = await database_sync_to_async(lambda: list(Connection.objects.values_list("seat")))()
    assert rows == [(0,)]
    await page.disconnect()
    assert asked == [game.code, game.code]  # once on opening, once on closing


async def test_pages_of_a_process_that_died_leave_the_live_count():
    """A page keeps the right count when another server process dies: the process that
    sweeps away the dead one's pages pushes the corrected presence to those rooms."""
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await connect(game.code)
    await receive_board(page)
    assert "1 watching" in await receive_presence(page)

    def a_page_on_a_process_that_then_dies():
        services.presence_open(server_id="dead", code=game.code, channel_name="gone", seat=None)
        long_ago = timezone.now() - timedelta(hours=1)
        LiveServer.objects.filter(id="dead").update(last_seen=long_ago)

    await database_sync_to_async(a_page_on_a_process_that_then_dies)()
    await page.send_json_to({"type": "resync"})
    await receive_board(page)
    pushes.request(game.code)
    assert "2 watching" in await receive_presence(page)

    await database_sync_to_async(jobs.beat)()  # as the process's background thread beats
    assert "1 watching" in await receive_presence(page)
    assert await open_pages() == 1
    await page.disconnect()


# -- limits: open pages per visitor and per table ---------------------------------------------


async def open_page(code: str, address: str = "203.0.113.7", session=None):
    comm = WebsocketCommunicator(application, f"/ws/g/{code}/", headers=HEADERS)
    comm.scope["client"] = [address, 50000]
    if session is not None:
        comm.scope["cookies"] = {"sessionid": session}
        comm.scope["headers"] = [*HEADERS, (b"cookie", f"sessionid={session}".encode())]
    connected, _ = await comm.connect()
    assert connected
    return comm


async def refused(comm: WebsocketCommunicator) -> str:
    """The notice a refused page shows; the socket is then closed with 4429."""
    notice = await comm.receive_from(timeout=3)
    closed = await comm.receive_output(timeout=3)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == CLOSE_TOO_MANY_SOCKETS == 4429
    await comm.wait(timeout=3)
    return notice


async def test_one_address_may_keep_a_handful_of_pages_open(settings):
    settings.WS_MAX_SOCKETS_PER_CLIENT = 3
    host = await make_user("ann")
    game = await two_player_game(host)
    pages = [await open_page(game.code) for _ in range(3)]
    for page in pages:
        await receive_board(page)

    extra = await open_page(game.code)
    assert "too many pages of this site open" in await refused(extra)
    assert await open_pages() == 3
    other_address = await open_page(game.code, address="198.51.100.2")
    await receive_board(other_address)  # someone else is not affected

    await pages[0].disconnect()  # closing one makes room for another
    again = await open_page(game.code)
    await receive_board(again)
    for page in [*pages[1:], other_address, again]:
        await page.disconnect()
    assert socket_limits.open_count("address", "203.0.113.7") == 0


async def test_behind_a_proxy_the_visitors_address_counts_not_the_proxys(settings):
    settings.WS_MAX_SOCKETS_PER_CLIENT = 1
    settings.TRUSTED_PROXY_COUNT = 1
    host = await make_user("ann")
    game = await two_player_game(host)

    def through_proxy(visitor: str) -> WebsocketCommunicator:
        # The visitor may write any X-Forwarded-For of their own; the proxy appends theirs.
        forwarded = f"10.9.9.9, {visitor}".encode()
        comm = WebsocketCommunicator(
            application, f"/ws/g/{game.code}/", headers=[*HEADERS, (b"x-forwarded-for", forwarded)]
        )
        comm.scope["client"] = ["127.0.0.1", 50000]  # every socket comes from the proxy
        return comm

    first, second, again = (
        through_proxy(v) for v in ("203.0.113.7", "198.51.100.2", "203.0.113.7")
    )
    for comm in (first, second, again):
        connected, _ = await comm.connect()
        assert connected
    await receive_board(first)
    await receive_board(second)  # another visitor behind the same proxy is not affected
    assert "too many pages of this site open" in await refused(again)
    for comm in (first, second):
        await comm.disconnect()


async def test_one_session_may_keep_a_handful_of_pages_open_from_any_address(settings):
    from django.contrib.sessions.backends.db import SessionStore

    settings.WS_MAX_SOCKETS_PER_CLIENT = 2
    host = await make_user("ann")
    game = await two_player_game(host)
    session = await database_sync_to_async(SessionStore)()
    session["guest_name"] = "Gus"
    await database_sync_to_async(session.save)()
    key = session.session_key
    pages = [await open_page(game.code, f"192.0.2.{i}", key) for i in range(2)]
    for page in pages:
        await receive_board(page)
    extra = await open_page(game.code, "192.0.2.99", key)
    assert "too many pages" in await refused(extra)
    for page in pages:
        await page.disconnect()
    assert socket_limits.open_count("session", key) == 0


async def test_a_table_takes_a_limited_number_of_pages(settings):
    settings.WS_MAX_SOCKETS_PER_ROOM = 2
    host = await make_user("ann")
    game = await two_player_game(host)
    pages = [await open_page(game.code, f"192.0.2.{i}") for i in range(2)]
    for page in pages:
        await receive_board(page)
    extra = await open_page(game.code, "192.0.2.50")
    assert "as many people watching as it can take" in await refused(extra)
    assert await open_pages() == 2
    for page in pages:
        await page.disconnect()
    assert socket_limits.open_count("room", game.code) == 0


async def test_a_page_that_fails_frees_its_place(settings, monkeypatch):
    settings.WS_MAX_SOCKETS_PER_CLIENT = 1
    host = await make_user("ann")
    game = await two_player_game(host)
    page = await open_page(game.code)
    await receive_board(page)

    async def broken(self, text_data=None, bytes_data=None):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(GameConsumer, "receive", broken)
    await page.send_to(text_data="{}")
    with pytest.raises(RuntimeError):
        await page.wait(timeout=3)
    again = await open_page(game.code)
    await receive_board(again)
    await again.disconnect()


async def test_no_limit_when_the_setting_is_zero(settings):
    settings.WS_MAX_SOCKETS_PER_CLIENT = 0
    settings.WS_MAX_SOCKETS_PER_ROOM = 0
    host = await make_user("ann")
    game = await two_player_game(host)
    pages = [await open_page(game.code) for _ in range(12)]
    for page in pages:
        await receive_board(page)
    for page in pages:
        await page.disconnect()


# -- refusals in the page's language ------------------------------------------------------------


def in_language(language: str, sentence: str) -> str:
    from django.utils import translation

    with translation.override(language):
        said = translation.gettext(sentence)
    assert said != sentence, f"{sentence!r} has no {language} translation"
    return said


async def open_page_reading(code: str, language: str) -> WebsocketCommunicator:
    headers = [*HEADERS, (b"accept-language", language.encode())]
    comm = WebsocketCommunicator(application, f"/ws/g/{code}/", headers=headers)
    comm.scope["client"] = ["203.0.113.7", 50000]
    connected, _ = await comm.connect()
    assert connected
    return comm


@pytest.mark.parametrize("language", ["te", "uz"])
async def test_a_page_over_the_limit_is_told_why_in_its_language(settings, language):
    settings.WS_MAX_SOCKETS_PER_CLIENT = 1
    host = await make_user("ann")
    game = await two_player_game(host)
    first = await open_page(game.code)
    await receive_board(first)

    extra = await open_page_reading(game.code, language)
    notice = await extra.receive_from(timeout=3)
    closed = await extra.receive_output(timeout=3)

    why = "You have too many pages of this site open. Close some of them, then reload this one."
    assert in_language(language, why) in notice and "too many pages" not in notice
    assert closed["code"] == CLOSE_TOO_MANY_SOCKETS
    assert closed["reason"] == in_language(language, "Too many open pages.")
    await extra.wait(timeout=3)
    await first.disconnect()


@pytest.mark.parametrize("language", ["te", "uz"])
async def test_a_link_to_no_game_is_closed_with_a_reason_in_the_pages_language(language):
    comm = await open_page_reading("ABCDEFGHJK", language)

    closed = await comm.receive_output(timeout=3)

    assert closed["code"] == CLOSE_UNKNOWN_GAME
    assert closed["reason"] == in_language(language, "There is no game with that link.")
    await comm.wait(timeout=3)


async def test_a_flooding_page_is_closed_with_a_reason_in_its_language(settings):
    settings.WS_MESSAGES_PER_SECOND = 1
    settings.WS_MESSAGE_BURST = 3
    host = await make_user("ann")
    game = await two_player_game(host)
    comm = await open_page_reading(game.code, "uz")
    await receive_board(comm)
    for _ in range(6):
        await comm.send_to(text_data="{}")
    while (output := await comm.receive_output(timeout=3))["type"] != "websocket.close":
        if output["type"] == "websocket.send" and 'id="flash"' in output.get("text", ""):
            assert "buttons on the page" not in output["text"]

    assert output["reason"] == in_language("uz", "Too many messages.")
    await comm.wait(timeout=3)
    assert await open_pages() == 0
