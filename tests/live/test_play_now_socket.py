""" "Play now" live: the waiting page's socket takes it to its table the moment it is matched,
and with the last waiting page closed the person leaves the queue."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from games.live.routing import websocket_urlpatterns
from games.models import Game, Ticket, TicketPage
from games.services import Player
from games.services.play_now import Choices, play_cancel, play_join

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

LIVE_2 = Choices(pace="live", players=2, rated=False)


@database_sync_to_async
def make_user(name: str):
    return get_user_model().objects.create_user(name, password="a long enough password")


def player(user) -> Player:
    return Player(name=user.username, user_id=user.pk)


async def waiting_page(user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        "/ws/play/",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    comm.scope["user"] = user
    comm.scope["session"] = {}
    comm.scope["client"] = ["203.0.113.9", 50000]
    connected, _ = await comm.connect()
    assert connected
    return comm


def status_of(ticket_id: int) -> str:
    return Ticket.objects.values_list("status", flat=True).get(pk=ticket_id)


async def pages_of(ticket_id: int) -> int:
    return await database_sync_to_async(TicketPage.objects.filter(ticket_id=ticket_id).count)()


async def test_the_waiting_page_is_taken_to_the_table_when_the_match_is_made():
    ann, ben = await make_user("ann"), await make_user("ben")
    ticket = await database_sync_to_async(play_join)(player=player(ann), choices=LIVE_2)
    page = await waiting_page(ann)
    assert await page.receive_nothing(timeout=0.2)
    assert await pages_of(ticket.pk) == 1
    matched = await database_sync_to_async(play_join)(player=player(ben), choices=LIVE_2)
    message = json.loads(await page.receive_from(timeout=3))
    code = await database_sync_to_async(lambda: Game.objects.get(pk=matched.game_id).code)()
    assert message == {"status": "matched", "game": code, "url": f"/g/{code}/"}
    await page.disconnect()
    assert await database_sync_to_async(status_of)(ticket.pk) == "matched"  # not left
    assert await database_sync_to_async(Game.objects.count)() == 1


async def test_closing_the_last_waiting_page_leaves_the_queue():
    ann, ben = await make_user("ann"), await make_user("ben")
    ticket = await database_sync_to_async(play_join)(player=player(ann), choices=LIVE_2)
    first, second = await waiting_page(ann), await waiting_page(ann)
    assert await pages_of(ticket.pk) == 2
    await first.disconnect()
    assert await database_sync_to_async(status_of)(ticket.pk) == "waiting"
    await second.disconnect()
    assert await database_sync_to_async(status_of)(ticket.pk) == "left"
    assert await pages_of(ticket.pk) == 0
    after = await database_sync_to_async(play_join)(player=player(ben), choices=LIVE_2)
    assert after.status == "waiting"  # nobody left to meet


async def test_a_page_of_someone_not_waiting_is_told_so():
    ann = await make_user("ann")
    page = await waiting_page(ann)
    assert json.loads(await page.receive_from(timeout=3)) == {
        "status": "idle",
        "game": None,
        "url": "/play/",
    }
    await page.disconnect()


async def test_a_cancel_on_another_page_sends_every_waiting_page_back_to_the_form():
    ann = await make_user("ann")
    await database_sync_to_async(play_join)(player=player(ann), choices=LIVE_2)
    page = await waiting_page(ann)
    await database_sync_to_async(play_cancel)(player=player(ann))
    assert json.loads(await page.receive_from(timeout=3))["status"] == "idle"
    await page.disconnect()


async def test_a_page_opening_completes_a_group_left_out_while_it_had_no_page(frozen_clock):
    ann, ben = await make_user("ann"), await make_user("ben")
    ticket = await database_sync_to_async(play_join)(player=player(ann), choices=LIVE_2)
    frozen_clock.advance(seconds=60)  # ann's page has not been heard of for a minute
    second = await database_sync_to_async(play_join)(player=player(ben), choices=LIVE_2)
    assert second.status == "waiting"
    page = await waiting_page(ann)
    message = json.loads(await page.receive_from(timeout=3))
    assert message["status"] == "matched"
    assert await database_sync_to_async(status_of)(ticket.pk) == "matched"
    await page.disconnect()
