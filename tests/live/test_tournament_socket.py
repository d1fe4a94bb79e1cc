"""An arena's standings, live: every open tournament page gets the standings again, in its
own reader's language, whenever they change (a join, a pairing, a scored game)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone, translation

from games.live.routing import websocket_urlpatterns
from games.services import Player
from games.services.tournaments import Plan, tournament_create, tournament_join

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def make_user(name: str):
    return get_user_model().objects.create_user(name, password="a long enough password")


def player(user) -> Player:
    return Player(name=user.username, user_id=user.pk)


@database_sync_to_async
def make_arena(creator) -> int:
    plan = Plan(
        name="Live arena",
        starts_at=timezone.now() + timedelta(hours=1),
        minutes=30,
        pace="blitz",
        table_size=2,
        ruleset="yahtzee",
        rated=False,
        public=True,
    )
    return tournament_create(player=player(creator), plan=plan).pk


async def open_page(path: str, language: str = "en") -> tuple[WebsocketCommunicator, bool]:
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        path,
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    comm.scope["user"] = AnonymousUser()
    comm.scope["session"] = {}
    comm.scope["cookies"] = {"django_language": language}
    comm.scope["client"] = ["203.0.113.9", 50000]
    connected, _ = await comm.connect()
    return comm, connected


async def test_each_open_page_gets_the_new_standings_in_its_own_language():
    ann = await make_user("ann")
    tournament_id = await make_arena(ann)
    english, _ = await open_page(f"/ws/tournaments/{tournament_id}/")
    telugu, _ = await open_page(f"/ws/tournaments/{tournament_id}/", "te")
    first = await english.receive_from(timeout=3)
    assert 'id="standings"' in first and "hx-swap-oob" in first and "ann" not in first
    await telugu.receive_from(timeout=3)
    await database_sync_to_async(tournament_join)(tournament_id=tournament_id, player=player(ann))
    pushed = await english.receive_from(timeout=3)
    assert 'data-player="ann"' in pushed and "Standings" in pushed
    in_telugu = await telugu.receive_from(timeout=3)
    with translation.override("te"):
        assert translation.gettext("Standings") in in_telugu
    assert 'data-player="ann"' in in_telugu and "Standings" not in in_telugu
    await english.disconnect()
    await telugu.disconnect()


async def test_a_page_of_no_tournament_is_closed():
    comm, connected = await open_page("/ws/tournaments/4242/")
    assert connected
    closed = await comm.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 4404}
