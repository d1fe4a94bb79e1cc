"""The live room under abuse and bad luck: malformed frames, sockets that die, bad links,
crowds (issue #14). Runs on the in-memory layer (`make test`) and on Redis (`make test-scale`)."""

import logging

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import consumers
from games.consumers import CLOSE_UNKNOWN_GAME, GameConsumer
from games.models import Connection
from tests.test_consumers import (
    connect,
    make_user,
    receive_board,
    room_members,
    two_player_game,
    version_of,
)
from yahtzee_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

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


@pytest.mark.parametrize(
    "code",
    ["x" * 94, "x" * 300, "ünïcödé123", "ABCDEFGHJK", "2345678", "23456789ab2", "😀" * 10],
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
    assert consumers.is_game_code(code) is False
