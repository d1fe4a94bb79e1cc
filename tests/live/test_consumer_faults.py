"""The live room's consumer under abuse and bad luck (games/live/consumers.py): malformed frames,
sockets that die, bad links, and refusals in the page's language. Runs on the in-memory layer
(`make test`) and on Redis (`make test-scale`)."""

import asyncio
import logging

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import services
from games.live import consumers
from games.live.consumers import CLOSE_TOO_MANY_SOCKETS, CLOSE_UNKNOWN_GAME, GameConsumer
from games.services import Player
from tests.live.helpers import HEADERS, open_page, open_pages, receive_notice
from tests.live.test_consumers import (
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


# -- frames, failures and bad links ----------------------------------------------------------


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
