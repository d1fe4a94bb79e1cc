"""Open pages per visitor and per table (games/live/socket_limits.py). Runs on the in-memory
layer and on Redis."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import socket_limits
from games.live.consumers import CLOSE_TOO_MANY_SOCKETS, GameConsumer
from tests.live.helpers import HEADERS, open_page, open_pages
from tests.live.test_consumers import (
    make_user,
    receive_board,
    two_player_game,
)
from yahtzee_site.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]


# -- limits: open pages per visitor and per table ---------------------------------------------


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
