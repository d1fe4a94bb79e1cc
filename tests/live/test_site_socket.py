"""The site-wide socket of a signed-in account: its badge, live, and invitations' notices on
every page it has open, in each page's language; its presence on the site."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from games import services
from games.live.routing import websocket_urlpatterns
from games.live.site import CLOSE_NOT_SIGNED_IN
from games.models import LastSeen, SiteConnection
from games.services import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]


@database_sync_to_async
def make_user(name: str):
    return get_user_model().objects.create_user(name, password="a long enough password")


async def open_socket(path: str, user, language: str = "en", **route) -> WebsocketCommunicator:
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"accept-language", language.encode()),
    ]
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path, headers=headers)
    comm.scope["user"] = user
    comm.scope["session"] = {}
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive_until(comm: WebsocketCommunicator, needle: str) -> str:
    """The next push that contains ``needle`` (others, such as a table's boards, skipped)."""
    for _ in range(20):
        html = await comm.receive_from(timeout=3)
        if needle in html:
            return html
    raise AssertionError(f"nothing with {needle!r} was pushed")


def count(model) -> int:
    return database_sync_to_async(model.objects.count)()


async def test_a_visitor_is_turned_away():
    comm = await open_socket("/ws/site/", AnonymousUser())
    closed = await comm.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": CLOSE_NOT_SIGNED_IN}


async def test_the_badge_comes_on_connect_and_again_after_each_change():
    alice, bob = await make_user("alice"), await make_user("bob")
    comm = await open_socket("/ws/site/", bob)
    first = await comm.receive_from(timeout=3)
    assert 'id="inbox-badge"' in first and 'class="badge"' not in first
    assert await count(SiteConnection) == 1
    await database_sync_to_async(services.friend_request)(user_id=alice.pk, username="bob")
    pushed = await receive_until(comm, 'id="inbox-badge"')
    assert '<span class="badge">1<' in pushed and 'hx-swap-oob="true"' in pushed
    await comm.disconnect()
    assert await count(SiteConnection) == 0
    assert await database_sync_to_async(LastSeen.objects.filter(user=bob).exists)()


async def test_an_invitation_reaches_every_open_page_in_its_language():
    alice, bob = await make_user("alice"), await make_user("bob")

    @database_sync_to_async
    def invite():
        services.friend_request(user_id=alice.pk, username="bob")
        services.friend_accept(user_id=bob.pk, username="alice")
        game = services.game_create(player=Player("alice", user_id=alice.pk), seat_count=2)
        services.invitation_send(
            code=game.code, player=Player("alice", user_id=alice.pk), username="bob"
        )
        return game.code

    english = await open_socket("/ws/site/", bob)
    telugu = await open_socket("/ws/site/", bob, language="te")
    await english.receive_from(timeout=3)
    await telugu.receive_from(timeout=3)
    code = await invite()
    notice = await receive_until(english, "site-notice")
    assert f"alice invites you to table {code}." in notice
    assert f'href="/g/{code}/"' in notice and "Join" in notice
    assert 'hx-swap-oob="beforeend:#site-notices"' in notice
    in_telugu = await receive_until(telugu, "site-notice")
    assert f'href="/g/{code}/"' in in_telugu and "Join" not in in_telugu
    await english.disconnect()
    await telugu.disconnect()


async def test_a_table_page_carries_the_accounts_notices_on_its_own_socket():
    alice, bob = await make_user("alice"), await make_user("bob")

    @database_sync_to_async
    def table():
        return services.game_create(player=Player("bob", user_id=bob.pk), seat_count=2).code

    code = await table()
    comm = await open_socket(f"/ws/g/{code}/", bob)
    await receive_until(comm, 'id="board"')
    assert await count(SiteConnection) == 1  # on the site, without a second socket
    await database_sync_to_async(services.friend_request)(user_id=alice.pk, username="bob")
    pushed = await receive_until(comm, 'id="inbox-badge"')
    assert '<span class="badge">1<' in pushed
    await comm.disconnect()
    assert await count(SiteConnection) == 0


async def test_a_page_that_sends_something_is_ignored_and_stays_open():
    bob = await make_user("bob")
    comm = await open_socket("/ws/site/", bob)
    await comm.receive_from(timeout=3)
    await comm.send_to(text_data="hello")
    assert await comm.receive_nothing(timeout=0.1)
    await comm.disconnect()
