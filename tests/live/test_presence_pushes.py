"""Who is at the table, pushed (games/live/presence_pushes.py): coalesced pushes, and the rooms
of a process that died. Runs on the in-memory layer and on Redis."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import jobs, services
from games.live.presence_pushes import pushes
from games.models import Connection, LiveServer
from tests.live.helpers import open_pages
from tests.live.test_consumers import (
    connect,
    make_user,
    receive_board,
    two_player_game,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("presence_pushes_finished"),
]


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
