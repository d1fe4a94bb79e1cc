""" "Play now" across two daphne processes on PostgreSQL and Redis: two people who post at the
same moment to different processes end at the same one table, and a waiting page on one
process is taken to the table a post on the other process opened."""

from __future__ import annotations

import asyncio
import contextlib
import json

from bench import live

CASUAL_BLITZ = {"pace": "blitz", "players": "2", "rated": "no"}


async def status(client, guest: live.Guest, base: str) -> dict:
    response = await guest.get(client, f"{base}/play/status.json")
    assert response.status_code == 200, response.text[:300]
    return response.json()


async def test_two_posts_at_the_same_moment_on_two_processes_make_one_table(two_servers):
    here, there = two_servers
    async with live.http_client() as client:
        for round_ in range(6):
            one, two = live.Guest(f"Ann{round_}"), live.Guest(f"Bea{round_}")
            for guest, server in ((one, here), (two, there)):
                page = await guest.get(client, f"{server.base_url}/play/")
                assert page.status_code == 200
            answers = await asyncio.gather(
                one.post(
                    client, f"{here.base_url}/play/", {**CASUAL_BLITZ, "name": one.name}, htmx=False
                ),
                two.post(
                    client,
                    f"{there.base_url}/play/",
                    {**CASUAL_BLITZ, "name": two.name},
                    htmx=False,
                ),
            )
            assert [a.status_code for a in answers] == [302, 302], [a.text[:300] for a in answers]
            tables = [a.headers["location"] for a in answers if a.headers["location"] != "/play/"]
            assert len(tables) == 1, [a.headers["location"] for a in answers]  # one completed it
            # Each asks the other process where they stand: the same one table.
            seen = [
                await status(client, one, there.base_url),
                await status(client, two, here.base_url),
            ]
            assert seen[0]["status"] == seen[1]["status"] == "matched", seen
            assert seen[0]["game"] == seen[1]["game"]
            assert tables == [f"/g/{seen[0]['game']}/"]
            table = await live.state(client, here.base_url, seen[0]["game"])
            assert table["status"] == "playing"
            assert sorted(seat["name"] for seat in table["seats"]) == sorted([one.name, two.name])
    for server in two_servers:
        assert "Traceback" not in server.log(), server.log()[-4000:]


async def test_a_waiting_page_on_one_process_is_taken_to_the_table_opened_on_the_other(
    two_servers,
):
    here, there = two_servers
    ann, bea = live.Guest("Anna"), live.Guest("Beata")
    async with live.http_client() as client:
        await ann.get(client, f"{here.base_url}/play/")
        answer = await ann.post(
            client, f"{here.base_url}/play/", {**CASUAL_BLITZ, "name": ann.name}, htmx=False
        )
        assert answer.headers["location"] == "/play/"
        from websockets.asyncio.client import connect

        socket = await connect(
            f"{there.ws_url}/ws/play/",
            origin=there.base_url,
            additional_headers={"Cookie": ann.headers(htmx=False)["Cookie"]},
            open_timeout=60,
            ping_interval=None,
        )
        try:
            with contextlib.suppress(TimeoutError):
                early = await asyncio.wait_for(socket.recv(), 0.5)
                raise AssertionError(f"a waiting page was told {early} before any match")
            await bea.get(client, f"{here.base_url}/play/")
            answer = await bea.post(
                client, f"{here.base_url}/play/", {**CASUAL_BLITZ, "name": bea.name}, htmx=False
            )
            table = answer.headers["location"]
            assert table.startswith("/g/")
            message = json.loads(await asyncio.wait_for(socket.recv(), 30))
            assert message["status"] == "matched" and message["url"] == table
        finally:
            await socket.close()
